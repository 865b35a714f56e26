import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { byId, jsonOf } from '../harness/engine';
import { API, INVOICE_STATUSES, node, run } from '../harness/actionNode';

const item = { name: 'Speculaas (kilo)', quantity: 25, unitPrice: 14.5, vatPercentage: 9 };
const invoice = {
	id: 'inv_1',
	number: 'INV-2026-0006',
	status: 'draft',
	contactId: 'ctc_1',
	items: [item],
	issueDate: '2026-11-01',
	dueDate: '2026-12-01',
	currency: 'EUR',
	subtotal: 362.5,
	vatTotal: 32.63,
	total: 395.13,
	createdAt: '2026-11-01T09:00:00.000Z',
	updatedAt: '2026-11-01T09:00:00.000Z',
};
const simpleInvoice = {
	id: 'inv_1',
	number: 'INV-2026-0006',
	status: 'draft',
	contactId: 'ctc_1',
	total: 395.13,
	issueDate: '2026-11-01',
	dueDate: '2026-12-01',
};

const onInvoice = (operation: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'invoice',
	operation,
	invoiceId: byId('inv_1'),
	...extra,
});
/** nock body matcher for GET and DELETE: no body at all. */
const noBody = (body: unknown) => body === '';

describe('Create (POST /invoices)', () => {
	test('sends contactId, the items of the form and Due Date as a calendar date', async () => {
		const scope = nock(API)
			.post('/v1/invoices', { contactId: 'ctc_1', items: [item], dueDate: '2026-12-01' })
			.reply(201, { data: invoice });
		const { items } = await run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId('ctc_1'),
			items: { item: [item] },
			additionalFields: { dueDate: '2026-12-01T00:00:00' },
		});
		expect(jsonOf(items)).toEqual([invoice]);
		expect(scope.isDone()).toBe(true);
	});

	test('sends the items of Items (JSON) and leaves Due Date out when not added', async () => {
		const scope = nock(API)
			.post('/v1/invoices', { contactId: 'ctc_1', items: [item] })
			.reply(201, { data: invoice });
		await run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId('ctc_1'),
			itemsInput: 'json',
			itemsJson: JSON.stringify([item]),
		});
		expect(scope.isDone()).toBe(true);
	});

	test('refuses a Due Date that is not a date, sending nothing', async () => {
		const scope = nock(API).post('/v1/invoices').reply(201, { data: invoice });
		const error = await run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId('ctc_1'),
			items: { item: [item] },
			additionalFields: { dueDate: 'next friday' },
		}).catch((e) => e);
		expect(error.message).toBe(
			'Due Date: "next friday" is not a date; use ISO 8601, e.g. 2026-12-31 or 2026-12-31T12:00:00Z [item 0]',
		);
		expect(scope.isDone()).toBe(false);
	});
});

describe('operations on one invoice: method, path, body and output', () => {
	const paid = { ...invoice, status: 'paid' };
	const sent = { ...invoice, status: 'sent' };
	test.each([
		['get', 'GET', noBody, invoice, invoice],
		['delete', 'DELETE', noBody, { id: 'inv_1' }, { deleted: true, id: 'inv_1' }],
		['send', 'PATCH', { status: 'sent' }, sent, sent],
		['markAsPaid', 'PATCH', { status: 'paid' }, paid, paid],
	])('%s: %s /invoices/inv_1 with body %p', async (operation, method, body, data, output) => {
		const scope = nock(API).intercept('/v1/invoices/inv_1', method, body).reply(200, { data });
		const { items } = await run(onInvoice(operation));
		expect(jsonOf(items)).toEqual([output]);
		expect(scope.isDone()).toBe(true);
	});

	test('Get with Simplify keeps id, number, status, contactId, total and the dates', async () => {
		nock(API).get('/v1/invoices/inv_1').reply(200, { data: invoice });
		const { items } = await run(onInvoice('get', { simplify: true }));
		expect(jsonOf(items)).toEqual([simpleInvoice]);
	});

	test('Simplify "false" from an expression keeps the whole record; "yes" is refused before sending', async () => {
		nock(API).get('/v1/invoices/inv_1').reply(200, { data: invoice });
		const { items } = await run(onInvoice('get', { simplify: '={{ "false" }}' }));
		expect(jsonOf(items)).toEqual([invoice]);
		const error = await run(onInvoice('get', { simplify: '={{ "yes" }}' })).catch((e) => e);
		expect(error.message).toBe(
			'Simplify: must be true or false; the expression gave "yes" [item 0]',
		);
	});

	test('a missing invoice gives the 404 with the API message', async () => {
		nock(API)
			.get('/v1/invoices/inv_1')
			.reply(404, { error: { code: 'not_found', message: 'Invoice inv_1 not found' } });
		const error = await run(onInvoice('get')).catch((e) => e);
		expect(error.message).toBe(
			'Invoice inv_1 not found (HTTP 404 not_found, GET /invoices/inv_1) [item 0]',
		);
	});
});

