// Package figures: the tarball `npm pack` would publish, and the time n8n's loader needs to load
// the package's files (n8n-core's PackageDirectoryLoader, as for an installed community package),
// each load in a fresh Node process, against a minimal one-node package loaded the same way.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const { rt } = require('./lib/n8n');
const { median, min, max, fmtMs, fmtBytes } = require('./lib/stats');
const { atMost } = require('./lib/table');

/** A size is the same on every machine: the package's tarball has a fixed limit besides its ratio. */
const TARBALL_LIMIT = 100_000;
/** Load time is judged only against the minimal package loaded the same way in the same run. */
const LOAD_RATIO_LIMIT = 4;

/** `npm pack --dry-run --json` of a package folder (the repository as it is built now by default). */
function tarball(dir = rt.REPO_ROOT) {
	const res = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: dir,
		encoding: 'utf8',
		maxBuffer: 64 << 20,
	});
	if (res.status !== 0) throw new Error(`npm pack --dry-run failed: ${res.stderr.slice(-500)}`);
	const info = JSON.parse(res.stdout.slice(res.stdout.indexOf('[')))[0];
	const bySuffix = {};
	for (const f of info.files) {
		const suffix =
			f.path.match(/(\.tsbuildinfo|\.d\.ts|\.js\.map|\.js|\.json|\.svg|\.md)$/)?.[1] ?? 'other';
		bySuffix[suffix] = (bySuffix[suffix] || 0) + f.size;
	}
	return {
		size: info.size,
		unpackedSize: info.unpackedSize,
		entryCount: info.entryCount,
		bySuffix,
		files: info.files.map((f) => f.path),
	};
}

/** A minimal community package: one declarative node with one operation, one credential, an icon. */
function minimalPackage() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-minimal-'));
	fs.mkdirSync(path.join(dir, 'dist'));
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({
			name: 'n8n-nodes-bench-minimal',
			version: '0.0.1',
			n8n: {
				n8nNodesApiVersion: 1,
				credentials: ['dist/MinimalApi.credentials.js'],
				nodes: ['dist/Minimal.node.js'],
			},
		}),
	);
	fs.writeFileSync(
		path.join(dir, 'dist', 'minimal.svg'),
		'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>',
	);
	fs.writeFileSync(
		path.join(dir, 'dist', 'MinimalApi.credentials.js'),
		`'use strict';
class MinimalApi {
	constructor() {
		this.name = 'minimalApi';
		this.displayName = 'Minimal API';
		this.properties = [{ displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' }];
		this.authenticate = { type: 'generic', properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } } };
	}
}
module.exports = { MinimalApi };
`,
	);
	fs.writeFileSync(
		path.join(dir, 'dist', 'Minimal.node.js'),
		`'use strict';
class Minimal {
	constructor() {
		this.description = {
			displayName: 'Minimal', name: 'minimal', icon: 'file:minimal.svg', group: ['transform'], version: 1,
			description: 'One GET', defaults: { name: 'Minimal' }, inputs: ['main'], outputs: ['main'],
			credentials: [{ name: 'minimalApi', required: true }],
			requestDefaults: { baseURL: 'https://example.invalid' },
			properties: [
				{ displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, default: 'get',
				  options: [{ name: 'Get', value: 'get', action: 'Get a thing', routing: { request: { method: 'GET', url: '/thing' } } }] },
			],
		};
	}
}
module.exports = { Minimal };
`,
	);
	return dir;
}

function loadOnce(ctx, kind, dir) {
	const res = spawnSync(ctx.runtime.nodeBin, [path.join(__dirname, 'load-package.js'), kind, dir], {
		cwd: rt.REPO_ROOT,
		encoding: 'utf8',
		env: { ...process.env, NODE_OPTIONS: '', N8N_LOG_LEVEL: 'warn' },
		timeout: 60_000,
	});
	if (res.status !== 0)
		throw new Error(`load-package.js ${kind} ${dir} failed: ${(res.stderr || '').slice(-800)}`);
	return JSON.parse(res.stdout.trim().split('\n').pop());
}

async function run(ctx) {
	const { log } = ctx;
	const runs = ctx.quick ? 3 : 9;

	const tb = tarball();
	const maps = tb.bySuffix['.js.map'] || 0;
	const buildInfo = tb.bySuffix['.tsbuildinfo'] || 0;
	const minimal = minimalPackage();
	ctx.ownFolder(minimal);
	const minimalTb = tarball(minimal);
	log(
		`tarball ${fmtBytes(tb.size)} (${tb.entryCount} files, ${fmtBytes(tb.unpackedSize)} unpacked; .tsbuildinfo ${fmtBytes(buildInfo)}, .js.map ${fmtBytes(maps)} unpacked); minimal package ${fmtBytes(minimalTb.size)}`,
	);
	ctx.row({
		section: 'Package',
		name: 'Tarball size (npm pack)',
		measured: fmtBytes(tb.size),
		baseline: `minimal 1-node package: ${fmtBytes(minimalTb.size)}`,
		ratio: tb.size / minimalTb.size,
		target: `<= ${fmtBytes(TARBALL_LIMIT)}`,
		verdict: atMost(tb.size, TARBALL_LIMIT),
		detail: `npm pack --dry-run of the current build: ${tb.entryCount} files, ${fmtBytes(tb.unpackedSize)} unpacked, of which .js ${fmtBytes(tb.bySuffix['.js'] || 0)}, .js.map ${fmtBytes(maps)}, .d.ts ${fmtBytes(tb.bySuffix['.d.ts'] || 0)}, .tsbuildinfo ${fmtBytes(buildInfo)}; the minimal package (one declarative node, one credential, an icon) packed the same way in this run: ${minimalTb.entryCount} files`,
	});

	const times = { pkg: [], minimal: [], custom: [] };
	let loaded;
	for (let i = 0; i < runs; i++) {
		const r = loadOnce(ctx, 'package', rt.REPO_ROOT);
		loaded = r;
		times.pkg.push(r.ms);
		times.minimal.push(loadOnce(ctx, 'package', minimal).ms);
		times.custom.push(loadOnce(ctx, 'custom', rt.DIST_DIR).ms);
	}
	const p = median(times.pkg);
	const m = median(times.minimal);
	log(
		`loader: package ${fmtMs(p)}, minimal package ${fmtMs(m)}, custom-directory loader on dist ${fmtMs(median(times.custom))}`,
	);
	ctx.row({
		section: 'Package',
		name: "Load time with n8n's loader",
		measured: fmtMs(p),
		baseline: `minimal 1-node package: ${fmtMs(m)}`,
		ratio: p / m,
		target: `<= ${LOAD_RATIO_LIMIT}x`,
		verdict: atMost(p / m, LOAD_RATIO_LIMIT),
		detail: `n8n-core PackageDirectoryLoader.loadAll() on the package root (${loaded.nodes.join(', ')}; ${loaded.credentials.join(', ')}), median of ${runs} fresh Node ${ctx.runtime.nodeVersion} processes (${fmtMs(min(times.pkg))}–${fmtMs(max(times.pkg))}), n8n-workflow and n8n-core loaded beforehand and not counted; CustomDirectoryLoader on dist/ (N8N_CUSTOM_EXTENSIONS) ${fmtMs(median(times.custom))}`,
	});
	return { tarball: tb, times };
}

module.exports = { name: 'package', run, minimalPackage, tarball };
