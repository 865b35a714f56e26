#!/usr/bin/env node
// `npm run screenshots`: screenshots of the real n8n editor (2.41.x) with this package installed
// by its Community Nodes installer from a local registry, for the README. Starts the local sandbox
// and n8n with the helpers of scripts/n8n (like `npm run demo`),
// creates the owner, a credential and two workflows, then drives headless Chromium (puppeteer-core)
// to sign in and take PNGs into docs/:
//
//   docs/node-panel.png       the Business Ops node's panel on Quote → Create, after a run
//   docs/operations-list.png  the nodes panel listing the Business Ops actions
//   docs/trigger.png          the Business Ops Trigger's panel: events and signature options
//   docs/credential.png       the Business Ops API credential, tested
//
//   npm run screenshots
//   SCREENSHOTS_SKIP_BUILD=1 npm run screenshots   pack dist/ and use build/sandbox/ as they are
//   SCREENSHOTS_KEEP=1 npm run screenshots         keep the browser profile and failure shots (temp folder)
//
// Needs Debian's chromium at /usr/bin/chromium; when it is missing and the script runs as root,
// it installs it with apt-get. Everything it starts (sandbox, n8n, Chromium) is stopped at the end.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const rt = require('./n8n');

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-dev-shm-usage',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];
const VIEWPORT = { width: 1440, height: 900, deviceScaleFactor: 1 };
const DOCS_DIR = path.join(rt.REPO_ROOT, 'docs');
const MAX_PNG_BYTES = 300 * 1024;
const UI_TIMEOUT_MS = 30_000;
/** The whole run is bounded: after this, everything is stopped and the script fails. */
const OVERALL_TIMEOUT_MS = 20 * 60_000;

const say = (line) => process.stdout.write(`[screenshots] ${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves to the promise's value, or rejects after `ms`. */
function within(ms, promise, what) {
	let timer;
	return Promise.race([
		promise.finally(() => clearTimeout(timer)),
		new Promise((_, reject) => {
			timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms / 1000} s`)), ms);
		}),
	]);
}

// ----- Chromium -----

