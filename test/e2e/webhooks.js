// Webhook subscriptions through the Business Ops node in real n8n, delivering to a small receiver
// in this process: event types, create (secret shown once), test event (signed), update, delete.
'use strict';

const http = require('node:http');
const path = require('node:path');

const assert = require('node:assert/strict');
const h = require('./harness');

/** The event choices as the editor loads them (n8n's dynamic-node-parameters endpoint), for a key. */
async function loadEventChoices(ctx, key) {
	return await ctx.client.rest('POST', '/dynamic-node-parameters/options', {
		path: 'events',
		methodName: 'getEventTypes',
		nodeTypeAndVersion: { name: h.rt.NODE_TYPES.action, version: 1 },
		currentNodeParameters: { resource: 'webhook', operation: 'create', events: [] },
		credentials: h.credentialRef(ctx.credentials[key]),
	});
}

/** An HTTP receiver on 127.0.0.1 that records every request. */
function startReceiver() {
	const received = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			received.push({
				method: req.method,
				url: req.url,
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			});
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
		});
	});
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () => {
			resolve({
				url: `http://127.0.0.1:${server.address().port}/hooks/business-ops`,
				received,
				close: () => new Promise((r) => server.close(() => r())),
			});
		});
	});
}

module.exports = {
	area: 'webhooks',
	startReceiver,
	steps: [
		{
			name: 'Get Event Types lists the events of the API',
			async run(ctx) {
				ctx.requireOperation('webhook', 'getEventTypes');
				const items = h.expectSuccess(
					await h.runOperation(ctx, { resource: 'webhook', operation: 'getEventTypes' }),
				);
				const names = items.map((i) => i.type || i.name || i.value || i.eventType);
				for (const t of [
					'invoice.sent',
					'invoice.paid',
					'quote.approved',
					'quote.created',
					'request.received',
				]) {
					assert.ok(names.includes(t), `${t} missing from ${JSON.stringify(items.slice(0, 3))}…`);
				}
				return `${items.length} event types`;
			},
		},
		{
			name: 'Create → Send Test Event (signed delivery) → Update → Delete',
			async run(ctx) {
				for (const op of ['create', 'sendTestEvent', 'update', 'delete'])
					ctx.requireOperation('webhook', op);
				const receiver = await startReceiver();
				try {
					const [created] = h.expectSuccess(
						await h.runOperation(ctx, {
							resource: 'webhook',
							operation: 'create',
							name: 'E2E receiver',
							url: receiver.url,
							events: ['quote.approved', 'invoice.paid'],
						}),
					);
					assert.match(created.id, /^whk_/);
					assert.ok(created.signingSecret, 'no signing secret in the create output');
					assert.ok(created.signingSecretNote, 'no note that the secret is shown once');
					h.expectSuccess(
						await h.runOperation(ctx, {
							resource: 'webhook',
							operation: 'sendTestEvent',
							webhookId: h.byId(created.id),
							eventType: 'quote.approved',
						}),
					);
					const [delivery] = await h.waitFor(
						() => (receiver.received.length ? receiver.received : null),
						{ what: 'the test delivery' },
					);
					const { verifyDelivery } = h.rt.sandboxModule(ctx.pkg.root);
					assert.ok(
						verifyDelivery('standard', created.signingSecret, delivery.headers, delivery.body),
						'the delivery signature does not verify',
					);
					const [updated] = h.expectSuccess(
						await h.runOperation(ctx, {
							resource: 'webhook',
							operation: 'update',
							webhookId: h.byId(created.id),
							updateFields: { active: false },
						}),
					);
					assert.equal(updated.active, false);
					h.expectSuccess(await h.runOnRecord(ctx, 'webhook', 'delete', created.id));
					assert.ok(
						!ctx.sandbox.control.webhooks().some((w) => w.id === created.id),
						'the subscription is still there',
					);
					return `${created.id}: test delivery ${JSON.parse(delivery.body).type || ''} verified, paused, deleted`;
				} finally {
					await receiver.close();
				}
			},
		},
		{
			name: 'Get Many and Get Event Types work whether or not the API answers the webhook lists with meta',
			async run(ctx) {
				ctx.requireOperation('webhook', 'getAll');
				ctx.requireOperation('webhook', 'getEventTypes');
				const control = ctx.sandbox.control;
				const created = [];
				for (let i = 0; i < 3; i++) {
					const [hook] = h.expectSuccess(
						await h.runOperation(ctx, {
							resource: 'webhook',
							operation: 'create',
							name: `E2E list ${i}`,
							url: `https://example.com/hook/${i}`,
							events: ['invoice.paid'],
						}),
					);
					created.push(hook.id);
				}
				const counts = {};
				try {
					for (const withoutMeta of [false, true]) {
						control.setReadings({ webhookListsWithoutMeta: withoutMeta });
						control.clearRequestLog();
						const hooks = h.expectSuccess(
							await h.runOperation(ctx, {
								resource: 'webhook',
								operation: 'getAll',
								returnAll: true,
							}),
						);
						for (const id of created)
							assert.ok(
								hooks.some((h) => h.id === id),
								`${id} missing (without meta: ${withoutMeta})`,
							);
						const limited = h.expectSuccess(await h.runGetMany(ctx, 'webhook', 2));
						assert.equal(limited.length, 2);
						const types = h.expectSuccess(
							await h.runOperation(ctx, { resource: 'webhook', operation: 'getEventTypes' }),
						);
						assert.ok(
							types.some((t) => t.type === 'quote.approved'),
							JSON.stringify(types.slice(0, 2)),
						);
						const lists = control
							.requestLog()
							.filter((r) => /\/webhooks(\/events)?$/.test(r.path)).length;
						assert.equal(
							lists,
							3,
							`${lists} list requests for 3 operations (without meta: ${withoutMeta})`,
						);
						counts[withoutMeta ? 'without meta' : 'with meta'] =
							`${hooks.length} hooks, ${types.length} types`;
					}
				} finally {
					control.setReadings({ webhookListsWithoutMeta: false });
					for (const id of created) await h.runOnRecord(ctx, 'webhook', 'delete', id);
				}
				return JSON.stringify(counts);
			},
		},
		{
			name: "the editor's event list comes from the API, and shows the API's 403 naming webhooks.read instead of a fallback",
			async run(ctx) {
				const control = ctx.sandbox.control;
				control.clearRequestLog();
				const choices = await loadEventChoices(ctx, 'admin');
				const values = choices.map((c) => c.value);
				const all = (
					await fetch(`${ctx.sandbox.baseUrl}/webhooks/events?pageSize=100`, {
						headers: { authorization: `Bearer ${ctx.sandbox.keys.admin}` },
					}).then((r) => r.json())
				).data;
				assert.deepEqual(values.slice().sort(), all.map((t) => t.type).sort());
				let refused;
				try {
					await loadEventChoices(ctx, 'contactsOnly');
				} catch (error) {
					refused = error;
				}
				assert.ok(refused, 'the event list loaded with a key without webhooks.read');
				assert.match(JSON.stringify(refused.body ?? refused.message), /webhooks\.read/);
				return `${values.length} event types; without the scope: ${String(refused.message).slice(0, 120)}`;
			},
		},
	],
};
