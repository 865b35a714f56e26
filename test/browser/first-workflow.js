// The README's "first workflow in five minutes", done in a real browser the way a user does it,
// in n8n's editor with the package installed by n8n's installer, against the sandbox. The
// screenshots of the README (docs/*.png) are taken on the way, so they show what this run saw.
//
// ctx: { page, openPage(), baseUrl, owner, sandbox, docsDir, state } (scripts/browser.js).
'use strict';

const assert = require('node:assert/strict');

const E = require('../../scripts/browser/editor');
// what the test checks behind the editor
const { sandboxGet } = require('../e2e/harness');

const { testId } = E;
const NODE_CREATOR = testId('node-creator');
const NDV = testId('ndv');
const ITEM_NAME = `${NODE_CREATOR} ${testId('node-creator-item-name')}`;
const CREDENTIAL = 'Business Ops API';
const TEST_EVENT = 'quote.approved';

/**
 * The nodes panel searched for "Business Ops" and the node opened: its triggers and actions.
 * `button`: the canvas's + (`node-creator-plus-button`), or "Add first step" (`canvas-add-button`).
 */
async function openBusinessOps(page, button = 'node-creator-plus-button') {
	await page.waitForSelector(testId(button), { visible: true, timeout: E.UI_TIMEOUT_MS });
	await E.dismissPopups(page);
	await page.click(testId(button));
	await page.waitForSelector(`${NODE_CREATOR} ${testId('search-bar')} input`, {
		visible: true,
		timeout: E.UI_TIMEOUT_MS,
	});
	await E.sleep(300);
	await page.keyboard.type('Business Ops');
	await E.clickText(page, ITEM_NAME, 'Business Ops');
	await E.waitForText(
		page,
		NODE_CREATOR,
		button === 'canvas-add-button' ? 'On new Business Ops event' : 'Actions (',
	);
}

/** Unfolds the node's actions when an empty workflow shows them folded under its triggers. */
async function unfoldActions(page) {
	const shown = await page.$$eval(ITEM_NAME, (els) =>
		els.some((el) => el.innerText.includes('Get a contact')),
	);
	if (!shown)
		await E.clickText(page, `${NODE_CREATOR} ${testId('node-creator-category-item')}`, 'Actions (');
}

/** Picks the first entry of a resource locator's "From list" whose text includes `text` (any when empty). */
async function pickFromList(page, parameter, text = '') {
	const locator = `${NDV} ${testId(`resource-locator-${parameter}`)}`;
	await E.waitForText(page, `${locator} ${testId('rlc-mode-selector')}`, 'From list');
	await page.click(`${locator} ${testId('rlc-input')}`);
	const item = testId('rlc-item');
	await page.waitForSelector(item, { visible: true, timeout: E.UI_TIMEOUT_MS });
	const label = await page.evaluate(
		(sel, t) => {
			const el = [...document.querySelectorAll(sel)].find(
				(e) => e.getBoundingClientRect().height > 0 && e.innerText.includes(t),
			);
			if (!el) return undefined;
			el.click();
			return el.innerText.trim();
		},
		item,
		text,
	);
	if (!label) throw new Error(`the "From list" of ${parameter} shows no entry with "${text}"`);
	return label;
}

const OPTIONS = '.el-select-dropdown__item, [role="option"]';

/**
 * Opens the drop-down of an options field of the open panel and waits until each of `texts` is a
 * visible option. The editor keeps the field disabled while it saves the new workflow, takes the
 * workflow's write lock and loads the options: a click then is lost, so it clicks again.
 */
async function openOptions(page, parameter, texts) {
	const field = `${NDV} ${testId(`parameter-input-${parameter}`)}`;
	await page.waitForSelector(field, { visible: true, timeout: E.UI_TIMEOUT_MS });
	const allShown = (sel, ts) => {
		const shown = [...document.querySelectorAll(sel)]
			.filter((el) => el.getBoundingClientRect().height > 0)
			.map((el) => el.innerText);
		return ts.every((t) => shown.some((label) => label.includes(t)));
	};
	const deadline = Date.now() + E.UI_TIMEOUT_MS;
	while (Date.now() < deadline) {
		const enabled = await page
			.$eval(
				`${field} .el-select`,
				(el) => !el.className.includes('is-disabled') && !el.className.includes('--disabled'),
			)
			.catch(() => true);
		if (enabled) {
			await page.click(`${field} .el-select`);
			const opened = await page
				.waitForFunction(allShown, { timeout: 5_000, polling: 200 }, OPTIONS, texts)
				.then(
					() => true,
					() => false,
				);
			if (opened) return;
		}
		await E.sleep(500);
	}
	const shown = await page.$$eval(OPTIONS, (els) =>
		els
			.filter((el) => el.getBoundingClientRect().height > 0)
			.map((el) => el.innerText.trim().split('\n')[0]),
	);
	throw new Error(
		`the list of ${parameter} does not show all of ${texts.join(', ')} within ${E.UI_TIMEOUT_MS / 1000} s (it shows: ${shown.join(', ') || 'nothing'})`,
	);
}

