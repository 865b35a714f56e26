// The Business Ops Trigger's public URL under hostile traffic (issue 19), in real n8n: forged
// deliveries of 1 KiB, 256 KiB and a gzip body inflating to 8 MiB, with junk signature,
// timestamp and id headers, start nothing and write the workflow's static data at most once a
// minute (read from n8n's SQLite database while the flood runs); a forged flood while the
// workflow is published again and again never leaves the subscription unusable: a genuine
// delivery afterwards starts an execution. The CPU and memory figures are bench/hostile.js's.
'use strict';

const crypto = require('node:crypto');

const { assert, node, chain, credentialRef, sleep, waitFor, rt } = require('./harness');
const hostile = require('../../bench/lib/hostile');

const TRIGGER = 'Business Ops Trigger';

function subscriptionsOf(ctx) {
	return ctx.sandbox.control.webhooks().filter((w) => w.url.includes(ctx.state.hostile.webhookId) && !w.url.includes('/webhook-test/'));
}

async function currentSubscription(ctx, notId) {
	return await waitFor(
		() => {
			const subs = subscriptionsOf(ctx);
			return subs.length === 1 && subs[0].id !== notId ? subs[0] : undefined;
		},
		{ timeoutMs: 60_000, what: 'exactly one (new) subscription of the hostile workflow' },
	);
}

/** Emits a genuine event and waits for its execution; answers the delivery's status. */
async function genuineRun(ctx, count) {
	const { control } = ctx.sandbox;
	control.clearDeliveries();
	const ev = control.emit({ type: 'invoice.paid', data: { id: 'inv_hostile', status: 'paid' } });
	await control.waitForDeliveries();
	const delivery = control.deliveries().find((d) => d.eventId === ev.id);
	assert.ok(delivery && delivery.success, `the genuine delivery got HTTP ${delivery && delivery.statusCode}`);
	await ctx.client.waitForExecutions(ctx.state.hostile.workflowId, count, { timeoutMs: 60_000 });
	return delivery.statusCode;
}

