// The Business Ops Trigger in real n8n against the sandbox: publishing subscribes exactly once,
// the signing secret is not in the workflow in clear, events start executions carrying the
// event, a wrongly signed delivery gets 401, starts nothing and is counted in the static data,
// every signing form and payload shape of the sandbox verifies under Auto and under Custom, a
// refusal ends the editor's wait for a test event with the reason, a restart of n8n leaves no
// duplicate subscription, unpublishing deletes the subscription.
'use strict';

const crypto = require('node:crypto');

const assert = require('node:assert/strict');
const h = require('./harness');

const EVENTS = ['invoice.paid', 'quote.approved', 'request.received'];
const TRIGGER = 'Business Ops Trigger';

/** Delivery contracts of the sandbox (sandbox/src/webhooks/contract.ts): signing forms, header names, type placement, payload shapes. */
// Grouped by signing form: Auto remembers the signed form (signed content and key) of a
// subscription's accepted deliveries, so each new form gets a new subscription (the workflow is
// published again).
const CONTRACTS = [
	['Standard Webhooks (default)', { signing: { form: 'standard' } }],
	[
		'type under "event", record under "payload"',
		{ signing: { form: 'standard' }, typeField: 'event', dataField: 'payload' },
	],
	[
		'type only in an X-Event-Type header',
		{ signing: { form: 'standard' }, typeField: null, typeHeader: 'X-Event-Type' },
	],
	[
		'GitHub-style under X-BO-Signature',
		{ signing: { form: 'github', signatureHeader: 'X-BO-Signature' } },
	],
	[
		'Stripe-style under X-Signature, rotated',
		{ signing: { form: 'stripe', signatureHeader: 'X-Signature', rotate: true } },
	],
	['bare hex of timestamp.body, X-Signature-Timestamp', { signing: { form: 'hex' } }],
	[
		'bare base64 of id.timestamp.body, whsec key',
		{
			signing: {
				form: 'base64',
				content: 'id.timestamp.body',
				key: 'whsec',
				idHeader: 'X-Message-Id',
			},
		},
	],
	[
		'type under "event_type"',
		{ signing: { form: 'github', signatureHeader: 'Signature' }, typeField: 'event_type' },
	],
	// back to the default form, so that the later steps meet a subscription that learned it
	['Standard Webhooks again, learned by a new subscription', { signing: { form: 'standard' } }],
];

function triggerWorkflow(ctx, name, options = {}) {
	return h.triggerWorkflow(name, ctx.credentials.admin, { events: EVENTS, options });
}

/**
 * Where n8n serves production webhooks: the n8n itself, or in queue mode (scripts/e2e-queue.js)
 * the separate webhook process, which the runner passes as ctx.webhookBaseUrl.
 */
function webhookBase(ctx) {
	return ctx.webhookBaseUrl || ctx.n8n.baseUrl;
}

/** Subscriptions in the sandbox that deliver to this n8n. */
function ourSubscriptions(ctx) {
	const prefix = `${webhookBase(ctx)}/webhook/`;
	return ctx.sandbox.control.webhooks().filter((w) => w.url.startsWith(prefix));
}

/**
 * n8n 2.41.1 publishes through an outbox (N8N_USE_WORKFLOW_PUBLICATION_SERVICE, on by default):
 * POST /publish answers before the trigger's `create` has run. Waits until `count` of our
 * subscriptions exist, then checks that the number stays there.
 */
async function waitForSubscriptions(ctx, count, what) {
	await h.waitFor(() => ourSubscriptions(ctx).length === count, { timeoutMs: 30_000, what });
	await h.sleep(1000);
	const subs = ourSubscriptions(ctx);
	assert.equal(subs.length, count, `${what}: ${subs.length} subscriptions a second later`);
	return subs;
}

