#!/usr/bin/env node
// `npm run test:browser` (phase `browser` of `npm test`; also `npm run screenshots`): the README's
// first workflow done in headless Chromium in the real n8n 2.41 editor, with the package installed
// by n8n's Community Nodes installer from a local registry and the sandbox behind a credential
// "Business Ops API" (the e2e setup of test/e2e/runner.js). The steps are test/browser/first-workflow.js;
// they write the README's screenshots into docs/ as they go, so the pictures show what this run saw.
//
//   npm run test:browser
//   BROWSER_KEEP=1 npm run test:browser     keep the browser profile (temp folder)
//   CHROMIUM_PATH=/usr/bin/google-chrome …  the browser binary (default: the first Chromium or Google Chrome found;
//                                           on Debian as root, Debian's chromium is installed when none is)
//
// A failing step prints its error, the n8n log of the step and where the screenshots of the open
// tabs at that moment were saved. Everything started here is stopped at the end.
'use strict';

const os = require('node:os');
const path = require('node:path');

const rt = require('./n8n');
const { runE2e, preparePackageAndSandbox } = require('../test/e2e/runner');
const { launchChromium } = require('./browser/chromium');
const { signIn } = require('./browser/editor');
const walkthrough = require('../test/browser/first-workflow');

const resources = { pkg: undefined, sandbox: undefined, n8n: undefined, chromium: undefined };
const pages = [];

/** Each step, on failure, saves a screenshot of every open tab and names the files in its error. */
function withFailureShots(module) {
	const steps = module.steps.map((step, i) => ({
		...step,
		timeoutMs: step.timeoutMs || 150_000,
		async run(ctx) {
			try {
				return await step.run(ctx);
			} catch (e) {
				const shots = [];
				for (const [n, page] of pages.entries()) {
					const file = path.join(os.tmpdir(), `bizops-browser-failed-step${i + 1}-tab${n + 1}.png`);
					if (
						await page.screenshot({ path: file }).then(
							() => true,
							() => false,
						)
					)
						shots.push(file);
				}
				e.message = `${e.message}\nthe page(s) at that moment: ${shots.join(', ') || 'no screenshot could be taken'}`;
				throw e;
			}
		},
	}));
	return { ...module, steps };
}

runE2e({
	prefix: 'browser',
	modules: [withFailureShots(walkthrough)],
	always: ['browser'],
	processes: () => (resources.n8n ? [['n8n', resources.n8n]] : []),
	async setup(phase, sub) {
		const { runtime, pkg, sandbox } = await preparePackageAndSandbox({
			phase,
			sub,
			which: 'n8n2',
			resources,
		});
		const { n8n, client } = await phase(
			"start n8n; owner; install the package with n8n's installer",
			async () => {
				const started = await rt.startN8nWithPackage({
					runtime,
					pkg,
					owner: rt.DEMO_OWNER,
					expectNodeTypes: Object.values(rt.NODE_TYPES),
					port: 0,
					log: sub,
				});
				resources.n8n = started.n8n;
				return started;
			},
		);
		await phase('the credential "Business Ops API" (admin key)', async () =>
			client.createCredential({
				name: 'Business Ops API',
				type: rt.CREDENTIAL_TYPE,
				data: rt.credentialData(sandbox, sandbox.keys.admin),
			}),
		);
		const chromium = await phase('headless Chromium; sign in', async () => {
			resources.chromium = await launchChromium({
				say: sub,
				keep: Boolean(process.env.BROWSER_KEEP),
			});
			return resources.chromium;
		});
		const openPage = async () => {
			const page = await chromium.browser.newPage();
			page.setDefaultTimeout(45_000);
			pages.push(page);
			return page;
		};
		const page = await openPage();
		await signIn(page, n8n.baseUrl, rt.DEMO_OWNER);
		return {
			page,
			openPage,
			baseUrl: n8n.baseUrl,
			owner: rt.DEMO_OWNER,
			sandbox,
			docsDir: path.join(rt.REPO_ROOT, 'docs'),
			state: {},
		};
	},
	async stop() {
		await resources.chromium?.close();
		await resources.n8n?.dispose();
		await resources.sandbox?.stop();
		await resources.pkg?.stop();
	},
});
