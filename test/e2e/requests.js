// Customer requests through the Business Ops node in real n8n.
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

module.exports = {
	area: 'requests',
	steps: [
		{
			name: 'Create a request (processed at once), Get it, Get Many',
			async run(ctx) {
				for (const op of ['create', 'get', 'getAll']) ctx.requireOperation('request', op);
				const ref = `E2E-${Date.now()}`;
				const [created] = h.expectSuccess(
					await h.runOperation(ctx, {
						resource: 'request',
						operation: 'create',
						fromEmail: 'anna@example.com',
						subject: 'Offerte voor het schilderen van onze winkelpui',
						bodyText: 'Graag een offerte voor 40 m2 schilderwerk aan de voorgevel.',
						processImmediately: true,
						additionalFields: { externalRef: ref, fromName: 'Anna de Vries' },
					}),
				);
				assert.match(created.id, /^req_/);
				ctx.state.requestRef = ref;
				const [got] = h.expectSuccess(await h.runOnRecord(ctx, 'request', 'get', created.id));
				assert.equal(got.id, created.id);
				const list = h.expectSuccess(
					await h.runOperation(ctx, { resource: 'request', operation: 'getAll', returnAll: true }),
				);
				assert.ok(list.some((r) => r.id === created.id));
				return `${created.id}: ${created.status} → ${got.status}; ${list.length} requests`;
			},
		},
		{
			name: 'a duplicate external reference shows the API message (409)',
			async run(ctx) {
				ctx.requireOperation('request', 'create');
				assert.ok(ctx.state.requestRef, 'needs the request of the previous step');
				const r = await h.runOperation(ctx, {
					resource: 'request',
					operation: 'create',
					fromEmail: 'anna@example.com',
					subject: 'Nogmaals',
					bodyText: 'Dezelfde aanvraag nog een keer.',
					processImmediately: false,
					additionalFields: { externalRef: ctx.state.requestRef },
				});
				return h.refusal(r, /409|duplicate/i, /externalRef/);
			},
		},
	],
};