/** Emits an event in the sandbox and waits until its deliveries are done. */
async function emit(ctx, type, data) {
	const ev = ctx.sandbox.control.emit({ type, ...(data ? { data } : {}) });
	await ctx.sandbox.control.waitForDeliveries();
	return ev;
}

/** The trigger's output items of all finished executions of a workflow (newest first). */
async function triggerEvents(ctx, workflowId) {
	const list = await ctx.client.executions(workflowId);
	return list.map((ex) => ({ ex, event: (h.rt.nodeOutput(ex, TRIGGER) || [])[0] }));
}

/** Waits until the workflow has `count` executions; returns the trigger outputs (newest first). */
async function waitForEvents(ctx, workflowId, count) {
	await ctx.client.waitForExecutions(workflowId, count, { timeoutMs: 30_000 });
	return triggerEvents(ctx, workflowId);
}

/** A delivery signed Standard-Webhooks style with a secret that is not the subscription's. */
function forgedDelivery(type) {
	const id = `evt_forged${Date.now()}`;
	const ts = Math.floor(Date.now() / 1000);
	const body = JSON.stringify({
		id,
		type,
		timestamp: new Date().toISOString(),
		data: { id: 'inv_forged' },
	});
	const key = crypto.randomBytes(24);
	const sig = crypto.createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
	return {
		body,
		headers: {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(ts),
			'webhook-signature': `v1,${sig}`,
		},
	};
}

