#!/usr/bin/env node
// End-to-end tests of this package in one real n8n process against the local sandbox of the API,
// with the package installed the way users install it: published to a local registry and
// installed by n8n's own Community Nodes installer (POST /rest/community-packages as the owner).
//
//   npm run test:e2e                  n8n 2.41.x, all areas
//   npm run test:e2e:n8n1             the same on n8n 1.123.x (the 1.x LTS line)
//   node scripts/e2e.js contacts      only the named areas (startup always runs)
//   node scripts/e2e.js --n8n=1 …     n8n 1.123.x
//   KEEP_N8N_FOLDER=1                 keep n8n's temp user folder (database, n8n.log) afterwards
//
// Prints one line per step, what n8n logged during a failing step, and closes with
// "N passed, N failed". Exits non-zero on any failure. Always stops what it started.
// The steps live in test/e2e/*.js, listed in test/e2e/index.js; ctx is described in test/e2e/README.md.
'use strict';

const rt = require('./n8n');
const {
	runE2e,
	preparePackageAndSandbox,
	createCredentials,
	baseContext,
} = require('../test/e2e/runner');

const which = process.argv.includes('--n8n=1') ? 'n8n1' : 'n8n2';
const resources = { pkg: undefined, sandbox: undefined, n8n: undefined, extra: [] };

runE2e({
	prefix: which === 'n8n1' ? 'e2e n8n1' : 'e2e',
	modules: require('../test/e2e'),
	processes: () => [...(resources.n8n ? [['n8n', resources.n8n]] : []), ...resources.extra],
	async setup(phase, sub) {
		const { runtime, pkg, sandbox } = await preparePackageAndSandbox({
			phase,
			sub,
			which,
			resources,
			// The per-key rate limit is raised so the run is not throttled; rate-limit steps lower it themselves.
			sandboxOptions: { rateLimit: { limit: 100_000, windowMs: 60_000 } },
		});
		const start = (o) =>
			rt.startN8nWithPackage({
				runtime,
				pkg,
				owner: rt.DEMO_OWNER,
				expectNodeTypes: Object.values(rt.NODE_TYPES),
				log: sub,
				...o,
			});
		const { n8n, client, installed } = await phase(
			"start n8n; owner; install the package with n8n's installer",
			async () => {
				const started = await start({ port: 0 });
				resources.n8n = started.n8n;
				return started;
			},
		);
		const credentials = await phase('credentials for the sandbox keys', async () =>
			createCredentials(client, sandbox),
		);
		const ctx = await baseContext({ client, n8n, sandbox, pkg, runtime, credentials, installed });
		/**
		 * Another n8n of the same version against the same sandbox and registry (see docs/subscriptions.md, "Several n8n instances").
		 * install: true (n8n's installer), false (start only: the package must already be in
		 * `userFolder`/.n8n/nodes, or `expectNodeTypes: []`). Resolves to
		 * { n8n, client, credentials, installed, dispose() }.
		 */
		ctx.startInstance = async (o = {}) => {
			const started = await start({
				port: 0,
				install: o.install !== false,
				userFolder: o.userFolder,
				env: o.env,
				...(o.expectNodeTypes ? { expectNodeTypes: o.expectNodeTypes } : {}),
			});
			const entry = [o.name || `n8n #${resources.extra.length + 2}`, started.n8n];
			resources.extra.push(entry);
			// Credentials of the package's type exist only where the package is.
			const instanceCredentials =
				o.expectNodeTypes?.length === 0 ? {} : await createCredentials(started.client, sandbox);
			return {
				...started,
				credentials: instanceCredentials,
				dispose: async () => {
					resources.extra = resources.extra.filter((e) => e !== entry);
					await started.n8n.dispose();
				},
			};
		};
		return ctx;
	},
	async stop() {
		for (const [, h] of resources.extra.splice(0)) await h?.dispose().catch(() => {});
		await resources.n8n?.dispose();
		await resources.sandbox?.stop();
		await resources.pkg?.stop();
	},
});
