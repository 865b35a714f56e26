// A private npm registry for the install tests: verdaccio (pinned in scripts/n8n/registry/, run on
// its own Node 24) on a free 127.0.0.1 port, storage in a temp folder, no uplinks, so it holds
// only what the tests publish to it. Plus the `npm` wrapper that points n8n's installer at it.
//
//   const registry = await startRegistry({ log });
//   await registry.publish(tarballPath);            // npm publish, with a token of the registry's own user
//   env = { ...registry.n8nEnv() }                  // for every n8n process: PATH with the npm wrapper first
//   registry.npmCalls()                             // what n8n asked npm to do, in order
//   await registry.stop();
//
// Why a wrapper: n8n 2.41 and 1.123 refuse N8N_COMMUNITY_PACKAGES_REGISTRY other than the public
// registry without an enterprise licence ("feat:communityNodes:customRegistry"), and pass
// `--registry=<public registry>` to every npm call of the installer (`npm pack`, `npm view`,
// `npm install`). The wrapper, first in n8n's PATH, replaces that with the local registry (and adds
// it to calls without one, such as `npm outdated`), logs the call, and runs the real npm.
// Everything else n8n does (unpacking, stripping peer dependencies, `npm install
// --install-strategy=shallow`, loading, the database record, pub/sub to other processes) is n8n's.
// Standard library only.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const install = require('./install');
const { HOST, spawnGroup, stopGroup, freePort, waitUntil, tailOf } = require('./processes');

/** The real npm (not a wrapper of ours), resolved once from PATH. */
function realNpm() {
	for (const dir of (process.env.PATH || '').split(path.delimiter)) {
		if (!dir || dir.includes('bizops-registry-')) continue;
		const candidate = path.join(dir, 'npm');
		if (fs.existsSync(candidate)) return fs.realpathSync(candidate);
	}
	throw new Error('npm not found in PATH');
}

function writeWrapper(binDir, { registryUrl, npm, callLog, nodeBinDir }) {
	fs.mkdirSync(binDir, { recursive: true });
	const file = path.join(binDir, 'npm');
	fs.writeFileSync(
		file,
		`#!/usr/bin/env bash
# Written by n8n-nodes-business-ops scripts/n8n/registry.js for a test: npm with the local registry.
args=()
for a in "$@"; do
  case "$a" in
    --registry=*) ;;
    *) args+=("$a") ;;
  esac
done
printf '%s\\t%s\\n' "$PWD" "\${args[*]}" >> ${JSON.stringify(callLog)}
export PATH=${JSON.stringify(nodeBinDir)}:"$PATH"
exec ${JSON.stringify(npm)} "\${args[@]}" --registry=${JSON.stringify(registryUrl)}
`,
		{ mode: 0o755 },
	);
	return file;
}

/**
 * Starts verdaccio; resolves once it answers /-/ping and a publishing user exists.
 * @param {{ log?: (line: string) => void, timeoutMs?: number }} [o]
 */
