// The Business Ops Trigger's public URL under hostile traffic (issues 19 and 29), in real n8n:
// 300 forged deliveries of 1 KiB, 256 KiB and a gzip body inflating to 8 MiB, with junk
// signature, timestamp and id headers, start nothing and leave the workflow's row unchanged
// (read from n8n's SQLite database while the flood runs, and from the public API); a genuine
// delivery replayed first with an unsigned aspect changed never makes later genuine deliveries
// fail; a forged flood while the workflow is published again and again never leaves the
// subscription unusable. The CPU and memory figures are bench/hostile.js's.
'use strict';

const crypto = require('node:crypto');

const assert = require('node:assert/strict');
const h = require('./harness');
const hostile = require('../../bench/lib/hostile');

const TRIGGER = 'Business Ops Trigger';

function subscriptionsOf(ctx) {
	return ctx.sandbox.control
		.webhooks()
		.filter(
			(w) => w.url.includes(ctx.state.hostile.webhookId) && !w.url.includes('/webhook-test/'),
		);
}

async function currentSubscription(ctx, notId) {
	return await h.waitFor(
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
	assert.ok(
		delivery && delivery.success,
		`the genuine delivery got HTTP ${delivery && delivery.statusCode}`,
	);
	await ctx.client.waitForExecutions(ctx.state.hostile.workflowId, count, { timeoutMs: 60_000 });
	return delivery.statusCode;
}

/** Unpublishes and publishes `s`'s workflow again: a new subscription (s.subscription), nothing learned about it yet. */
async function publishAnew(ctx, s) {
	const old = s.subscription;
	await ctx.client.unpublishWorkflow(s.workflowId);
	await h.waitFor(() => !subscriptionsOf(ctx).some((w) => w.id === old.id), {
		timeoutMs: 60_000,
		what: 'the old subscription to go',
	});
	await ctx.client.publishWorkflow(s.workflowId);
	s.subscription = await currentSubscription(ctx, old.id);
}

module.exports = {
	area: 'hostile',
	async before(ctx) {
		const webhookId = crypto.randomUUID();
		const wf = await ctx.client.createWorkflow({
			name: 'e2e hostile traffic',
			nodes: [
				h.node(
					TRIGGER,
					h.rt.NODE_TYPES.trigger,
					{ events: ['invoice.paid'], options: {} },
					{ position: [0, 0], credentials: h.credentialRef(ctx.credentials.admin), webhookId },
				),
				h.node('No Operation', 'n8n-nodes-base.noOp', {}, { position: [220, 0] }),
			],
			connections: h.chain(TRIGGER, 'No Operation'),
			settings: { executionOrder: 'v1' },
		});
		ctx.state.hostile = { workflowId: wf.id, webhookId, executions: 0 };
		await ctx.client.publishWorkflow(wf.id);
		ctx.state.hostile.subscription = await currentSubscription(ctx);
		// n8n saves the trigger's static data (the sealed secret) once activation ends, which can be after
		// the API lists the subscription: a delivery before that is refused 401 and the API retries it
		const subscriptionId = ctx.state.hostile.subscription.id;
		await h.waitFor(
			async () =>
				JSON.stringify((await ctx.client.getWorkflow(wf.id)).staticData ?? {}).includes(
					subscriptionId,
				),
			{
				timeoutMs: 60_000,
				what: "the subscription in the workflow's static data",
			},
		);
		// the first genuine delivery teaches Auto the signed form (in n8n's memory only)
		await genuineRun(ctx, ++ctx.state.hostile.executions);
	},
	steps: [
		{
			name: '300 forged deliveries (1 KiB, 256 KiB, gzip inflating to 8 MiB, junk headers) start nothing and leave the workflow row unchanged',
			timeoutMs: 240_000,
			async run(ctx) {
				const s = ctx.state.hostile;
				const url = ctx.state.hostile.subscription.url;
				const first = hostile.workflowRow(ctx.n8n.userFolder, s.workflowId);
				const publicBefore = (await ctx.client.getWorkflow(s.workflowId)).staticData;
				const seen = new Set([first.staticData]);
				let polling = true;
				const poll = (async () => {
					while (polling) {
						seen.add(hostile.workflowRow(ctx.n8n.userFolder, s.workflowId).staticData);
						await h.sleep(250);
					}
				})();
				const statuses = {};
				const add = (counts) =>
					Object.entries(counts).forEach(([k, v]) => (statuses[k] = (statuses[k] || 0) + v));
				try {
					add(
						await hostile.sendMany(
							url,
							230,
							() => hostile.forgedDelivery({ size: hostile.KiB }),
							8,
						),
					);
					add(
						await hostile.sendMany(
							url,
							60,
							() => hostile.forgedDelivery({ size: 256 * hostile.KiB }),
							4,
						),
					);
					add(
						await hostile.sendMany(
							url,
							10,
							() => hostile.forgedDelivery({ size: 8 * hostile.MiB, gzip: true }),
							2,
						),
					);
				} finally {
					polling = false;
					await poll;
				}
				assert.deepEqual(statuses, { 401: 300 }, `answers: ${JSON.stringify(statuses)}`);
				await h.sleep(1500);
				const executions = await ctx.client.executions(s.workflowId);
				assert.equal(
					executions.length,
					s.executions,
					`${executions.length - s.executions} execution(s) started`,
				);
				const last = hostile.workflowRow(ctx.n8n.userFolder, s.workflowId);
				seen.add(last.staticData);
				assert.equal(
					seen.size,
					1,
					`the static data changed ${seen.size - 1} time(s): ${[...seen].join(' → ')}`,
				);
				assert.equal(last.updatedAt, first.updatedAt, 'the workflow row was updated');
				assert.deepEqual(
					(await ctx.client.getWorkflow(s.workflowId)).staticData,
					publicBefore,
					'GET /api/v1/workflows/{id} shows other static data',
				);
				assert.match(
					h.logText(ctx.n8n),
					/refused a delivery with HTTP 401/,
					"no refusal in n8n's log",
				);
				return '300 forged → 300 × 401; 0 executions; the workflow row (SQLite and public API) unchanged; the reason in the log';
			},
		},
		{
			name: 'a genuine delivery replayed first with an unsigned aspect changed never makes later genuine deliveries fail',
			timeoutMs: 300_000,
			async run(ctx) {
				const s = ctx.state.hostile;
				const variants = {
					'signature header renamed': ({ 'webhook-signature': signature, ...rest }) => ({
						...rest,
						'x-poison-signature': signature,
					}),
					'id header renamed': ({ 'webhook-id': id, ...rest }) => ({
						...rest,
						'x-attacker-delivery-id': id,
					}),
					'prefix dropped': (headers) => ({
						...headers,
						'webhook-signature': headers['webhook-signature'].replace(/^v1,/, ''),
					}),
					'proxy ids added, headers reordered': (headers) => ({
						'x-vercel-id': 'fra1::x',
						'x-arr-log-id': 'l',
						'x-poison-id': 'p',
						...Object.fromEntries(Object.entries(headers).reverse()),
					}),
				};
				const done = [];
				for (const [aspect, change] of Object.entries(variants)) {
					// a new subscription: nothing learned about it in this n8n yet (as after a restart)
					await publishAnew(ctx, s);
					const record = await h.waitFor(
						async () => {
							const stored = await hostile.storedRecord(ctx.client, s.workflowId, TRIGGER);
							return stored && stored.id === s.subscription.id ? stored : undefined;
						},
						{ timeoutMs: 30_000, what: 'the new record' },
					);
					const genuine = hostile.genuineDelivery({
						secret: hostile.openRecordSecret(record, ctx.sandbox.keys.admin, ctx.pkg.root),
						size: hostile.KiB,
					});
					const replay = await h.waitFor(
						async () => {
							const { status } = await h.post(s.subscription.url, {
								headers: change(genuine.headers),
								body: genuine.body,
							});
							return status === 404 ? undefined : status;
						},
						{ timeoutMs: 30_000, what: 'the production webhook to answer' },
					);
					assert.equal(replay, 200, `the replay (${aspect}) got ${replay}`);
					s.executions += 1;
					await genuineRun(ctx, ++s.executions);
					await genuineRun(ctx, ++s.executions);
					done.push(aspect);
				}
				return `replayed with ${done.join('; ')}: each accepted, and 2 of 2 genuine deliveries after each ran`;
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
						await publishAnew(ctx, s);
					}
				} finally {
					flooding = false;
					await flood;
				}
				await h.sleep(1000);
				const record = await hostile.storedRecord(ctx.client, s.workflowId, TRIGGER);
				assert.equal(
					record && record.id,
					s.subscription.id,
					`the static data holds subscription ${record && record.id}, the API ${s.subscription.id}`,
				);
				const status = await genuineRun(ctx, ++s.executions);
				return `${cycles} republishes under ${sent} forged deliveries; the record names subscription ${record.id}; a genuine delivery then got ${status} and started an execution`;
			},
		},
	],
};
