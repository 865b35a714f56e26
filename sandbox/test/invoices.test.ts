import { INVOICE_TRANSITIONS } from '../src/resources/invoices';
import { INVOICE_STATUSES } from '../src/types';
import { startTestSandbox, type TestSandbox } from './helpers';

let t: TestSandbox;
let contactId: string;
beforeAll(async () => {
	t = await startTestSandbox();
});
afterAll(() => t.sandbox.stop());
beforeEach(async () => {
	t.control.reset();
	contactId = (await t.admin('GET', '/contacts')).body.data[1].id;
});

const items = [{ name: 'Appeltaart groot', quantity: 4, unitPrice: 24.95, vatPercentage: 9 }];

async function invoiceIn(status: string): Promise<{ id: string; number: string }> {
	const all = (await t.admin('GET', '/invoices?pageSize=100')).body.data;
	const found = all.find((i: { status: string }) => i.status === status);
	if (found) return found;
	// Walk a fresh draft to the wanted status along allowed moves.
	const created = (await t.admin('POST', '/invoices', { contactId, items })).body.data;
	const path: Record<string, string[]> = { in_collection: ['sent', 'overdue', 'in_collection'] };
	for (const step of path[status] ?? [status])
		await t.admin('PATCH', `/invoices/${created.id}`, { status: step });
	return created;
}