function ensureChromium() {
	if (fs.existsSync(CHROMIUM)) return;
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		throw new Error(`${CHROMIUM} is missing; install Debian's chromium package (apt-get install chromium) and run again`);
	}
	say(`${CHROMIUM} is missing: installing Debian's chromium with apt-get (about 30 s)…`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
		const res = spawnSync('apt-get', args, { env, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 10 * 60_000 });
		if (res.error || res.status !== 0) {
			const out = `${res.stdout || ''}${res.stderr || ''}`.trim().split('\n').slice(-20).join('\n');
			throw new Error(`apt-get ${args.join(' ')} failed (${res.error ? res.error.message : `exit ${res.status}`}):\n${out}`);
		}
	}
	if (!fs.existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium, but ${CHROMIUM} is still missing`);
}

// ----- the data the screenshots show -----

const MANUAL_TRIGGER = 'When clicking ‘Execute workflow’';
const QUOTE_NODE = 'Create a quote';
const TRIGGER_NODE = 'Quote created or approved';
const GET_QUOTE_NODE = 'Get the quote';

/** The first contact of the sandbox's seed, for the Contact picker ("From list" shows its name). */
async function firstContact(sandbox) {
	const res = await fetch(`${sandbox.baseUrl}/contacts?limit=1`, {
		headers: { authorization: `Bearer ${sandbox.keys.admin}` },
		signal: AbortSignal.timeout(15_000),
	});
	if (!res.ok) throw new Error(`sandbox GET /contacts -> ${res.status}`);
	const contact = (await res.json()).data?.[0];
	if (!contact) throw new Error('the sandbox has no contacts');
	return contact;
}

function quoteWorkflow(credential, contact) {
	const creds = { businessOpsApi: { id: credential.id, name: credential.name } };
	return {
		name: 'Create a quote for a customer',
		nodes: [
			{
				id: 'shots-manual',
				name: MANUAL_TRIGGER,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'shots-quote',
				name: QUOTE_NODE,
				type: rt.NODE_TYPES.action,
				typeVersion: 1,
				position: [240, 0],
				parameters: {
					resource: 'quote',
					operation: 'create',
					contactId: { __rl: true, mode: 'list', value: contact.id, cachedResultName: contact.name },
					itemsInput: 'form',
					items: { item: [{ name: 'Espresso machine service', quantity: 2, unitPrice: 185, vatPercentage: 21 }] },
				},
				credentials: creds,
			},
		],
		connections: { [MANUAL_TRIGGER]: { main: [[{ node: QUOTE_NODE, type: 'main', index: 0 }]] } },
	};
}

function triggerWorkflow(credential) {
	const creds = { businessOpsApi: { id: credential.id, name: credential.name } };
	return {
		name: 'Quote created or approved → get the quote',
		nodes: [
			{
				id: 'shots-trigger',
				name: TRIGGER_NODE,
				type: rt.NODE_TYPES.trigger,
				typeVersion: 1,
				position: [0, 0],
				webhookId: crypto.randomUUID(),
				parameters: {
					events: ['quote.created', 'quote.approved'],
					options: { signatureScheme: 'standardWebhooks', timestampTolerance: 300 },
				},
				credentials: creds,
			},
			{
				id: 'shots-get-quote',
				name: GET_QUOTE_NODE,
				type: rt.NODE_TYPES.action,
				typeVersion: 1,
				position: [240, 0],
				parameters: {
					resource: 'quote',
					operation: 'get',
					quoteId: { __rl: true, mode: 'id', value: '={{ $json.data.id }}' },
				},
				credentials: creds,
			},
		],
		connections: { [TRIGGER_NODE]: { main: [[{ node: GET_QUOTE_NODE, type: 'main', index: 0 }]] } },
	};
}

// ----- the browser -----

const testId = (id) => `[data-test-id="${id}"]`;

/** Waits until `text` shows inside the element `scope` (a selector), as text or in an input. */
async function waitForText(page, scope, text, timeout = UI_TIMEOUT_MS) {
	await page
		.waitForFunction(
			(s, t) =>
				[...document.querySelectorAll(s)].some(
					(el) => el.innerText.includes(t) || [...el.querySelectorAll('input, textarea')].some((i) => i.value.includes(t)),
				),
			{ timeout, polling: 200 },
			scope,
			text,
		)
		.catch((e) => {
			throw new Error(`"${text}" did not show in ${scope} within ${timeout / 1000} s (${e.message})`);
		});
}

/**
 * Closes what n8n may pop up over the editor (what's new, surveys, toasts): visible dialogs
 * other than the ones whose data-test-id is in `keep`, and every toast. Throws when a toast is
 * an error, so no picture shows one.
 */
async function dismissPopups(page, keep = []) {
	const found = await page.evaluate((keepIds) => {
		const visible = (el) => {
			const r = el.getBoundingClientRect();
			const s = getComputedStyle(el);
			return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
		};
		const errors = [];
		for (const toast of document.querySelectorAll('.el-notification')) {
			if (!visible(toast)) continue;
			if (toast.querySelector('.el-notification--error')) errors.push(toast.innerText.trim().slice(0, 300));
			toast.querySelector('.el-notification__closeBtn')?.click();
		}
		const closed = [];
		const dialogs = document.querySelectorAll('[role="dialog"], .el-dialog, .el-drawer, [data-test-id$="-modal"]');
		for (const dialog of dialogs) {
			if (!visible(dialog)) continue;
			const kept = (k) => dialog.closest(`[data-test-id="${k}"]`) || dialog.querySelector(`[data-test-id="${k}"]`);
			if (keepIds.some(kept)) continue;
			const id = dialog.getAttribute('data-test-id') || dialog.querySelector('[data-test-id]')?.getAttribute('data-test-id') || '';
			const close = dialog.querySelector(
				'.el-dialog__headerbtn, .el-drawer__close-btn, [aria-label="Close this dialog"], [data-test-id$="close-button"]',
			);
			if (close && visible(close)) {
				close.click();
				closed.push(id || dialog.className);
			}
		}
		return { errors, closed };
	}, keep);
	if (found.closed.length) say(`  closed popup(s): ${found.closed.join(', ')}`);
	if (found.errors.length) throw new Error(`n8n shows an error: ${found.errors.join(' | ')}`);
	if (found.closed.length) await sleep(500);
}

async function settle(page, keep) {
	await page.evaluate(() => document.fonts.ready);
	await dismissPopups(page, keep);
	await sleep(700); // animations (toasts leaving, panels sliding in)
	await dismissPopups(page, keep);
}

/** Screenshot into docs/<name>; `clip` an element's box (selector) or the whole viewport. */
async function shoot(page, name, { clipSelector } = {}) {
	const file = path.join(DOCS_DIR, name);
	let clip;
	if (clipSelector) {
		const box = await (await page.waitForSelector(clipSelector, { visible: true, timeout: UI_TIMEOUT_MS })).boundingBox();
		const x = Math.max(0, Math.floor(box.x));
		const y = Math.max(0, Math.floor(box.y));
		clip = { x, y, width: Math.min(VIEWPORT.width - x, Math.ceil(box.width)), height: Math.min(VIEWPORT.height - y, Math.ceil(box.height)) };
	}
	await page.screenshot({ path: file, type: 'png', ...(clip ? { clip } : {}) });
	const size = fs.statSync(file).size;
	say(`  wrote docs/${name} (${(size / 1024).toFixed(0)} kB${clip ? `, ${clip.width}x${clip.height}` : ''})`);
	if (size > MAX_PNG_BYTES) say(`  WARNING: docs/${name} is larger than ${MAX_PNG_BYTES / 1024} kB`);
	return { name, size };
}

async function signIn(page, baseUrl) {
	await page.goto(`${baseUrl}/signin`, { waitUntil: 'domcontentloaded', timeout: UI_TIMEOUT_MS });
	await page.waitForSelector('#emailOrLdapLoginId', { visible: true, timeout: UI_TIMEOUT_MS });
	await page.type('#emailOrLdapLoginId', rt.DEMO_OWNER.email);
	await page.type('#password', rt.DEMO_OWNER.password);
	await page.click(testId('form-submit-button'));
	await page.waitForFunction(() => !location.pathname.startsWith('/signin'), { timeout: UI_TIMEOUT_MS }).catch(async (e) => {
		await dismissPopups(page); // a toast ("wrong username or password") says more than the timeout
		throw e;
	});
}

async function openWorkflow(page, baseUrl, workflowId) {
	await page.goto(`${baseUrl}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded', timeout: UI_TIMEOUT_MS });
	await page.waitForSelector(testId('canvas-node'), { visible: true, timeout: UI_TIMEOUT_MS });
	if (page.url().includes('/signin')) throw new Error('the editor sent the browser back to the sign-in page');
	await settle(page);
}

