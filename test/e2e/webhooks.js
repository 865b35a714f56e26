// Webhook subscriptions through the Business Ops node in real n8n, delivering to a small receiver
// in this process: event types, create (secret shown once), test event (signed), update, delete.
'use strict';

const http = require('node:http');
const path = require('node:path');

const { assert, byId, runOperation, expectSuccess, waitFor, rt } = require('./harness');

/** An HTTP receiver on 127.0.0.1 that records every request. */
function startReceiver() {
	const received = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
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
				const items = expectSuccess(await runOperation(ctx, { resource: 'webhook', operation: 'getEventTypes' }));
				const names = items.map((i) => i.type || i.name || i.value || i.eventType);
				for (const t of ['invoice.sent', 'invoice.paid', 'quote.approved', 'quote.created', 'request.received']) {
					assert.ok(names.includes(t), `${t} missing from ${JSON.stringify(items.slice(0, 3))}…`);
				}
				return `${items.length} event types`;
			},
		},
		{
			name: 'Create → Send Test Event (signed delivery) → Update → Delete',
			async run(ctx) {
				for (const op of ['create', 'sendTestEvent', 'update', 'delete']) ctx.requireOperation('webhook', op);
				const receiver = await startReceiver();
				try {
					const [created] = expectSuccess(
						await runOperation(ctx, { resource: 'webhook', operation: 'create', name: 'E2E receiver', url: receiver.url, events: ['quote.approved', 'invoice.paid'] }),
					);
					assert.match(created.id, /^whk_/);
					assert.ok(created.signingSecret, 'no signing secret in the create output');
					assert.ok(created.signingSecretNote, 'no note that the secret is shown once');
					expectSuccess(await runOperation(ctx, { resource: 'webhook', operation: 'sendTestEvent', webhookId: byId(created.id), eventType: 'quote.approved' }));
					const [delivery] = await waitFor(() => (receiver.received.length ? receiver.received : null), { what: 'the test delivery' });
					const { verifyDelivery } = require(path.join(rt.REPO_ROOT, 'build', 'sandbox', 'index.js'));
					assert.ok(verifyDelivery('standard', created.signingSecret, delivery.headers, delivery.body), 'the delivery signature does not verify');
					const [updated] = expectSuccess(
						await runOperation(ctx, { resource: 'webhook', operation: 'update', webhookId: byId(created.id), updateFields: { active: false } }),
					);
					assert.equal(updated.active, false);
					expectSuccess(await runOperation(ctx, { resource: 'webhook', operation: 'delete', webhookId: byId(created.id) }));
					assert.ok(!ctx.sandbox.control.webhooks().some((w) => w.id === created.id), 'the subscription is still there');
					return `${created.id}: test delivery ${JSON.parse(delivery.body).type || ''} verified, paused, deleted`;
				} finally {
					await receiver.close();
				}
			},
		},
	],
};