module.exports = {
	area: 'hostile',
	async before(ctx) {
		const webhookId = crypto.randomUUID();
		const wf = await ctx.client.createWorkflow({
			name: 'e2e hostile traffic',
			nodes: [
				node(TRIGGER, rt.NODE_TYPES.trigger, { events: ['invoice.paid'], options: {} }, { position: [0, 0], credentials: credentialRef(ctx.credentials.admin), webhookId }),
				node('No Operation', 'n8n-nodes-base.noOp', {}, { position: [220, 0] }),
			],
			connections: chain(TRIGGER, 'No Operation'),
			settings: { executionOrder: 'v1' },
		});
		ctx.state.hostile = { workflowId: wf.id, webhookId, executions: 0 };
		await ctx.client.publishWorkflow(wf.id);
		ctx.state.hostile.subscription = await currentSubscription(ctx);
		// the first genuine delivery pins Auto's form (in n8n's memory at once; in the record with
		// the next static-data write n8n saves, see the first step)
		await genuineRun(ctx, ++ctx.state.hostile.executions);
	},
	steps: [
		{
			name: 'forged deliveries (1 KiB, 256 KiB, gzip inflating to 8 MiB, junk headers) start nothing and write the static data at most once a minute',
			timeoutMs: 240_000,
			async run(ctx) {
				const s = ctx.state.hostile;
				const url = ctx.state.hostile.subscription.url;
				const first = hostile.workflowRow(ctx.n8n.userFolder, s.workflowId);
				const seen = new Set([first.staticData]);
				let polling = true;
				const poll = (async () => {
					while (polling) {
						seen.add(hostile.workflowRow(ctx.n8n.userFolder, s.workflowId).staticData);
						await sleep(250);
					}
				})();
				const started = Date.now();
				const statuses = {};
				const add = (counts) => Object.entries(counts).forEach(([k, v]) => (statuses[k] = (statuses[k] || 0) + v));
				try {
					add(await hostile.sendMany(url, 200, () => hostile.forgedDelivery({ size: hostile.KiB }), 8));
					add(await hostile.sendMany(url, 60, () => hostile.forgedDelivery({ size: 256 * hostile.KiB }), 4));
					add(await hostile.sendMany(url, 10, () => hostile.forgedDelivery({ size: 8 * hostile.MiB, gzip: true }), 2));
				} finally {
					polling = false;
					await poll;
				}
				const seconds = (Date.now() - started) / 1000;
				const total = Object.values(statuses).reduce((a, b) => a + b, 0);
				assert.deepEqual(statuses, { 401: total }, `answers: ${JSON.stringify(statuses)}`);
				await sleep(1500);
				const executions = await ctx.client.executions(s.workflowId);
				assert.equal(executions.length, s.executions, `${executions.length - s.executions} execution(s) started`);

				const last = hostile.workflowRow(ctx.n8n.userFolder, s.workflowId);
				seen.add(last.staticData);
				const writes = seen.size - 1;
				const allowed = 1 + Math.floor(seconds / 60);
				assert.ok(writes <= allowed, `${writes} static-data versions during ${seconds.toFixed(0)} s of forged traffic (at most ${allowed})`);
				assert.equal(last.updatedAt, first.updatedAt, 'the workflow row was updated');
				const before = JSON.parse(first.staticData)[`node:${TRIGGER}`];
				const after = JSON.parse(last.staticData)[`node:${TRIGGER}`];
				// the record is the same, now with the form learned from the genuine delivery (written
				// with the refusal count: n8n 2.41 does not save what a request that starts an execution changed)
				const withoutPin = (subscriptions) => JSON.parse(JSON.stringify(subscriptions, (key, value) => (key === 'pinnedForm' ? undefined : value)));
				assert.deepEqual(withoutPin(after.subscriptions), withoutPin(before.subscriptions), 'the subscription record changed');
				assert.ok(after.subscriptions.production.pinnedForm, `no pinned form in the record: ${last.staticData}`);
				assert.ok(after.refusals && after.refusals.count >= 1 && after.refusals.count <= total, `refusals: ${JSON.stringify(after.refusals)}`);
				return `${total} forged → ${total} × 401 in ${seconds.toFixed(0)} s; 0 executions; ${writes} static-data write(s); refusals stored ${after.refusals.count} (last "${after.refusals.lastReason}")`;
			},
		},
		{
			name: 'a forged flood while the workflow is published again and again never leaves the subscription unusable',
			timeoutMs: 240_000,
			async run(ctx) {
				const s = ctx.state.hostile;
				const url = s.subscription.url;
				let flooding = true;
				let sent = 0;
				const flood = (async () => {
					while (flooding) {
						await hostile.sendMany(url, 24, () => hostile.forgedDelivery({ size: hostile.KiB }), 6);
						sent += 24;
					}
				})();
				const cycles = 3;
				try {
					for (let i = 0; i < cycles; i++) {
						const old = s.subscription;
						await ctx.client.unpublishWorkflow(s.workflowId);
						await waitFor(() => !subscriptionsOf(ctx).some((w) => w.id === old.id), { timeoutMs: 60_000, what: 'the old subscription to go' });
						await ctx.client.publishWorkflow(s.workflowId);
						s.subscription = await currentSubscription(ctx, old.id);
					}
				} finally {
					flooding = false;
					await flood;
				}
				await sleep(1000);
				const record = await hostile.storedRecord(ctx.client, s.workflowId, TRIGGER);
				assert.equal(record && record.id, s.subscription.id, `the static data holds subscription ${record && record.id}, the API ${s.subscription.id}`);
				const status = await genuineRun(ctx, ++s.executions);
				return `${cycles} republishes under ${sent} forged deliveries; the record names subscription ${record.id}; a genuine delivery then got ${status} and started an execution`;
			},
		},
	],
};
