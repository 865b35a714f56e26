// The template templates/catch-up-instant-events.json in real n8n (docs/catch-up.md): the webhook
// trigger and the polling trigger start one workflow, Remove Duplicates passes each change once.
// Each step counts, over every execution of the workflow, what each trigger emitted and what
// reached the action node. Polls are forced by publishing again or restarting n8n (n8n polls once
// at activation); the template's every-minute schedule stays as users get it.
// The area leaves the sandbox as it found it: its last step unpublishes the workflow, checks that
// its subscription is gone and, whatever happened before, deletes what the area created.
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');
const { prepareTemplate, importWorkflow } = require('../../scripts/n8n/templates');

const FILE = 'catch-up-instant-events.json';
const WEBHOOK = 'Instantly';
const POLL = 'Catch up';
const ACTION = 'Your action';
const line = { name: 'Appeltaart', quantity: 1, unitPrice: 12, vatPercentage: 9 };

/** "type record-id" of an event item. */
const keyOf = (item) => `${item.type} ${item.data && item.data.id}`;

/** Every finished execution of the workflow: which trigger's items started it and which reached the action. */
async function observed(ctx) {
	const executions = await ctx.client.executions(ctx.state.catchup.id, { limit: 250 });
	const finished = executions.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
	for (const ex of finished) {
		const err = h.rt.executionError(ex);
		assert.equal(ex.status, 'success', `execution ${ex.id}: ${err ? err.message : ex.status}`);
	}
	const items = (name) => finished.flatMap((ex) => (h.rt.nodeOutput(ex, name) || []).map(keyOf));
	return { webhook: items(WEBHOOK), poll: items(POLL), action: items(ACTION) };
}

const count = (list, key) => list.filter((k) => k === key).length;

/** Waits until `check(observed)` holds; returns what was observed then. */
async function until(ctx, what, check) {
	let last;
	await h
		.waitFor(
			async () => {
				last = await observed(ctx);
				return check(last);
			},
			{ timeoutMs: 90_000, intervalMs: 500, what },
		)
		.catch((e) => {
			throw new Error(`${e.message}; observed ${JSON.stringify(last)}`);
		});
	return last;
}

/** The template's poll read the invoices since `since`, and then nothing for 2 s. */
async function pollDone(ctx, since) {
	let reads = -1;
	let quietSince = Date.now();
	await h.waitFor(
		() => {
			const now = ctx.sandbox.control
				.requestLog()
				.filter(
					(e) =>
						e.keyId === ctx.state.catchup.keyId &&
						e.method === 'GET' &&
						e.path === '/v1/invoices' &&
						Date.parse(e.time) >= since,
				).length;
			if (now !== reads) [reads, quietSince] = [now, Date.now()];
			return reads > 0 && Date.now() - quietSince > 2000;
		},
		{ timeoutMs: 120_000, what: "the template's poll of the invoices" },
	);
}

/** The sandbox's subscriptions of the template's webhook trigger. */
const subscriptions = (ctx) =>
	ctx.sandbox.control.webhooks().filter((w) => w.url.includes(ctx.state.catchup.webhookId));
const subscribed = (ctx) => subscriptions(ctx).length > 0;

/** Unpublishes the workflow and waits until its subscription is deleted. */
async function unpublish(ctx) {
	await ctx.client.unpublishWorkflow(ctx.state.catchup.id);
	ctx.state.catchup.published = false;
	await h.waitFor(() => !subscribed(ctx), {
		timeoutMs: 60_000,
		what: 'the subscription to be deleted',
	});
}

/** Publishes (again), waits for the subscription and for the poll n8n runs at activation. */
async function pollByPublishing(ctx) {
	if (ctx.state.catchup.published) await unpublish(ctx);
	const since = Date.now();
	// n8n 1.123 answers after its first poll: 100 pages, longer than the client's 30 s when loaded
	await ctx.client.publishWorkflow(ctx.state.catchup.id, { timeoutMs: 120_000 });
	ctx.state.catchup.published = true;
	// n8n 2.41 publishes through an outbox, and saves the static data (the subscription's id and
	// secret) only once the first poll is done: until then deliveries are refused (docs/catch-up.md)
	await h.waitFor(async () => (await recordedSubscription(ctx)) !== undefined, {
		timeoutMs: 120_000,
		what: 'n8n to save the subscription the webhook trigger made',
	});
	await pollDone(ctx, since);
}

/** The id of the sandbox subscription that n8n's saved static data of the webhook trigger holds. */
async function recordedSubscription(ctx) {
	let data = (await ctx.client.getWorkflow(ctx.state.catchup.id)).staticData ?? {};
	if (typeof data === 'string') data = JSON.parse(data);
	const id = data[`node:${WEBHOOK}`]?.subscriptions?.production?.id;
	return subscriptions(ctx).some((w) => w.id === id) ? id : undefined;
}

const newInvoice = async (ctx) =>
	h.sandboxSend(ctx, 'POST', '/invoices', {
		contactId: ctx.state.catchup.contactId,
		items: [line],
	});