async function openNode(page, nodeName) {
	const sel = `${testId('canvas-node')}[data-node-name="${nodeName}"]`;
	await page.waitForSelector(sel, { visible: true, timeout: UI_TIMEOUT_MS });
	await page.click(sel, { count: 2 });
	await page.waitForSelector(`${testId('ndv')} ${testId('node-parameters')}`, { visible: true, timeout: UI_TIMEOUT_MS });
}

/** docs/node-panel.png (and docs/credential.png from the same panel). */
async function shootNodePanel(page, baseUrl, workflowId, contact) {
	await openWorkflow(page, baseUrl, workflowId);
	await openNode(page, QUOTE_NODE);
	await waitForText(page, testId('ndv'), contact.name);
	await waitForText(page, testId('ndv'), 'Espresso machine service');
	// Run the step against the sandbox, so the output pane shows the created quote.
	await page.click(`${testId('ndv')} ${testId('node-execute-button')}`);
	await page.waitForSelector(`${testId('output-panel')} ${testId('node-run-status-success')}`, { timeout: 60_000 }).catch(async (e) => {
		await dismissPopups(page, ['ndv']); // an error toast says more than the timeout
		throw e;
	});
	await page.click(`${testId('output-panel')} ${testId('radio-button-json')}`);
	await waitForText(page, testId('output-panel'), '"total"');
	await page.mouse.move(20, 880); // off the panel: no hover state
	await settle(page, ['ndv']);
	const shots = [await shoot(page, 'node-panel.png')];

	await page.click(`${testId('ndv')} ${testId('credential-edit-button')}`);
	await page.waitForSelector(testId('editCredential-modal'), { visible: true, timeout: UI_TIMEOUT_MS });
	await page.waitForSelector(testId('credentials-config-container-test-success'), { visible: true, timeout: UI_TIMEOUT_MS });
	await page.mouse.move(20, 880);
	await settle(page, ['ndv', 'editCredential-modal']);
	shots.push(await shoot(page, 'credential.png', { clipSelector: testId('editCredential-modal') }));
	return shots;
}

