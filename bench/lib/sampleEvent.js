'use strict';
/** The event record the trigger benchmarks deliver: an invoice.paid of usual size, two lines. */
const SAMPLE_INVOICE = {
	id: 'inv_bench000000001',
	number: 'INV-2026-0001',
	status: 'paid',
	contactId: 'ctc_bench000000001',
	items: [
		{ name: 'Volkorenbrood', quantity: 40, unitPrice: 3.25, vatPercentage: 9, total: 130 },
		{ name: 'Bezorging', quantity: 1, unitPrice: 15, vatPercentage: 21, total: 15 },
	],
	issueDate: '2026-11-01',
	dueDate: '2026-12-01',
	currency: 'EUR',
	subtotal: 145,
	vatTotal: 14.85,
	total: 159.85,
	createdAt: '2026-11-01T09:00:00.000Z',
	updatedAt: '2026-11-21T10:00:00.000Z',
};

module.exports = { SAMPLE_INVOICE };