/** What a field of the open panel shows: its text and its inputs' placeholders. */
async function fieldText(page, selector) {
	await page.waitForSelector(selector, { visible: true, timeout: E.UI_TIMEOUT_MS });
	return page.$eval(selector, (el) =>
		[el.innerText, ...[...el.querySelectorAll('input')].map((i) => i.placeholder || '')].join(' '),
	);
}

/** Clicks the panel's Execute button and waits for the output panel's success mark. */
async function executeStep(page) {
	await page.click(`${NDV} ${testId('node-execute-button')}`);
	await page
		.waitForSelector(`${testId('output-panel')} ${testId('node-run-status-success')}`, {
			timeout: 90_000,
		})
		.catch(async (e) => {
			await E.dismissPopups(page, ['ndv']); // an error toast says more than the timeout
			throw e;
		});
}

module.exports = {
	area: 'browser',
	steps: [
		{
			name: 'open a new workflow, add Business Ops from the nodes panel: Contact → Get a contact',
			async run(ctx) {
				const { page } = ctx;
				await page.goto(`${ctx.baseUrl}/workflow/new`, {
					waitUntil: 'domcontentloaded',
					timeout: E.UI_TIMEOUT_MS,
				});
				await openBusinessOps(page);
				await unfoldActions(page);
				await E.waitForText(page, NODE_CREATOR, 'Get a contact');
				await page.mouse.move(300, 880);
				await E.settle(page);
				await E.shoot(page, ctx.docsDir, 'operations-list.png');
				await E.clickText(page, ITEM_NAME, 'Get a contact');
				await page.waitForSelector(`${NDV} ${testId('node-parameters')}`, {
					visible: true,
					timeout: E.UI_TIMEOUT_MS,
				});
				await E.waitForText(page, `${NDV} ${testId('parameter-input-resource')}`, 'Contact');
				await E.waitForText(page, `${NDV} ${testId('parameter-input-operation')}`, 'Get');
				return 'the panel shows Resource Contact, Operation Get';
			},
		},
		{
			name: 'choose the credential (tested in its dialog)',
			async run(ctx) {
				const { page } = ctx;
				const select = `${NDV} ${testId('node-credentials-select')}`;
				await page.waitForSelector(select, { visible: true, timeout: E.UI_TIMEOUT_MS });
				const chosen = await page.$eval(`${select} input`, (i) => i.value).catch(() => '');
				if (chosen !== CREDENTIAL) {
					await page.click(select);
					await E.clickText(page, OPTIONS, CREDENTIAL);
				}
				await E.waitForText(page, select, CREDENTIAL);
				await page.click(`${NDV} ${testId('credential-edit-button')}`);
				await page.waitForSelector(testId('editCredential-modal'), {
					visible: true,
					timeout: E.UI_TIMEOUT_MS,
				});
				await page.waitForSelector(testId('credentials-config-container-test-success'), {
					visible: true,
					timeout: 60_000,
				});
				await page.mouse.move(20, 880);
				await E.settle(page, ['ndv', 'editCredential-modal']);
				await E.shoot(page, ctx.docsDir, 'credential.png', {
					clipSelector: testId('editCredential-modal'),
				});
				await page.click(`${testId('editCredential-modal')} .el-dialog__headerbtn`);
				await page.waitForSelector(testId('editCredential-modal'), {
					hidden: true,
					timeout: E.UI_TIMEOUT_MS,
				});
				if (!(await page.$(`${NDV} ${testId('node-parameters')}`)))
					await E.openNode(page, 'Get a contact');
				return `"${CREDENTIAL}" chosen; its test says the connection works`;
			},
		},
		{
			name: 'pick a contact "From list" (the list search answers) and execute the step: the record shows',
			async run(ctx) {
				const { page } = ctx;
				const [contact] = await sandboxGet(ctx, '/contacts?pageSize=1');
				const label = await pickFromList(page, 'contactId', contact.name);
				await executeStep(page);
				await page.click(`${testId('output-panel')} ${testId('radio-button-json')}`);
				await E.waitForText(page, testId('output-panel'), contact.id);
				await E.waitForText(page, testId('output-panel'), contact.email);
				await page.mouse.move(20, 880);
				await E.settle(page, ['ndv']);
				await E.shoot(page, ctx.docsDir, 'node-panel.png');
				await page.click(testId('ndv-close-button'));
				return `picked "${label}"; the output shows ${contact.id}`;
			},
		},
		{
			name: 'in a new workflow (second tab), add the Business Ops Trigger and choose events from the list the API provides',
			async run(ctx) {
				const page = await ctx.openPage();
				ctx.state.triggerPage = page;
				await page.goto(`${ctx.baseUrl}/workflow/new`, {
					waitUntil: 'domcontentloaded',
					timeout: E.UI_TIMEOUT_MS,
				});
				await openBusinessOps(page, 'canvas-add-button');
				await E.clickText(page, ITEM_NAME, 'On new Business Ops event');
				await page.waitForSelector(`${NDV} ${testId('parameter-input-events')}`, {
					visible: true,
					timeout: E.UI_TIMEOUT_MS,
				});
				const events = await sandboxGet(ctx, '/webhooks/events');
				const names = events.map((e) => (typeof e === 'string' ? e : e.type || e.name));
				assert.ok(
					names.includes(TEST_EVENT),
					`the API lists no ${TEST_EVENT}: ${names.join(', ')}`,
				);
				await openOptions(page, 'events', names);
				for (const name of ['quote.created', TEST_EVENT]) await E.clickText(page, OPTIONS, name);
				await page.keyboard.press('Tab');
				await E.waitForText(page, `${NDV} ${testId('parameter-input-events')}`, TEST_EVENT);
				await page.mouse.move(20, 880);
				await E.settle(page, ['ndv']);
				await E.shoot(page, ctx.docsDir, 'trigger.png');
				return `the list shows the API's ${names.length} event types; chose quote.created, ${TEST_EVENT}`;
			},
		},
		{
			name: 'listen for a test event: the trigger subscribes at its test URL',
			async run(ctx) {
				const page = ctx.state.triggerPage;
				assert.ok(page, 'the previous step opened no trigger');
				const before = (await sandboxGet(ctx, '/webhooks')).map((w) => w.id);
				await page.click(`${NDV} ${testId('node-execute-button')}`);
				const deadline = Date.now() + 60_000;
				let sub;
				while (!sub && Date.now() < deadline) {
					sub = (await sandboxGet(ctx, '/webhooks')).find(
						(w) => !before.includes(w.id) && w.url.includes('/webhook-test/'),
					);
					if (!sub) await E.sleep(500);
				}
				if (!sub)
					throw new Error('no test subscription appeared within 60 s of "Listen for test event"');
				ctx.state.testSubscription = sub;
				return `subscription ${sub.id} on ${sub.url}`;
			},
		},
		{
			name: 'back in the first workflow, Business Ops → Webhook → Send a test event to that subscription; the event arrives',
			async run(ctx) {
				const sub = ctx.state.testSubscription;
				assert.ok(sub, 'the previous step found no test subscription');
				const { page } = ctx;
				await page.bringToFront();
				await openBusinessOps(page);
				await E.clickText(page, ITEM_NAME, 'Send a test event');
				await page.waitForSelector(`${NDV} ${testId('node-parameters')}`, {
					visible: true,
					timeout: E.UI_TIMEOUT_MS,
				});
				const label = await pickFromList(page, 'webhookId', sub.url);
				// n8n 2.41's editor loads the Event Type list as the field mounts, before the credentials
				// panel has fetched the credentials and auto-selected one: that request carries none
				// ("Node does not have any credentials set"), and the reload on the credential's arrival
				// is skipped while it is in flight, so the field keeps "Error fetching options". Wait for
				// that first load to end, then do what a user does: close the panel and open it again.
				const field = `${NDV} ${testId('parameter-input-eventType')}`;
				const deadline = Date.now() + E.UI_TIMEOUT_MS;
				let shown = await fieldText(page, field);
				while (shown.includes('Loading options') && Date.now() < deadline) {
					await E.sleep(200);
					shown = await fieldText(page, field);
				}
				if (shown.includes('Error fetching')) {
					await page.click(testId('ndv-close-button'));
					await E.openNode(page, 'Send a test event to a webhook');
				}
				await openOptions(page, 'eventType', [TEST_EVENT]);
				await E.clickText(page, OPTIONS, TEST_EVENT);
				await executeStep(page);
				await page.mouse.move(20, 880);
				await E.settle(page, ['ndv']);
				await E.shoot(page, ctx.docsDir, 'first-workflow-send-test-event.png');

				const trigger = ctx.state.triggerPage;
				await trigger.bringToFront();
				await trigger.waitForSelector(
					`${testId('output-panel')} ${testId('node-run-status-success')}`,
					{ timeout: 90_000 },
				);
				await E.waitForText(trigger, testId('output-panel'), TEST_EVENT);
				await trigger.mouse.move(20, 880);
				await E.settle(trigger, ['ndv']);
				await E.shoot(trigger, ctx.docsDir, 'first-workflow-test-event.png');
				return `sent to "${label}"; the trigger's output shows ${TEST_EVENT}`;
			},
		},
	],
};