module.exports = {
	area: 'trigger',
	steps: [
		{
			name: 'publishing the workflow creates exactly one subscription',
			async run(ctx) {
				const before = ourSubscriptions(ctx).length;
				const wf = await ctx.client.createWorkflow(triggerWorkflow(ctx, 'e2e trigger'));
				ctx.state.triggerWorkflowId = wf.id;
				const t = Date.now();
				await ctx.client.publishWorkflow(wf.id);
				const subs = await waitForSubscriptions(
					ctx,
					before + 1,
					'the subscription of the published workflow',
				);
				const took = ((Date.now() - t - 1000) / 1000).toFixed(1);
				const sub = subs[subs.length - 1];
				assert.deepEqual([...sub.events].sort(), [...EVENTS].sort());
				assert.equal(sub.active, true);
				ctx.state.subscription = sub;
				// the workflow as n8n's public API returns it holds the secret sealed, not in clear
				const { staticData } = await ctx.client.getWorkflow(wf.id);
				const record =
					staticData &&
					staticData[`node:${TRIGGER}`] &&
					staticData[`node:${TRIGGER}`].subscriptions.production;
				assert.ok(record && record.id === sub.id, `static data: ${JSON.stringify(staticData)}`);
				assert.match(String(record.sealedSecret), /^v1\./);
				assert.equal(record.secret, undefined);
				assert.ok(
					!JSON.stringify(staticData).includes('whsec_'),
					'a secret in clear in the static data',
				);
				return `${sub.id} → ${sub.url.replace(webhookBase(ctx), '')} (${sub.events.join(', ')}) after ${took} s; secret sealed`;
			},
		},
		{
			name: `events ${EVENTS.join(', ')} start executions carrying the event`,
			async run(ctx) {
				const id = ctx.state.triggerWorkflowId;
				assert.ok(id, 'needs the published workflow of the previous step');
				const emitted = [];
				for (const type of EVENTS) emitted.push(await emit(ctx, type));
				const got = await waitForEvents(ctx, id, EVENTS.length);
				for (const ev of emitted) {
					const hit = got.find((g) => g.event && g.event.id === ev.id);
					assert.ok(
						hit,
						`no execution carries event ${ev.id} (${ev.type}); saw ${got.map((g) => g.event && g.event.type).join(', ')}`,
					);
					assert.equal(hit.event.type, ev.type);
					assert.equal(hit.ex.status, 'success');
					assert.ok(
						hit.event.data && hit.event.data.id,
						`event ${ev.type} has no data: ${JSON.stringify(hit.event)}`,
					);
				}
				const failed = ctx.sandbox.control.deliveries().filter((d) => !d.success);
				assert.equal(failed.length, 0, `failed deliveries: ${JSON.stringify(failed.slice(0, 2))}`);
				return `${got.length} executions: ${got.map((g) => `${g.event.type} ${g.event.data.id}`).join(', ')}`;
			},
		},
		{
			name: 'a real status change (invoice marked paid through the API) starts an execution',
			async run(ctx) {
				const id = ctx.state.triggerWorkflowId;
				const before = (await ctx.client.executions(id)).length;
				const headers = {
					authorization: `Bearer ${ctx.sandbox.keys.admin}`,
					'content-type': 'application/json',
				};
				const contactId = await h.sandboxFirstId(ctx, 'contacts');
				const createRes = await fetch(`${ctx.sandbox.baseUrl}/invoices`, {
					method: 'POST',
					headers,
					body: JSON.stringify({
						contactId,
						items: [{ name: 'Brood', quantity: 1, unitPrice: 5, vatPercentage: 9 }],
					}),
				});
				assert.equal(createRes.status, 201, await createRes.clone().text());
				const target = (await createRes.json()).data.id;
				const sendRes = await fetch(`${ctx.sandbox.baseUrl}/invoices/${target}`, {
					method: 'PATCH',
					headers,
					body: JSON.stringify({ status: 'sent' }),
				});
				assert.equal(sendRes.status, 200, await sendRes.text());
				const res = await fetch(`${ctx.sandbox.baseUrl}/invoices/${target}`, {
					method: 'PATCH',
					headers,
					body: JSON.stringify({ status: 'paid' }),
				});
				assert.equal(res.status, 200, await res.text());
				await ctx.sandbox.control.waitForDeliveries();
				const got = await waitForEvents(ctx, id, before + 1);
				const hit = got.find(
					(g) =>
						g.event &&
						g.event.type === 'invoice.paid' &&
						g.event.data &&
						g.event.data.id === target,
				);
				assert.ok(hit, `no execution for invoice.paid of ${target}`);
				assert.equal(hit.event.data.status, 'paid');
				return `${target} paid → execution ${hit.ex.id}`;
			},
		},
		{
			name: 'a delivery with a wrong signature gets 401 and starts nothing',
			async run(ctx) {
				const id = ctx.state.triggerWorkflowId;
				const url = ctx.state.subscription.url;
				const before = (await ctx.client.executions(id)).length;
				const forged = await h.post(url, forgedDelivery('invoice.paid'));
				assert.equal(forged.status, 401, `forged signature: HTTP ${forged.status} ${forged.text}`);
				const unsigned = await h.post(url, {
					body: JSON.stringify({ id: 'evt_unsigned', type: 'invoice.paid', data: {} }),
					headers: { 'content-type': 'application/json' },
				});
				assert.equal(
					unsigned.status,
					401,
					`no signature: HTTP ${unsigned.status} ${unsigned.text}`,
				);
				await h.sleep(1500);
				const after = (await ctx.client.executions(id)).length;
				assert.equal(after, before, `${after - before} execution(s) started`);
				// the sender learns nothing; the reason goes to n8n's log only, and nothing is stored
				assert.equal(JSON.parse(forged.text).error, 'invalid signature', forged.text);
				assert.equal(JSON.parse(unsigned.text).error, 'invalid signature', unsigned.text);
				const { staticData } = await ctx.client.getWorkflow(id);
				assert.equal(
					staticData[`node:${TRIGGER}`].refusals,
					undefined,
					`refusals stored: ${JSON.stringify(staticData)}`,
				);
				return `forged: 401 ${forged.text.slice(0, 80)}; unsigned: 401; nothing stored`;
			},
		},
		{
			name: 'under Auto, deliveries verify in every signing form and payload shape of the sandbox',
			timeoutMs: 180_000,
			async run(ctx) {
				const id = ctx.state.triggerWorkflowId;
				const control = ctx.sandbox.control;
				const done = [];
				let form = JSON.stringify(CONTRACTS[0][1].signing);
				try {
					for (const [label, contract] of CONTRACTS) {
						control.setDeliveryContract(contract);
						if (JSON.stringify(contract.signing) !== form) {
							form = JSON.stringify(contract.signing);
							if (done.length === 3) {
								// the learned signed form refuses a delivery signed another way
								control.clearDeliveries();
								const other = await emit(ctx, 'quote.approved');
								const refused = control.deliveries().filter((d) => d.eventId === other.id);
								assert.ok(
									refused.length >= 1 && refused.every((d) => d.statusCode === 401),
									`${label} under the learned signed form: ${refused.map((d) => d.statusCode)}`,
								);
								done.push(`${label} refused under the learned signed form`);
							}
							// a new subscription learns the new form
							await ctx.client.unpublishWorkflow(id);
							await h.waitFor(
								() => !ourSubscriptions(ctx).some((s) => s.id === ctx.state.subscription.id),
								{ timeoutMs: 30_000, what: 'the old subscription to go' },
							);
							const count = ourSubscriptions(ctx).length;
							await ctx.client.publishWorkflow(id);
							const subs = await waitForSubscriptions(ctx, count + 1, 'the new subscription');
							ctx.state.subscription = subs[subs.length - 1];
						}
						control.clearDeliveries();
						const before = (await ctx.client.executions(id)).length;
						const ev = await emit(ctx, 'quote.approved');
						const deliveries = control.deliveries().filter((d) => d.eventId === ev.id);
						assert.ok(deliveries.length >= 1, `${label}: nothing was delivered`);
						assert.ok(
							deliveries[0].success,
							`${label}: n8n answered ${deliveries[0].statusCode} ${deliveries[0].error || ''}`,
						);
						const got = await waitForEvents(ctx, id, before + 1);
						const hit = got.find((g) => g.event && g.event.id === ev.id);
						assert.ok(hit, `${label}: no execution carries ${ev.id}`);
						assert.equal(hit.event.type, 'quote.approved', `${label}: type ${hit.event.type}`);
						assert.ok(
							hit.event.data && hit.event.data.id,
							`${label}: no record in ${JSON.stringify(hit.event)}`,
						);
						assert.equal(hit.event.deliveryId, ev.id, `${label}: deliveryId`);
						done.push(label);
					}
				} finally {
					control.setDeliveryContract({});
				}
				return done.join('; ');
			},
		},
		{
			name: 'under Custom, the form set by hand verifies and other forms get 401',
			async run(ctx) {
				const control = ctx.sandbox.control;
				const custom = {
					header: 'X-Api-Signature',
					prefix: 'sha256=',
					encoding: 'hex',
					signedContent: '{timestamp}.{body}',
					key: 'secret',
					timestampHeader: 'X-Api-Timestamp',
				};
				const wf = await ctx.client.createWorkflow(
					triggerWorkflow(ctx, 'e2e trigger (custom)', {
						signatureScheme: 'custom',
						customSignature: { settings: custom },
					}),
				);
				await ctx.client.publishWorkflow(wf.id);
				try {
					await waitForSubscriptions(ctx, 2, 'the subscription of the Custom workflow');
					const sub = ourSubscriptions(ctx).find((s) => s.id !== ctx.state.subscription.id);
					control.setDeliveryContract({
						signing: {
							form: 'github',
							signatureHeader: 'X-Api-Signature',
							content: 'timestamp.body',
							timestampHeader: 'X-Api-Timestamp',
						},
					});
					control.clearDeliveries();
					const ev = await emit(ctx, 'request.received');
					const ok = control
						.deliveries()
						.find((d) => d.eventId === ev.id && d.subscriptionId === sub.id);
					assert.ok(ok && ok.success, `custom form: ${ok && ok.statusCode}`);
					const got = await waitForEvents(ctx, wf.id, 1);
					assert.ok(
						got.some((g) => g.event && g.event.id === ev.id),
						'no execution for the custom-signed event',
					);
					control.setDeliveryContract({});
					control.clearDeliveries();
					const other = await emit(ctx, 'request.received');
					const refused = control
						.deliveries()
						.filter((d) => d.eventId === other.id && d.subscriptionId === sub.id);
					assert.ok(
						refused.length >= 1 && refused.every((d) => d.statusCode === 401),
						`Standard Webhooks to Custom: ${refused.map((d) => d.statusCode)}`,
					);
					await h.sleep(1000);
					assert.equal(
						(await ctx.client.executions(wf.id)).length,
						1,
						'the refused delivery started an execution',
					);
					return 'custom form 200 and run; Standard Webhooks form 401, not run';
				} finally {
					control.setDeliveryContract({});
					await ctx.client.unpublishWorkflow(wf.id).catch(() => {});
					await h
						.waitFor(() => ourSubscriptions(ctx).length === 1, {
							timeoutMs: 30_000,
							what: 'the Custom subscription to go',
						})
						.catch(() => {});
				}
			},
		},
		{
			name: "while the editor listens for a test event, a stranger's POST gets 401 with the reason and does not end the listening; the genuine test event then arrives",
			async run(ctx) {
				const wf = await ctx.client.createWorkflow(triggerWorkflow(ctx, 'e2e trigger (listening)'));
				const full = await ctx.client.rest('GET', `/workflows/${wf.id}`);
				const started = await ctx.client.rest('POST', `/workflows/${wf.id}/run`, {
					workflowData: full,
					triggerToStartFrom: { name: TRIGGER },
				});
				assert.ok(
					started && started.waitingForWebhook,
					`listening did not start: ${JSON.stringify(started)}`,
				);
				const testPrefix = `${ctx.n8n.baseUrl}/webhook-test/`;
				const sub = await h.waitFor(
					() =>
						ctx.sandbox.control
							.webhooks()
							.find((w) => w.url.startsWith(testPrefix) && w.url.includes(full.nodes[0].webhookId)),
					{
						timeoutMs: 30_000,
						what: 'the test subscription',
					},
				);
				const answers = [];
				for (const junk of [
					forgedDelivery('invoice.paid'),
					{ body: 'junk', headers: { 'content-type': 'text/plain' } },
				]) {
					const answer = await h.post(sub.url, junk);
					assert.equal(answer.status, 401, `stranger: HTTP ${answer.status} ${answer.text}`);
					answers.push(JSON.parse(answer.text).reason);
				}
				assert.match(answers[0], /^signature does not match/);
				await h.sleep(1000);
				assert.equal(
					(await ctx.client.executions(wf.id)).length,
					0,
					'a refusal produced an execution',
				);
				assert.ok(
					ctx.sandbox.control.webhooks().some((w) => w.id === sub.id),
					'the test subscription went: the listening ended',
				);
				// the listening goes on: the API's test event arrives and runs
				ctx.sandbox.control.clearDeliveries();
				await emit(ctx, 'invoice.paid', { id: 'inv_listen' });
				const ran = await h.waitFor(
					async () => (await ctx.client.executions(wf.id)).find((ex) => ex.status === 'success'),
					{ timeoutMs: 30_000, what: 'the test execution' },
				);
				await h.waitFor(() => !ctx.sandbox.control.webhooks().some((w) => w.id === sub.id), {
					timeoutMs: 30_000,
					what: 'the test subscription to go',
				});
				return `strangers got 401 ("${answers.join('", "')}"); still listening; the test event then ran (execution ${ran.id}); test subscription removed`;
			},
		},
		{
			name: 'a trigger set to Standard Webhooks refuses a GitHub-style delivery',
			async run(ctx) {
				const control = ctx.sandbox.control;
				const wf = await ctx.client.createWorkflow(
					triggerWorkflow(ctx, 'e2e trigger (standard only)', {
						signatureScheme: 'standardWebhooks',
					}),
				);
				await ctx.client.publishWorkflow(wf.id);
				try {
					await waitForSubscriptions(ctx, 2, 'the subscription of the second workflow');
					control.setSigningScheme('github');
					control.clearDeliveries();
					const sub = ourSubscriptions(ctx).find((s) => s.id !== ctx.state.subscription.id);
					assert.ok(sub, 'the second workflow has no subscription');
					const ev = await emit(ctx, 'request.received');
					const mine = control
						.deliveries()
						.filter((d) => d.eventId === ev.id && d.subscriptionId === sub.id);
					assert.ok(mine.length >= 1, 'nothing was delivered');
					assert.ok(
						mine.every((d) => d.statusCode === 401),
						`statuses: ${mine.map((d) => d.statusCode).join(', ')}`,
					);
					await h.sleep(1000);
					assert.equal((await ctx.client.executions(wf.id)).length, 0, 'an execution started');
					return `${mine.length} attempt(s), all 401`;
				} finally {
					control.setSigningScheme('standard');
					await ctx.client.unpublishWorkflow(wf.id).catch(() => {});
					await h
						.waitFor(() => ourSubscriptions(ctx).length === 1, {
							timeoutMs: 30_000,
							what: 'the second subscription to go',
						})
						.catch(() => {});
				}
			},
		},
		{
			name: 'an n8n restart leaves exactly one subscription and one execution per event',
			timeoutMs: 240_000,
			async run(ctx) {
				const id = ctx.state.triggerWorkflowId;
				const url = ctx.state.subscription.url;
				const t = Date.now();
				await ctx.n8n.restart();
				// Production webhooks register a little after readiness: poll the webhook itself.
				await h.waitFor(
					async () =>
						(await h.post(url, forgedDelivery('quote.approved')).catch(() => ({ status: 0 })))
							.status === 401,
					{
						timeoutMs: 60_000,
						what: 'the trigger webhook to be registered again',
					},
				);
				const restartSecs = ((Date.now() - t) / 1000).toFixed(1);
				await h.sleep(1000);
				const subs = ourSubscriptions(ctx);
				assert.equal(
					subs.length,
					1,
					`subscriptions after restart: ${subs.map((s) => s.id).join(', ')}`,
				);
				assert.equal(subs[0].id, ctx.state.subscription.id, 'the subscription was replaced');
				const before = (await ctx.client.executions(id)).length;
				const ev = await emit(ctx, 'invoice.paid');
				const got = await waitForEvents(ctx, id, before + 1);
				await h.sleep(1000);
				const after = await ctx.client.executions(id);
				assert.equal(after.length, before + 1, `${after.length - before} executions for one event`);
				assert.ok(got.some((g) => g.event && g.event.id === ev.id));
				return `back in ${restartSecs} s; subscription ${subs[0].id} kept`;
			},
		},
		{
			name: 'unpublishing deletes the subscription',
			async run(ctx) {
				const id = ctx.state.triggerWorkflowId;
				await ctx.client.unpublishWorkflow(id);
				await h
					.waitFor(() => ourSubscriptions(ctx).length === 0, {
						timeoutMs: 30_000,
						what: 'the subscription to be deleted',
					})
					.catch(() => {});
				const left = ourSubscriptions(ctx);
				assert.equal(left.length, 0, `left: ${left.map((s) => `${s.id} ${s.url}`).join(', ')}`);
				const before = (await ctx.client.executions(id)).length;
				const ev = await emit(ctx, 'invoice.paid');
				assert.equal(ev.subscriptionIds.length, 0, 'the event still went to a subscription');
				await h.sleep(500);
				assert.equal((await ctx.client.executions(id)).length, before);
				return `${ctx.state.subscription.id} deleted`;
			},
		},
	],
};
