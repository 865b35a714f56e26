// Quotes through the Business Ops node in real n8n: the draft → sent → approved life cycle, a 422
// for a move the API does not allow (shown to the user), cancel + delete, and a missing scope.
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

const ITEMS = {
	item: [{ name: 'Schilderwerk voorgevel', quantity: 12, unitPrice: 45, vatPercentage: 21 }],
};

const firstContactId = (ctx) => h.sandboxFirstId(ctx, 'contacts');

async function createQuote(ctx) {
	const [quote] = h.expectSuccess(
		await h.runOperation(ctx, {
			resource: 'quote',
			operation: 'create',
			contactId: h.byId(await firstContactId(ctx)),
			itemsInput: 'form',
			items: ITEMS,
		}),
	);
	return quote;
}

module.exports = {
	area: 'quotes',
	steps: [
		{
			name: 'Get Many with Return All',
			async run(ctx) {
				ctx.requireOperation('quote', 'getAll');
				const items = h.expectSuccess(
					await h.runOperation(ctx, { resource: 'quote', operation: 'getAll', returnAll: true }),
				);
				assert.ok(items.length >= 5, `only ${items.length} quotes`);
				assert.ok(items.every((q) => /^quo_/.test(q.id)));
				return `${items.length} quotes`;
			},
		},
		{
			name: 'Create (draft) → Send → Approve',
			async run(ctx) {
				for (const op of ['create', 'send', 'approve']) ctx.requireOperation('quote', op);
				const quote = await createQuote(ctx);
				assert.equal(quote.status, 'draft');
				assert.equal(quote.items.length, 1);
				const [sent] = h.expectSuccess(await h.runOnRecord(ctx, 'quote', 'send', quote.id));
				assert.equal(sent.status, 'sent');
				const [approved] = h.expectSuccess(await h.runOnRecord(ctx, 'quote', 'approve', quote.id));
				assert.equal(approved.status, 'approved');
				ctx.state.approvedQuoteId = quote.id;
				return `${quote.number || quote.id}: draft → sent → approved`;
			},
		},
		{
			name: 'sending an approved quote shows the API message (422)',
			async run(ctx) {
				ctx.requireOperation('quote', 'send');
				const id = ctx.state.approvedQuoteId;
				assert.ok(id, 'needs the quote of the previous step');
				const r = await h.runOnRecord(ctx, 'quote', 'send', id);
				return h.refusal(r, /422|invalid_state/i, /approved/);
			},
		},
		{
			name: 'Cancel and Delete a draft quote; Get then gives 404',
			async run(ctx) {
				for (const op of ['create', 'cancel', 'delete', 'get']) ctx.requireOperation('quote', op);
				const quote = await createQuote(ctx);
				const [canceled] = h.expectSuccess(await h.runOnRecord(ctx, 'quote', 'cancel', quote.id));
				assert.equal(canceled.status, 'canceled');
				h.expectSuccess(await h.runOnRecord(ctx, 'quote', 'delete', quote.id));
				h.expectFailure(await h.runOnRecord(ctx, 'quote', 'get', quote.id), /404|not[ _]found/i);
			},
		},
		{
			name: 'a read-only key gets 403 naming quotes.write',
			async run(ctx) {
				ctx.requireOperation('quote', 'create');
				const r = await h.runOperation(
					ctx,
					{
						resource: 'quote',
						operation: 'create',
						contactId: h.byId(await firstContactId(ctx)),
						itemsInput: 'form',
						items: ITEMS,
					},
					{ key: 'readOnly' },
				);
				return h.refusal(r, /403|insufficient_scope/i, /quotes\.write/);
			},
		},
		{
			name: 'Update carries new items and the status "sent" in one PATCH; discount and credit lines are sent as given',
			async run(ctx) {
				ctx.requireOperation('quote', 'update');
				const quote = await createQuote(ctx);
				const lines = [
					{ name: 'Schilderwerk', quantity: 10, unitPrice: 45, vatPercentage: 21 },
					{ name: 'Korting vaste klant', quantity: 1, unitPrice: -50, vatPercentage: 21 },
					{ name: 'Retour verf', quantity: -2, unitPrice: 12.5, vatPercentage: 21 },
				];
				ctx.sandbox.control.clearRequestLog();
				const updateFields = { items: { item: lines }, status: 'sent' };
				const [updated] = h.expectSuccess(
					await h.runOnRecord(ctx, 'quote', 'update', quote.id, { updateFields }),
				);
				assert.equal(updated.status, 'sent');
				assert.equal(updated.subtotal, 375);
				const patches = ctx.sandbox.control.requestLog().filter((r) => r.method === 'PATCH');
				assert.equal(patches.length, 1, `${patches.length} PATCH requests`);
				return `${updated.number}: 3 lines (one discount, one credit) and sent in one request, subtotal ${updated.subtotal}`;
			},
		},
		{
			name: 'strict sandbox: Cancel (a move the spec does not show) is refused by the API, and the node shows its message',
			async run(ctx) {
				ctx.requireOperation('quote', 'cancel');
				const quote = await createQuote(ctx);
				ctx.sandbox.control.setReadings({ strict: true });
				try {
					const r = await h.runOnRecord(ctx, 'quote', 'cancel', quote.id);
					const e = h.expectFailure(r, /422|invalid_state/i, /canceled/);
					// n8n reads an error message containing "canceled" as a cancelled execution (no error workflow)
					assert.equal(r.status, 'error', `the execution ended "${r.status}"`);
					return `"${e.message}"`;
				} finally {
					ctx.sandbox.control.setReadings({ strict: false });
				}
			},
		},
	],
};