/** docs/operations-list.png: the nodes panel after searching "Business Ops" and opening the node. */
async function shootOperationsList(page, baseUrl, workflowId) {
	await openWorkflow(page, baseUrl, workflowId);
	await page.click(testId('node-creator-plus-button'));
	await page.waitForSelector(`${testId('node-creator')} ${testId('search-bar')} input`, { visible: true, timeout: UI_TIMEOUT_MS });
	await sleep(300);
	await page.keyboard.type('Business Ops');
	const item = `${testId('node-creator')} ${testId('item-iterator-item')}`;
	await waitForText(page, item, 'Business Ops');
	const handles = await page.$$(item);
	let clicked = false;
	for (const h of handles) {
		const name = await h.$eval(testId('node-creator-item-name'), (el) => el.innerText.trim()).catch(() => '');
		if (name === 'Business Ops') {
			await h.click();
			clicked = true;
			break;
		}
	}
	if (!clicked) throw new Error('the nodes panel lists no "Business Ops" node');
	await waitForText(page, testId('node-creator'), 'Create a quote');
	await page.mouse.move(300, 880);
	await settle(page);
	return [await shoot(page, 'operations-list.png')];
}

/** docs/trigger.png: the trigger's panel with its events, its options and the Signature Scheme list open. */
async function shootTrigger(page, baseUrl, workflowId) {
	await openWorkflow(page, baseUrl, workflowId);
	await openNode(page, TRIGGER_NODE);
	// The event chips are labelled by the loadOptions answer (GET /webhooks/events).
	await waitForText(page, `${testId('ndv')} ${testId('parameter-input-events')}`, 'quote.approved');
	await waitForText(page, testId('ndv'), 'Timestamp Tolerance');
	await settle(page, ['ndv']);
	// Open the Signature Scheme list, so the picture shows the schemes to choose from.
	await page.click(`${testId('ndv')} ${testId('parameter-input-signatureScheme')}`);
	await page.waitForFunction(
		() =>
			[...document.querySelectorAll('.el-select-dropdown__item, [role="option"]')].some(
				(el) => el.getBoundingClientRect().height > 0 && el.innerText.includes('GitHub-Style'),
			),
		{ timeout: UI_TIMEOUT_MS, polling: 200 },
	);
	await page.mouse.move(20, 880);
	await sleep(500);
	await dismissPopups(page, ['ndv']);
	return [await shoot(page, 'trigger.png')];
}

// ----- main -----

let sandbox;
let n8n;
let pkg;
let browser;
let profileDir;
let stopping = false;

async function stopAll() {
	if (stopping) return;
	stopping = true;
	if (browser) {
		const proc = browser.process();
		await within(10_000, browser.close(), 'closing Chromium').catch((e) => say(e.message));
		if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
		browser = undefined;
	}
	if (profileDir && !process.env.SCREENSHOTS_KEEP) fs.rmSync(profileDir, { recursive: true, force: true });
	if (n8n) await within(40_000, n8n.dispose(), 'stopping n8n').catch((e) => say(e.message));
	n8n = undefined;
	if (sandbox) await within(10_000, sandbox.stop(), 'stopping the sandbox').catch((e) => say(e.message));
	sandbox = undefined;
	if (pkg) await within(15_000, pkg.stop(), 'stopping the registry').catch((e) => say(e.message));
	pkg = undefined;
}