describe('Get Many (GET /invoices)', () => {
	const page = (from: number, count: number) =>
		Array.from({ length: count }, (_, i) => ({ ...invoice, id: `inv_${from + i}` }));

	test('Return All follows meta.hasMore at 100 a page and stops when it is false', async () => {
		const scope = nock(API)
			.get('/v1/invoices')
			.query({ pageSize: '100', page: '1' })
			.reply(200, {
				data: page(1, 100),
				meta: { page: 1, pageSize: 100, total: 130, hasMore: true },
			})
			.get('/v1/invoices')
			.query({ pageSize: '100', page: '2' })
			.reply(200, {
				data: page(101, 30),
				meta: { page: 2, pageSize: 100, total: 130, hasMore: false },
			});
		const { items } = await run({ resource: 'invoice', operation: 'getAll', returnAll: true });
		expect(items).toHaveLength(130);
		expect(items[129].json.id).toBe('inv_130');
		expect(scope.isDone()).toBe(true);
	});

	test('Limit, with Simplify', async () => {
		const scope = nock(API)
			.get('/v1/invoices')
			.query({ pageSize: '2', page: '1' })
			.reply(200, { data: page(1, 2), meta: { page: 1, pageSize: 2, total: 10, hasMore: true } });
		const { items } = await run({
			resource: 'invoice',
			operation: 'getAll',
			limit: 2,
			simplify: true,
		});
		expect(jsonOf(items)).toEqual([simpleInvoice, { ...simpleInvoice, id: 'inv_2' }]);
		expect(scope.isDone()).toBe(true);
	});
});

describe('Update (PATCH /invoices/{id})', () => {
	test('sends only the added fields: Due Date and Items (JSON)', async () => {
		const lines = [item, { name: 'Bezorging', quantity: 1, unitPrice: 7.5 }];
		const scope = nock(API)
			.patch('/v1/invoices/inv_1', { dueDate: '2027-01-15', items: lines })
			.reply(200, { data: invoice });
		const { items } = await run(
			onInvoice('update', {
				updateFields: { dueDate: '2027-01-15T00:00:00', itemsJson: '={{ $json.lines }}' },
			}),
			{ items: [{ json: { lines } }] },
		);
		expect(jsonOf(items)).toEqual([invoice]);
		expect(scope.isDone()).toBe(true);
	});

	test('carries content and a status in one request: a new due date and sent', async () => {
		const scope = nock(API)
			.patch('/v1/invoices/inv_1', { dueDate: '2027-01-15', status: 'sent' })
			.reply(200, { data: { ...invoice, status: 'sent', dueDate: '2027-01-15' } });
		const { items } = await run(
			onInvoice('update', { updateFields: { dueDate: '2027-01-15', status: 'sent' } }),
		);
		expect(items[0].json).toMatchObject({ status: 'sent', dueDate: '2027-01-15' });
		expect(scope.isDone()).toBe(true);
	});

	test('sends only the contact when only Contact was added', async () => {
		const scope = nock(API)
			.patch('/v1/invoices/inv_1', { contactId: 'ctc_9' })
			.reply(200, { data: invoice });
		await run(onInvoice('update', { updateFields: { contactId: byId('ctc_9') } }));
		expect(scope.isDone()).toBe(true);
	});

	test('content of a sent invoice cannot change: the 422 says why', async () => {
		const message =
			'Cannot change dueDate of invoice INV-2026-0006: its status is "sent"; content can only change while the invoice is "draft"';
		const scope = nock(API)
			.patch('/v1/invoices/inv_1', { dueDate: '2027-01-15' })
			.reply(422, { error: { code: 'invalid_state', message } });
		const error = await run(onInvoice('update', { updateFields: { dueDate: '2027-01-15' } })).catch(
			(e) => e,
		);
		expect(scope.isDone()).toBe(true);
		expect(error.message).toBe(
			`${message} (HTTP 422 invalid_state, PATCH /invoices/inv_1) [item 0]`,
		);
	});
});

