// Runtime library for running this package in real n8n (used by the demo, the e2e runners and
// the benchmarks). Plain CommonJS, standard library only.
//
//   const rt = require('./n8n');
//   const runtime = rt.ensureRuntime();                 // pinned n8n 2.41.x + Node 24, cached
//                                                       // ({ which: 'n8n1' }: n8n 1.123 LTS)
//   const pkg = await rt.publishPackage();              // clean build in a private copy of the repo,
//                                                       // npm pack, local registry, publish
//   rt.buildSandbox(pkg.root);                          // <that copy>/build/sandbox/
//   const sandbox = await rt.startSandbox({ root: pkg.root, port: 4010 });
//   const { n8n, client } = await rt.startN8nWithPackage({ runtime, pkg, owner: rt.DEMO_OWNER,
//     expectNodeTypes: Object.values(rt.NODE_TYPES), port: 5678 });   // installed by n8n's installer
//   ... client.createCredential / createWorkflow / publishWorkflow / runManually / executions
//   await n8n.dispose(); await sandbox.stop(); await pkg.stop();
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const install = require('./install');
const server = require('./server');
const client = require('./client');
const installed = require('./installed');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DIST_DIR = path.join(REPO_ROOT, 'dist');
const PACKAGE_NAME = require(path.join(REPO_ROOT, 'package.json')).name;

/**
 * Node type names of this package in an n8n that installed it as a community package
 * (`<package name>.<node name>`); every test, the demo and the example workflows use these.
 */
const NODE_TYPES = {
	action: `${PACKAGE_NAME}.businessOps`,
	trigger: `${PACKAGE_NAME}.businessOpsTrigger`,
	pollingTrigger: `${PACKAGE_NAME}.businessOpsPollingTrigger`,
};
/** The names n8n gives the nodes when it loads dist/ through N8N_CUSTOM_EXTENSIONS (the benchmarks only). */
const CUSTOM_NODE_TYPES = {
	action: 'CUSTOM.businessOps',
	trigger: 'CUSTOM.businessOpsTrigger',
	pollingTrigger: 'CUSTOM.businessOpsPollingTrigger',
};
const CREDENTIAL_TYPE = 'businessOpsApi';

/** The owner account the demo (and e2e) create; printed by the demo. */
const DEMO_OWNER = {
	email: 'demo@example.com',
	password: 'Demo-Passw0rd!',
	firstName: 'Demo',
	lastName: 'Owner',
};

function runChecked(cmd, args, label, opts = {}) {
	const res = spawnSync(cmd, args, {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		maxBuffer: 64 << 20,
		...opts,
	});
	if (res.error) throw res.error;
	if (res.status !== 0) {
		const out = `${res.stdout || ''}${res.stderr || ''}`.trim().split('\n').slice(-40).join('\n');
		throw new Error(`${label} failed (exit ${res.status}):\n${out}`);
	}
	return res.stdout;
}

/** `npm run build`: tsc + icons into dist/ (the benchmarks; tests use publishPackage). */
function buildPackage() {
	runChecked('npm', ['run', '--silent', 'build'], 'npm run build');
}

/**
 * Compiles the sandbox into a fresh `<root>/build/sandbox/` (no output of a removed or renamed
 * source file stays behind, nor the .d.ts files of earlier builds, which `npm run lint` would check).
 * root: this repo, or the private copy a run built its package in (`pkg.root`), so that a run
 * beside it never removes the code its sandbox loads.
 */
function buildSandbox(root = REPO_ROOT) {
	fs.rmSync(path.join(root, 'build', 'sandbox'), { recursive: true, force: true });
	const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
	runChecked(
		process.execPath,
		[tsc, '-p', path.join(root, 'sandbox', 'tsconfig.json')],
		'tsc -p sandbox/tsconfig.json',
	);
}

/** The compiled sandbox module of `root` (buildSandbox(root) first). */
function sandboxModule(root = REPO_ROOT) {
	return require(path.join(root, 'build', 'sandbox', 'index.js'));
}

/** Starts the sandbox compiled in `root` (default: this repo) in this process. */
async function startSandbox({ root, ...options } = {}) {
	return sandboxModule(root).startSandbox({ host: '127.0.0.1', ...options });
}

/** Calls one of the sandbox's HTTP controls (`<controlUrl>/<what>`). */
async function sandboxControl(controlUrl, method, what, body) {
	const res = await fetch(`${controlUrl}/${what.replace(/^\//, '')}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(15_000),
	});
	const text = await res.text();
	let parsed = text;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		/* not JSON */
	}
	if (!res.ok)
		throw new Error(`sandbox ${method} /${what} -> ${res.status}: ${text.slice(0, 300)}`);
	return parsed &&
		typeof parsed === 'object' &&
		'data' in parsed &&
		Object.keys(parsed).length === 1
		? parsed.data
		: parsed;
}

/** Credential data for a sandbox key. */
function credentialData(sandbox, key) {
	return { apiKey: key, baseUrl: sandbox.baseUrl };
}

module.exports = {
	REPO_ROOT,
	DIST_DIR,
	PACKAGE_NAME,
	NODE_TYPES,
	CUSTOM_NODE_TYPES,
	CREDENTIAL_TYPE,
	DEMO_OWNER,
	ensureRuntime: install.ensureRuntime,
	runtimeDir: install.runtimeDir,
	isRuntimeInstalled: install.isInstalled,
	publishPackage: installed.publishPackage,
	startN8nWithPackage: installed.startN8nWithPackage,
	waitForNodeTypes: installed.waitForNodeTypes,
	buildPackage,
	buildSandbox,
	sandboxModule,
	startSandbox,
	sandboxControl,
	credentialData,
	startN8n: server.startN8n,
	useBudgetWindow: require('./budgetWindows').useBudgetWindow,
	killN8nNow: server.killNow,
	freePort: server.freePort,
	tailOf: server.tailOf,
	N8nClient: client.N8nClient,
	N8nRequestError: client.N8nRequestError,
	nodeOutput: client.nodeOutput,
	executionError: client.executionError,
};