process.on('exit', () => {
	const proc = browser?.process();
	if (proc && proc.exitCode === null) proc.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM']) {
	process.once(sig, () => {
		say(`${sig}: stopping…`);
		stopAll().finally(() => process.exit(130));
	});
}

async function main() {
	const t0 = Date.now();
	const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
	const watchdog = setTimeout(() => {
		say(`still running after ${OVERALL_TIMEOUT_MS / 60_000} min: giving up`);
		stopAll().finally(() => process.exit(1));
	}, OVERALL_TIMEOUT_MS);
	watchdog.unref();

	ensureChromium();
	say('preparing the n8n runtime (the first run installs it: several minutes)…');
	const runtime = rt.ensureRuntime({ log: (l) => say(`  ${l}`) });
	if (!process.env.SCREENSHOTS_SKIP_BUILD) {
		say('building the sandbox…');
		rt.buildSandbox();
	}
	say('building, packing and publishing the package to a local registry…');
	pkg = await rt.publishPackage({ build: !process.env.SCREENSHOTS_SKIP_BUILD, log: (l) => say(`  ${l}`) });
	// Loaded only now: puppeteer-core is a dev dependency.
	const puppeteer = require('puppeteer-core');

	sandbox = await rt.startSandbox({ port: await rt.freePort(0) });
	say(`sandbox on ${sandbox.baseUrl}`);
	const started = await rt.startN8nWithPackage({ runtime, pkg, owner: rt.DEMO_OWNER, expectNodeTypes: Object.values(rt.NODE_TYPES), port: 0, log: (l) => say(l) });
	n8n = started.n8n;
	const client = started.client;
	say(`n8n ready, ${pkg.name}@${started.installed.installedVersion} installed (${elapsed()})`);
	const credential = await client.createCredential({
		name: 'Business Ops API',
		type: rt.CREDENTIAL_TYPE,
		data: rt.credentialData(sandbox, sandbox.keys.admin),
	});
	const contact = await firstContact(sandbox);
	const quoteWf = await client.createWorkflow(quoteWorkflow(credential, contact));
	const triggerWf = await client.createWorkflow(triggerWorkflow(credential));

	profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizops-screenshots-'));
	browser = await puppeteer.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [...CHROMIUM_FLAGS, `--user-data-dir=${path.join(profileDir, 'profile')}`],
		defaultViewport: VIEWPORT,
		timeout: 60_000,
		protocolTimeout: 120_000,
	});
	const page = await browser.newPage();
	page.setDefaultTimeout(UI_TIMEOUT_MS);
	await signIn(page, n8n.baseUrl);
	say(`signed in as ${rt.DEMO_OWNER.email} (${elapsed()})`);

	fs.mkdirSync(DOCS_DIR, { recursive: true });
	const shots = [];
	const failures = [];
	const steps = [
		['node-panel.png, credential.png', () => shootNodePanel(page, n8n.baseUrl, quoteWf.id, contact)],
		['operations-list.png', () => shootOperationsList(page, n8n.baseUrl, triggerWf.id)],
		['trigger.png', () => shootTrigger(page, n8n.baseUrl, triggerWf.id)],
	];
	for (const [label, step] of steps) {
		say(`${label}…`);
		try {
			shots.push(...(await step()));
		} catch (e) {
			const failShot = path.join(profileDir, `failed-${label.split(/[ ,]/)[0]}`.replace(/\.png$/, '') + '.png');
			await page.screenshot({ path: failShot }).catch(() => {});
			failures.push(`${label}: ${e.message.split('\n')[0]} (the page at that moment: ${failShot}${process.env.SCREENSHOTS_KEEP ? '' : '; set SCREENSHOTS_KEEP=1 to keep it'})`);
			say(`  FAILED: ${e.message.split('\n')[0]}`);
		}
	}

	say(`done in ${elapsed()}: ${shots.map((s) => `docs/${s.name} ${(s.size / 1024).toFixed(0)} kB`).join(', ')}`);
	if (failures.length) {
		throw Object.assign(new Error(`${failures.length} screenshot step(s) failed:\n  ${failures.join('\n  ')}`), { stepFailures: true });
	}
}

main()
	.then(async () => {
		await stopAll();
		process.exit(0);
	})
	.catch(async (e) => {
		say(`failed: ${e.message}`);
		if (n8n && !e.n8nLogTail && !e.stepFailures) say(`last lines of the n8n log:\n${n8n.tail(30)}`);
		await stopAll();
		process.exit(1);
	});
