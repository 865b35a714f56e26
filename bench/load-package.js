#!/usr/bin/env node
// Loads a community-node package the way n8n does at start and prints one JSON line with the
// time it took. Run once per measurement in a fresh process (bench/package.js does that).
//   node bench/load-package.js package <package root>   n8n-core's PackageDirectoryLoader (an installed community package)
//   node bench/load-package.js custom <folder>          n8n-core's CustomDirectoryLoader (N8N_CUSTOM_EXTENSIONS)
// n8n-workflow and n8n-core are loaded first and not timed: n8n has them loaded already.
'use strict';

require('n8n-workflow');
const core = require('n8n-core');

async function main() {
	const [kind, dir] = process.argv.slice(2);
	const Loader = kind === 'custom' ? core.CustomDirectoryLoader : core.PackageDirectoryLoader;
	if (!Loader || !dir) throw new Error('usage: load-package.js package|custom <dir>');
	const t = process.hrtime.bigint();
	const loader = new Loader(dir);
	await loader.loadAll();
	const ms = Number(process.hrtime.bigint() - t) / 1e6;
	const nodes = Object.keys(loader.nodeTypes);
	const credentials = Object.keys(loader.credentialTypes);
	if (nodes.length === 0) throw new Error(`no node loaded from ${dir}`);
	process.stdout.write(`${JSON.stringify({ ms, nodes, credentials })}\n`);
}

main().catch((e) => {
	process.stderr.write(`${e.stack || e}\n`);
	process.exit(1);
});
