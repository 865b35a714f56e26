// Invoices through the Business Ops node in real n8n: Return All over more than 250 records, the
// draft → sent → paid life cycle (with the API's events), a 422 shown to the user, a missing scope.
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

const TOTAL = 255;
const ITEMS = { item: [{ name: 'Roggebrood', quantity: 40, unitPrice: 4.1, vatPercentage: 9 }] };

/** A draft invoice of ITEMS for the sandbox's first contact, made by the node (a one-element array). */
async function createDraft(ctx) {
	const contactId = await h.sandboxFirstId(ctx, 'contacts');
	const r = await h.runOperation(ctx, {
		resource: 'invoice',
		operation: 'create',
		contactId: h.byId(contactId),
		itemsInput: 'form',
		items: ITEMS,
	});
	return h.expectSuccess(r);
}

module.exports = {
	area: 'invoices',
	steps: [
		h.returnAllStep('invoice', TOTAL, 'invoices'),
		{
			name: 'Create (draft) → Send → Mark as Paid emits invoice.sent and invoice.paid',
			async run(ctx) {
				for (const op of ['create', 'send', 'markAsPaid']) ctx.requireOperation('invoice', op);
				const [invoice] = await createDraft(ctx);
				assert.equal(invoice.status, 'draft');
				ctx.sandbox.control.clearEvents();
				const [sent] = h.expectSuccess(await h.runOnRecord(ctx, 'invoice', 'send', invoice.id));
				assert.equal(sent.status, 'sent');
				const [paid] = h.expectSuccess(
					await h.runOnRecord(ctx, 'invoice', 'markAsPaid', invoice.id),
				);
				assert.equal(paid.status, 'paid');
				const events = ctx.sandbox.control.events().map((e) => e.type);
				assert.ok(
					events.includes('invoice.sent') && events.includes('invoice.paid'),
					`events: ${events.join(', ')}`,
				);
				ctx.state.paidInvoiceId = invoice.id;
				return `${invoice.number || invoice.id}: draft → sent → paid; events ${events.join(', ')}`;
			},
		},
		{
			name: 'moving a paid invoice back to draft shows the API message (422)',
			async run(ctx) {
				ctx.requireOperation('invoice', 'updateStatus');
				const id = ctx.state.paidInvoiceId;
				assert.ok(id, 'needs the invoice of the previous step');
				const r = await h.runOnRecord(ctx, 'invoice', 'updateStatus', id, { status: 'draft' });
				return h.refusal(r, /422|invalid_state/i, /paid/);
			},
		},
		{
			name: 'a contacts-only key gets 403 naming invoices.read',
			async run(ctx) {
				ctx.requireOperation('invoice', 'getAll');
				const r = await h.runGetMany(ctx, 'invoice', 5, { key: 'contactsOnly' });
				return h.refusal(r, /403|insufficient_scope/i, /invoices\.read/);
			},
		},
		{
			name: 'Update carries a new Due Date and the status "sent" in one PATCH, which emits invoice.sent',
			async run(ctx) {
				ctx.requireOperation('invoice', 'update');
				const [draft] = await createDraft(ctx);
				ctx.sandbox.control.clearEvents();
				const updateFields = { dueDate: '2027-03-31T00:00:00', status: 'sent' };
				const [updated] = h.expectSuccess(
					await h.runOnRecord(ctx, 'invoice', 'update', draft.id, { updateFields }),
				);
				assert.equal(updated.status, 'sent');
				assert.equal(updated.dueDate, '2027-03-31');
				const events = ctx.sandbox.control
					.events()
					.filter((e) => e.data && e.data.id === draft.id)
					.map((e) => e.type);
				assert.deepEqual(events, ['invoice.sent']);
				return `${updated.number}: due ${updated.dueDate} and sent in one request`;
			},
		},
	],
};
