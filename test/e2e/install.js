// The package in n8n the way users get it: n8n's Community Nodes installer fetched the tarball
// from the (local) registry, and the package runs on n8n's own n8n-workflow, so the errors it
// raises keep their HTTP code in n8n's error handling.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const assert = require('node:assert/strict');
const h = require('./harness');

/** Every file below `dir`, as paths relative to it. */
function filesBelow(dir, prefix = '') {
	return fs
		.readdirSync(dir, { withFileTypes: true })
		.flatMap((e) =>
			e.isDirectory()
				? filesBelow(path.join(dir, e.name), `${prefix}${e.name}/`)
				: [`${prefix}${e.name}`],
		);
}

/** Folders named `name` anywhere below `dir` (node_modules/n8n-workflow copies). */
function findFolders(dir, name, found = []) {
	if (!fs.existsSync(dir)) return found;
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		if (!e.isDirectory()) continue;
		const p = path.join(dir, e.name);
		if (e.name === name) found.push(p);
		else findFolders(p, name, found);
	}
	return found;
}

/**
 * Checks one n8n process's nodes folder: the package as published, with n8n's edits (no peer or dev
 * dependencies), and no n8n-workflow of its own. Returns the installed package.json.
 */
function checkInstalledFolder(ctx, nodesDir) {
	const dir = path.join(nodesDir, 'node_modules', ctx.pkg.name);
	assert.ok(fs.existsSync(dir), `${dir} does not exist`);
	const installed = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	assert.equal(
		installed.peerDependencies,
		undefined,
		'n8n left peerDependencies in the installed package.json',
	);
	assert.equal(
		installed.devDependencies,
		undefined,
		'n8n left devDependencies in the installed package.json',
	);
	assert.deepEqual(
		filesBelow(dir).sort(),
		[...ctx.pkg.files].sort(),
		'the installed files are not the files of the tarball',
	);
	const copies = findFolders(nodesDir, 'n8n-workflow');
	assert.deepEqual(copies, [], 'a second n8n-workflow next to the package');
	return installed;
}

module.exports = {
	area: 'install',
	checkInstalledFolder,
	steps: [
		{
			name: "n8n's Community Nodes installer installed the published tarball from the registry",
			async run(ctx) {
				const { installed, pkg } = ctx;
				assert.equal(installed.packageName, pkg.name);
				assert.equal(installed.installedVersion, pkg.version);
				assert.deepEqual(
					installed.installedNodes.map((n) => n.type).sort(),
					Object.values(h.rt.NODE_TYPES).sort(),
				);
				const calls = pkg.registry.npmCalls().filter((c) => c.cwd.startsWith(ctx.n8n.userFolder));
				assert.ok(
					calls.some((c) => c.args.startsWith(`pack ${pkg.name}@${pkg.version}`)),
					`n8n ran no "npm pack ${pkg.name}@${pkg.version}": ${calls.map((c) => c.args).join(' | ')}`,
				);
				assert.ok(
					calls.some(
						(c) => c.args.startsWith('install ') && c.args.includes('--install-strategy=shallow'),
					),
					'n8n ran no "npm install" in the package folder',
				);
				const listed = (await ctx.client.communityPackages()).find(
					(p) => p.packageName === pkg.name,
				);
				assert.ok(listed, 'Settings → Community Nodes does not list the package');
				assert.equal(listed.installedVersion, pkg.version);
				assert.notEqual(listed.failedLoading, true, 'n8n lists the package as failed to load');
				return `${pkg.name}@${installed.installedVersion}: ${installed.installedNodes.map((n) => n.name).join(', ')}; npm calls: ${calls.map((c) => c.args.split(' ').slice(0, 2).join(' ')).join(', ')}`;
			},
		},
		{
			name: "the installed package is the tarball's files and has no n8n-workflow of its own",
			async run(ctx) {
				const installed = checkInstalledFolder(ctx, ctx.n8n.nodesDir);
				return `${ctx.pkg.files.length} files in ${path.join(ctx.n8n.nodesDir, 'node_modules', ctx.pkg.name)}; declared peers in the tarball: ${Object.keys(require(path.join(h.rt.REPO_ROOT, 'package.json')).peerDependencies || {}).join(', ') || 'none'}, removed by n8n (v${installed.version})`;
			},
		},
		{
			name: 'errors raised in n8n keep their HTTP code (404 unknown record, 403 missing scope)',
			async run(ctx) {
				ctx.requireOperation('contact', 'get');
				const missing = h.expectFailure(
					await h.runOnRecord(ctx, 'contact', 'get', 'con_doesnotexist'),
					/404/,
				);
				assert.equal(missing.httpCode, '404', `httpCode of a 404: ${missing.httpCode}`);
				ctx.requireOperation('organization', 'get');
				const scope = h.expectFailure(
					await h.runOperation(
						ctx,
						{ resource: 'organization', operation: 'get' },
						{ key: 'contactsOnly' },
					),
					/403/,
				);
				assert.equal(scope.httpCode, '403', `httpCode of a 403: ${scope.httpCode}`);
				return `httpCode 404: "${missing.message}"; httpCode 403: "${scope.message}"`;
			},
		},
	],
};