/** Changes an invoice's status and waits until the sandbox delivered (or gave up on) the event. */
async function setStatus(ctx, invoice, status) {
	await h.sandboxSend(ctx, 'PATCH', `/invoices/${invoice.id}`, { status });
	await ctx.sandbox.control.waitForDeliveries();
}

/** Moves the invoice to `status`, waits for the one run of the action it starts; answers the event's key. */
async function changeAndRun(ctx, invoice, status) {
	const key = `invoice.${status} ${invoice.id}`;
	await setStatus(ctx, invoice, status);
	await until(ctx, `the run for ${status}`, (s) => count(s.action, key) === 1);
	return key;
}

/** A new invoice moved to sent, once the action ran for that; answers it and the event's key. */
async function newSentInvoice(ctx) {
	const invoice = await newInvoice(ctx);
	return { invoice, sent: await changeAndRun(ctx, invoice, 'sent') };
}

/** What ran, once an execution still on its way (none is expected) has had time to be listed. */
async function settled(ctx) {
	await h.sleep(1500);
	return observed(ctx);
}

/**
 * Deletes what the area made: the workflow (unpublished first), a subscription n8n left behind
 * (the sandbox then holds none, so later areas count only their own), the credential and the key.
 * Throws naming what had to be deleted here, after deleting it.
 */
async function removeArea(ctx) {
	const state = ctx.state.catchup;
	if (state.published) await ctx.client.unpublishWorkflow(state.id).catch(() => {});
	const left = subscriptions(ctx);
	for (const w of left) await h.sandboxSend(ctx, 'DELETE', `/webhooks/${w.id}`);
	await ctx.client.deleteWorkflow(state.id);
	await ctx.client.deleteCredential(state.credentialId);
	ctx.sandbox.control.revokeKey(state.keyId);
	delete ctx.state.catchup;
	assert.deepEqual(
		left.map((w) => w.id),
		[],
		'subscriptions n8n left behind (deleted by the area)',
	);
}