describe('Update Status (PATCH /invoices/{id} with { status })', () => {
	test.each(INVOICE_STATUSES)('Update Status sends { status: "%s" }', async (status) => {
		const scope = nock(API)
			.patch('/v1/invoices/inv_1', { status })
			.reply(200, { data: { ...invoice, status } });
		const { items } = await run(onInvoice('updateStatus', { status }));
		expect(items[0].json.status).toBe(status);
		expect(scope.isDone()).toBe(true);
	});

	test('Update Status offers every invoice status of the spec, with readable names', () => {
		const field = node.description.properties.find(
			(p) => p.name === 'status' && p.displayOptions?.show?.resource?.includes('invoice'),
		);
		expect(field?.options).toEqual([
			{ name: 'Draft', value: 'draft' },
			{ name: 'Finalized', value: 'finalized' },
			{ name: 'In Collection', value: 'in_collection' },
			{ name: 'Overdue', value: 'overdue' },
			{ name: 'Paid', value: 'paid' },
			{ name: 'Sent', value: 'sent' },
			{ name: 'Viewed', value: 'viewed' },
			{ name: 'Written Off', value: 'written_off' },
		]);
	});

	test('a refused move (paid is final) gives the 422 naming the move', async () => {
		const message = 'Cannot change invoice status from "paid" to "sent"; "paid" is a final status';
		nock(API)
			.patch('/v1/invoices/inv_1', { status: 'sent' })
			.reply(422, { error: { code: 'invalid_state', message } });
		const error = await run(onInvoice('send')).catch((e) => e);
		expect(error.message).toBe(
			`${message} (HTTP 422 invalid_state, PATCH /invoices/inv_1) [item 0]`,
		);
		expect(error.description).toMatch(/from "paid" to "sent"/);
	});
});

test('continue on fail: one of two invoices fails, the other is still marked as paid', async () => {
	const message =
		'Cannot change invoice status from "written_off" to "paid"; "written_off" is a final status';
	nock(API)
		.patch('/v1/invoices/inv_1', { status: 'paid' })
		.reply(422, { error: { code: 'invalid_state', message } })
		.patch('/v1/invoices/inv_2', { status: 'paid' })
		.reply(200, { data: { ...invoice, id: 'inv_2', status: 'paid' } });
	const { items } = await run(onInvoice('markAsPaid', { invoiceId: byId('={{ $json.id }}') }), {
		items: [{ json: { id: 'inv_2' } }, { json: { id: 'inv_1' } }],
		continueOnFail: true,
	});
	expect(items).toHaveLength(2);
	expect(items[0].json).toEqual({ ...invoice, id: 'inv_2', status: 'paid' });
	expect(items[1].error?.message).toBe(
		`${message} (HTTP 422 invalid_state, PATCH /invoices/inv_1) [item 1]`,
	);
});