describe('invoices', () => {
	test('seed has invoices in every status with INV-2026-00nn numbers', async () => {
		const { body } = await t.admin('GET', '/invoices?pageSize=100');
		expect(new Set(body.data.map((i: { status: string }) => i.status))).toEqual(
			new Set(INVOICE_STATUSES),
		);
		expect(body.data.map((i: { number: string }) => i.number).slice(0, 2)).toEqual([
			'INV-2026-0001',
			'INV-2026-0002',
		]);
	});

	test('create: draft with totals, issueDate today and dueDate after the payment terms', async () => {
		const res = await t.admin('POST', '/invoices', { contactId, items });
		expect(res.status).toBe(201);
		const invoice = res.body.data;
		expect(invoice).toMatchObject({
			status: 'draft',
			contactId,
			items,
			currency: 'EUR',
			subtotal: 99.8,
			vatTotal: 8.98,
			total: 108.78,
		});
		expect(invoice.id).toMatch(/^inv_/);
		expect(invoice.number).toMatch(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{4}$`));
		expect(invoice.issueDate).toBe(invoice.createdAt.slice(0, 10));
		expect((Date.parse(invoice.dueDate) - Date.parse(invoice.issueDate)) / 86_400_000).toBe(30);
		expect((await t.admin('GET', `/invoices/${invoice.id}`)).body.data).toEqual(invoice);
	});

	test('dueDate can be given (date or timestamp, the date as written is kept)', async () => {
		expect(
			(await t.admin('POST', '/invoices', { contactId, items, dueDate: '2027-02-15' })).body.data
				.dueDate,
		).toBe('2027-02-15');
		expect(
			(
				await t.admin('POST', '/invoices', {
					contactId,
					items,
					dueDate: '2027-02-15T23:30:00+01:00',
				})
			).body.data.dueDate,
		).toBe('2027-02-15');
		const bad = await t.admin('POST', '/invoices', { contactId, items, dueDate: '15-02-2027' });
		expect(bad.body.error).toEqual({
			code: 'invalid_request',
			message: '"dueDate" must be an ISO 8601 date such as "2026-12-31"',
			field: 'dueDate',
		});
	});

	test('invoice numbers use the invoiceNumberPrefix and payment terms of the organization', async () => {
		await t.admin('PATCH', '/organization', {
			invoiceNumberPrefix: 'F',
			defaultPaymentTermsDays: 14,
		});
		const invoice = (await t.admin('POST', '/invoices', { contactId, items })).body.data;
		expect(invoice.number.startsWith('F')).toBe(true);
		expect((Date.parse(invoice.dueDate) - Date.parse(invoice.issueDate)) / 86_400_000).toBe(14);
	});

	test('validation names the field, including the item index', async () => {
		const res = await t.admin('POST', '/invoices', {
			contactId,
			items: [items[0], { name: 'x', quantity: 'two', unitPrice: 1 }],
		});
		expect(res.body.error).toEqual({
			code: 'invalid_request',
			message: 'items[1].quantity must be a number',
			field: 'items[1].quantity',
		});
		expect((await t.admin('POST', '/invoices', { items })).body.error.field).toBe('contactId');
		expect(
			(await t.admin('POST', '/invoices', { contactId: 'ctc_x', items })).body.error.field,
		).toBe('contactId');
	});

	test('creating an invoice emits invoice.created', async () => {
		t.control.clearEvents();
		await t.admin('POST', '/invoices', { contactId, items });
		expect(t.control.events().map((e) => e.type)).toEqual(['invoice.created']);
	});

	test('PATCH status to sent emits invoice.sent; to paid emits invoice.paid', async () => {
		const invoice = (await t.admin('POST', '/invoices', { contactId, items })).body.data;
		t.control.clearEvents();
		expect(
			(await t.admin('PATCH', `/invoices/${invoice.id}`, { status: 'sent' })).body.data.status,
		).toBe('sent');
		expect(
			(await t.admin('PATCH', `/invoices/${invoice.id}`, { status: 'paid' })).body.data.status,
		).toBe('paid');
		const events = t.control.events();
		expect(events.map((e) => e.type)).toEqual(['invoice.sent', 'invoice.paid']);
		expect(events[0].data).toMatchObject({ id: invoice.id, status: 'sent' });
		expect(events[1].data).toMatchObject({ id: invoice.id, status: 'paid' });
	});

	test('"any → sent" and "any → paid" hold for every status that is not final', async () => {
		for (const status of INVOICE_STATUSES) {
			if (status === 'paid' || status === 'written_off') continue;
			for (const target of ['sent', 'paid']) {
				if (status === target) continue;
				expect(INVOICE_TRANSITIONS[status]).toContain(target);
			}
		}
		for (const status of ['viewed', 'overdue', 'in_collection', 'finalized']) {
			const invoice = await invoiceIn(status);
			const res = await t.admin('PATCH', `/invoices/${invoice.id}`, { status: 'paid' });
			expect(res.status).toBe(200);
		}
	});

	test.each([
		[
			'paid',
			'sent',
			'Cannot change invoice status from "paid" to "sent"; "paid" is a final status',
		],
		[
			'written_off',
			'paid',
			'Cannot change invoice status from "written_off" to "paid"; "written_off" is a final status',
		],
		[
			'sent',
			'draft',
			'Cannot change invoice status from "sent" to "draft"; allowed from "sent": "viewed", "paid", "overdue"',
		],
		[
			'draft',
			'overdue',
			'Cannot change invoice status from "draft" to "overdue"; allowed from "draft": "finalized", "sent", "paid"',
		],
		[
			'finalized',
			'written_off',
			'Cannot change invoice status from "finalized" to "written_off"; allowed from "finalized": "sent", "paid"',
		],
	])('%s → %s is refused with 422', async (from, to, message) => {
		const invoice = await invoiceIn(from);
		const res = await t.admin('PATCH', `/invoices/${invoice.id}`, { status: to });
		expect(res.status).toBe(422);
		expect(res.body.error).toEqual({ code: 'invalid_state', message });
	});

	test('a 422 emits nothing and changes nothing', async () => {
		const invoice = await invoiceIn('paid');
		t.control.clearEvents();
		await t.admin('PATCH', `/invoices/${invoice.id}`, { status: 'sent' });
		expect(t.control.events()).toEqual([]);
		expect((await t.admin('GET', `/invoices/${invoice.id}`)).body.data.status).toBe('paid');
	});

	test('an unknown status is 400', async () => {
		const invoice = await invoiceIn('draft');
		const res = await t.admin('PATCH', `/invoices/${invoice.id}`, { status: 'cancelled' });
		expect(res.status).toBe(400);
		expect(res.body.error.field).toBe('status');
	});

	test('content changes only while draft', async () => {
		const invoice = (await t.admin('POST', '/invoices', { contactId, items })).body.data;
		const changed = await t.admin('PATCH', `/invoices/${invoice.id}`, {
			items: [{ name: 'Taart', quantity: 1, unitPrice: 10, vatPercentage: 9 }],
			dueDate: '2027-01-10',
		});
		expect(changed.body.data).toMatchObject({ total: 10.9, dueDate: '2027-01-10' });
		await t.admin('PATCH', `/invoices/${invoice.id}`, { status: 'sent' });
		const refused = await t.admin('PATCH', `/invoices/${invoice.id}`, { dueDate: '2027-02-01' });
		expect(refused.status).toBe(422);
		expect(refused.body.error.message).toBe(
			`Cannot change dueDate of invoice ${invoice.number}: its status is "sent"; content can only change while the invoice is "draft"`,
		);
	});

	test('DELETE only draft invoices', async () => {
		const invoice = (await t.admin('POST', '/invoices', { contactId, items })).body.data;
		expect((await t.admin('DELETE', `/invoices/${invoice.id}`)).body).toEqual({
			data: { id: invoice.id, deleted: true },
		});
		expect((await t.admin('GET', `/invoices/${invoice.id}`)).status).toBe(404);
		const sent = await invoiceIn('sent');
		const res = await t.admin('DELETE', `/invoices/${sent.id}`);
		expect(res.status).toBe(422);
		expect(res.body.error.message).toBe(
			`Cannot delete invoice ${sent.number}: its status is "sent"; only "draft" invoices can be deleted`,
		);
	});
});
