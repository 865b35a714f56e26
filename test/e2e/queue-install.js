// Queue mode (scripts/e2e-queue.js only): the package was installed through the main's Community
// Nodes installer alone. The workers and the webhook processes, running at the time, got it through
// n8n's pub/sub ("community-package-install"): each installed the same version into its own
// ~/.n8n/nodes with its own npm calls. A worker started later with an empty ~/.n8n installs it at
// startup when N8N_REINSTALL_MISSING_PACKAGES=true.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const assert = require('node:assert/strict');
const h = require('./harness');
const { checkInstalledFolder } = require('./install');

/** Waits until the process's nodes folder holds the package at `version`; checks the folder. */
async function expectInstalled(ctx, handle, version, what) {
	const file = path.join(handle.nodesDir, 'node_modules', ctx.pkg.name, 'package.json');
	await h.waitFor(
		() => fs.existsSync(file) && JSON.parse(fs.readFileSync(file, 'utf8')).version === version,
		{ timeoutMs: 60_000, what: `${what} to install ${ctx.pkg.name}@${version}` },
	);
	checkInstalledFolder(ctx, handle.nodesDir);
	await h.waitFor(
		() => h.logText(handle).includes(`Community package installed: ${ctx.pkg.name}`),
		{
			timeoutMs: 30_000,
			what: `${what} to load the package`,
		},
	);
	const calls = ctx.pkg.registry.npmCalls().filter((c) => c.cwd.startsWith(handle.userFolder));
	assert.ok(
		calls.some((c) => c.args.startsWith(`pack ${ctx.pkg.name}@${version}`)),
		`${what} ran no npm pack of its own: ${calls.map((c) => c.args).join(' | ')}`,
	);
	return calls;
}

module.exports = {
	area: 'queueInstall',
	steps: [
		{
			name: "the workers and the webhook processes got the package through n8n's pub/sub (each its own npm install)",
			async run(ctx) {
				const done = [];
				for (const [what, h] of [
					...ctx.queue.workers.map((w, i) => [`worker ${i + 1}`, w]),
					...ctx.queue.webhooks.map((w, i) => [`webhook process ${i + 1}`, w]),
				]) {
					const calls = await expectInstalled(ctx, h, ctx.pkg.version, what);
					done.push(`${what}: ${calls.map((c) => c.args.split(' ')[0]).join(', ')}`);
				}
				return `${ctx.pkg.name}@${ctx.pkg.version} in every process's own ~/.n8n/nodes; ${done.join('; ')}`;
			},
		},
		{
			name: 'a worker started afterwards with an empty ~/.n8n and N8N_REINSTALL_MISSING_PACKAGES=true installs the package at startup',
			timeoutMs: 240_000,
			async run(ctx) {
				const late = await ctx.queue.startProcess('worker', {
					env: { N8N_REINSTALL_MISSING_PACKAGES: 'true' },
				});
				try {
					const calls = await expectInstalled(ctx, late, ctx.pkg.version, 'the late worker');
					assert.match(h.logText(late), /Attempting to reinstall missing packages/);
					return `installed at startup (${calls.map((c) => c.args.split(' ')[0]).join(', ')})`;
				} finally {
					// Stopped before the queue steps, which check that the run's workers ran every execution.
					await late.dispose();
				}
			},
		},
	],
};