async function startRegistry(o = {}) {
	const log = o.log || (() => {});
	const runtime = install.ensureRuntime({ which: 'registry', log });
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bizops-registry-'));
	const port = await freePort(0);
	const url = `http://${HOST}:${port}`;
	const logFile = path.join(folder, 'verdaccio.log');
	const config = path.join(folder, 'config.yaml');
	fs.writeFileSync(
		config,
		[
			`storage: ${JSON.stringify(path.join(folder, 'storage'))}`,
			'auth:',
			'  htpasswd:',
			`    file: ${JSON.stringify(path.join(folder, 'htpasswd'))}`,
			'    max_users: 10',
			'uplinks: {}',
			'packages:',
			"  '**':",
			'    access: $all',
			'    publish: $authenticated',
			'    unpublish: $authenticated',
			'web:',
			'  enable: false',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	const rec = spawnGroup(
		runtime.nodeBin,
		[runtime.verdaccioBin, '--config', config, '--listen', `${HOST}:${port}`],
		{
			cwd: folder,
			logFile,
			onExit: () => {
				if (!process.env.KEEP_REGISTRY_FOLDER) fs.rmSync(folder, { recursive: true, force: true });
			},
		},
	);
	log(`verdaccio starting on ${url} (pid ${rec.pid}, folder ${folder})`);
	const stop = async () => {
		await stopGroup(rec, 'SIGTERM', 10_000);
		if (!process.env.KEEP_REGISTRY_FOLDER) fs.rmSync(folder, { recursive: true, force: true });
	};
	try {
		await waitUntil(
			rec,
			async () =>
				(
					await fetch(`${url}/-/ping`, { signal: AbortSignal.timeout(2000) }).catch(() => ({
						ok: false,
					}))
				).ok,
			o.timeoutMs || 60_000,
			'verdaccio',
		);
	} catch (e) {
		await stop();
		throw e;
	}

	// A user to publish as: verdaccio answers the account creation with a token.
	const res = await fetch(`${url}/-/user/org.couchdb.user:publisher`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'publisher', password: `pw-${process.pid}-${Date.now()}` }),
	});
	const body = await res.json().catch(() => ({}));
	if (!res.ok || !body.token) {
		await stop();
		throw new Error(
			`verdaccio did not create the publishing user: HTTP ${res.status} ${JSON.stringify(body)}`,
		);
	}
	const userconfig = path.join(folder, 'publisher.npmrc');
	fs.writeFileSync(userconfig, `registry=${url}/\n//${HOST}:${port}/:_authToken=${body.token}\n`, {
		mode: 0o600,
	});

	const npm = realNpm();
	const callLog = path.join(folder, 'npm-calls.log');
	fs.writeFileSync(callLog, '');
	const binDir = path.join(folder, 'bin');
	writeWrapper(binDir, {
		registryUrl: `${url}/`,
		npm,
		callLog,
		nodeBinDir: path.join(runtime.nodeHome, 'bin'),
	});
	// `npm` = npm 10.9 on Node 24: the npm of n8n's Node 22 Docker images, for the manual-install test.
	const npm10BinDir = path.join(folder, 'npm10');
	fs.mkdirSync(npm10BinDir);
	fs.writeFileSync(
		path.join(npm10BinDir, 'npm'),
		`#!/usr/bin/env bash\nexec ${JSON.stringify(runtime.nodeBin)} ${JSON.stringify(runtime.npmCli)} "$@"\n`,
		{ mode: 0o755 },
	);

	return {
		url,
		port,
		folder,
		logFile,
		userconfig,
		binDir,
		/** A folder whose `npm` is npm 10.9 (put it first in PATH). */
		npm10BinDir,
		tail: (lines) => tailOf(logFile, lines),
		/** npm publish of a tarball; returns npm's output. */
		publish(tarball) {
			const r = spawnSync(
				npm,
				[
					'publish',
					tarball,
					`--userconfig=${userconfig}`,
					`--registry=${url}/`,
					'--ignore-scripts',
					'--no-provenance',
				],
				{
					encoding: 'utf8',
					env: { ...process.env, npm_config_update_notifier: 'false' },
				},
			);
			if (r.status !== 0)
				throw new Error(
					`npm publish ${path.basename(tarball)} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`,
				);
			return `${r.stdout}${r.stderr}`.trim();
		},
		/** Versions of a package the registry holds, and its dist-tags. */
		async packument(name) {
			const r = await fetch(`${url}/${name.replace('/', '%2f')}`, {
				signal: AbortSignal.timeout(10_000),
			});
			if (!r.ok) throw new Error(`registry GET /${name} -> ${r.status}`);
			return r.json();
		},
		/**
		 * Environment for an n8n process that installs from this registry: the wrapper first in PATH.
		 * (`npm_config_registry` too, for anything that runs npm without naming a registry.)
		 */
		n8nEnv() {
			return {
				PATH: `${binDir}${path.delimiter}${process.env.PATH || ''}`,
				npm_config_registry: `${url}/`,
			};
		},
		/** The npm calls that went through the wrapper: [{ cwd, args }]. */
		npmCalls() {
			return fs
				.readFileSync(callLog, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map((line) => {
					const [cwd, args] = line.split('\t');
					return { cwd, args };
				});
		},
		stop,
	};
}

module.exports = { startRegistry };