module.exports = {
	area: 'catchup',
	steps: [
		{
			name: 'catch-up-instant-events: imported and published, the webhook subscribes and the poll takes its baseline (no execution)',
			template: FILE,
			timeoutMs: 180_000,
			async run(ctx) {
				const left = ctx.sandbox.control.failRules();
				assert.deepEqual(
					left,
					[],
					`an earlier area left the sandbox failing: ${JSON.stringify(left)}`,
				);
				// The polling area, which runs before this one, leaves 10,000 invoices: alone, the area
				// meets the same list
				const total = ctx.sandbox.control.seed({ resource: 'invoices', count: 1 }).total;
				if (total < 10_000)
					ctx.sandbox.control.seed({ resource: 'invoices', count: 10_000 - total });
				const created = ctx.sandbox.control.createKey({
					scopes: ['*'],
					organization: 'primary',
					name: 'e2e catch-up',
				});
				const credential = await ctx.client.createCredential({
					name: 'Business Ops (catch-up)',
					type: h.rt.CREDENTIAL_TYPE,
					// Each forced poll reads all 100 invoice pages: under the default 120 a minute the polls
					// used the budget up, the deactivation's DELETE was refused (not sent), and n8n
					// 1.123's activation, which waits for its first poll, outlasted the client's 30 s.
					data: { ...h.rt.credentialData(ctx.sandbox, created.key), requestsPerMinute: 100_000 },
				});
				const { wf } = prepareTemplate(FILE, credential);
				const saved = await importWorkflow(ctx.client, wf);
				const contacts = await h.sandboxSend(ctx, 'GET', '/contacts?pageSize=1');
				ctx.state.catchup = {
					id: saved.id,
					keyId: created.id,
					credentialId: credential.id,
					contactId: contacts[0].id,
					webhookId: wf.nodes.find((n) => n.name === WEBHOOK).webhookId,
					published: false,
				};
				await pollByPublishing(ctx);
				const seen = await settled(ctx);
				assert.deepEqual(seen, { webhook: [], poll: [], action: [] });
				return `workflow ${saved.id} published: subscribed, baseline poll emitted nothing`;
			},
		},
		{
			name: 'catch-up-instant-events: an event delivered by webhook and then seen by the next poll runs the action once',
			template: FILE,
			timeoutMs: 240_000,
			async run(ctx) {
				const { sent: key } = await newSentInvoice(ctx);
				await pollByPublishing(ctx);
				const seen = await until(
					ctx,
					'the poll to see the change',
					(s) => count(s.poll, key) === 1,
				);
				const after = await settled(ctx);
				assert.deepEqual(after, seen, 'something ran after the poll');
				assert.equal(count(after.webhook, key), 1, 'webhook deliveries of the event');
				assert.equal(count(after.action, key), 1, 'runs of the action for the event');
				return `${key}: webhook 1, poll 1, action 1`;
			},
		},
		{
			name: 'catch-up-instant-events: two changes of one invoice (sent, then paid) each run the action once',
			template: FILE,
			timeoutMs: 240_000,
			async run(ctx) {
				const { invoice, sent } = await newSentInvoice(ctx);
				const paid = await changeAndRun(ctx, invoice, 'paid');
				await pollByPublishing(ctx);
				// the poll sees the status now: paid (spec: the lists show a record as it is)
				await until(ctx, 'the poll to see paid', (s) => count(s.poll, paid) === 1);
				const after = await settled(ctx);
				assert.deepEqual(
					[sent, paid].map((k) => [count(after.webhook, k), count(after.action, k)]),
					[
						[1, 1],
						[1, 1],
					],
					'[webhook, action] per change',
				);
				return `${sent}: webhook 1, action 1; ${paid}: webhook 1, poll 1, action 1`;
			},
		},
		{
			name: 'catch-up-instant-events: an event sent while n8n is stopped runs the action once after the restart, by the poll',
			template: FILE,
			timeoutMs: 300_000,
			async run(ctx) {
				if (ctx.queue) return 'not run in queue mode (the main is not restarted here)';
				const invoice = await newInvoice(ctx);
				const key = `invoice.paid ${invoice.id}`;
				await ctx.n8n.stop();
				const attempts = () =>
					ctx.sandbox.control
						.deliveries()
						.filter(
							(d) => d.eventType === 'invoice.paid' && d.url.includes(ctx.state.catchup.webhookId),
						);
				const before = attempts().length;
				let since;
				try {
					await setStatus(ctx, invoice, 'paid');
				} finally {
					since = Date.now();
					await ctx.n8n.restart();
				}
				const failed = attempts().slice(before);
				assert.ok(
					failed.length > 0 && failed.every((d) => !d.success),
					`deliveries while n8n was stopped: ${JSON.stringify(failed)}`,
				);
				await pollDone(ctx, since);
				const seen = await until(
					ctx,
					'the poll at start to run the action',
					(s) => count(s.action, key) === 1,
				);
				assert.equal(count(seen.webhook, key), 0, 'the webhook got the event after all');
				assert.equal(count(seen.poll, key), 1, 'poll sightings of the event');
				// the next poll sees nothing new: nothing runs again
				await pollByPublishing(ctx);
				assert.deepEqual(await settled(ctx), seen, 'something ran after the next poll');
				return `${key}: ${failed.length} failed deliveries while stopped; after the restart poll 1, action 1; next poll nothing`;
			},
		},
		{
			name: 'Remove Duplicates with its history full fails every run (docs/catch-up.md, History Size)',
			async run(ctx) {
				const dedupe = 'Each change once';
				const template = prepareTemplate(FILE, ctx.credentials.admin).wf.nodes.find(
					(n) => n.name === dedupe,
				);
				const parameters = { ...template.parameters };
				parameters.options = { ...parameters.options, historySize: 2 };
				const wf = await ctx.client.createWorkflow({
					name: 'catch-up: history size',
					nodes: [
						h.node('Start', 'n8n-nodes-base.manualTrigger', {}, { position: [0, 0] }),
						h.node(
							'Two changes',
							'n8n-nodes-base.code',
							{
								jsCode:
									"return ['sent', 'paid'].map((s) => ({ json: { type: 'invoice.' + s, data: { id: 'inv_' + $execution.id } } }));",
							},
							{ typeVersion: 2, position: [220, 0] },
						),
						{ ...template, parameters, position: [440, 0] },
					],
					connections: h.chain('Start', 'Two changes', dedupe),
					settings: { executionOrder: 'v1' },
				});
				const runs = [];
				try {
					for (let i = 0; i < 3; i++) {
						const ex = await ctx.client.runManually(wf.id);
						const kept = (h.rt.nodeOutput(ex, dedupe) || []).length;
						runs.push({ status: ex.status, kept, error: h.rt.executionError(ex)?.message });
					}
				} finally {
					await ctx.client.deleteWorkflow(wf.id);
				}
				const [first, second] = runs;
				const seen = JSON.stringify(runs);
				assert.deepEqual([first.status, first.kept], ['success', 2], `first run: ${seen}`);
				assert.equal(second.status, 'error', `the second run with a full history: ${seen}`);
				assert.match(second.error || '', /exceeds the maximum history size/, seen);
				const err = second.error;
				return `History Size 2: first run kept 2, the next runs: ${runs
					.slice(1)
					.map((r) => r.status)
					.join(', ')} ("${err}")`;
			},
		},
		{
			name: 'catch-up-instant-events: unpublished, its subscription deleted; the area leaves nothing behind',
			template: FILE,
			timeoutMs: 120_000,
			async run(ctx) {
				const state = ctx.state.catchup;
				if (!state) throw new Error('the first step of the area did not set up its workflow');
				try {
					await unpublish(ctx);
					const seen = await observed(ctx);
					return `over the area: webhook ${seen.webhook.length}, poll ${seen.poll.length}, action ${seen.action.length} item(s)`;
				} finally {
					await removeArea(ctx);
				}
			},
		},
	],
};
