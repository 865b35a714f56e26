import { startTestSandbox, type TestSandbox } from './helpers';

let t: TestSandbox;
let contactId: string;
beforeAll(async () => {
	t = await startTestSandbox();
});
afterAll(() => t.sandbox.stop());
beforeEach(async () => {
	t.control.reset();
	contactId = (await t.admin('GET', '/contacts')).body.data[0].id;
});

const year = new Date().getUTCFullYear();
const items = [
	{ name: 'Desembrood heel', quantity: 3, unitPrice: 5.25, vatPercentage: 9 },
	{ name: 'Bezorging', quantity: 1, unitPrice: 7.5, vatPercentage: 21 },
];

async function draft(): Promise<{ id: string; number: string }> {
	const res = await t.admin('POST', '/quotes', { contactId, items });
	expect(res.status).toBe(201);
	return res.body.data;
}

async function quoteIn(status: string): Promise<{ id: string; number: string; status: string }> {
	const all = (await t.admin('GET', '/quotes?pageSize=100')).body.data;
	return all.find((q: { status: string }) => q.status === status);
}

describe('quotes', () => {
	test('seed has quotes in every status with OFF-2026-000n numbers', async () => {
		const { body } = await t.admin('GET', '/quotes?pageSize=100');
		expect(new Set(body.data.map((q: { status: string }) => q.status))).toEqual(
			new Set(['draft', 'sent', 'approved', 'canceled']),
		);
		expect(body.data[0].number).toBe('OFF-2026-0001');
		expect(body.data[0].id).toMatch(/^quo_/);
	});

	test('create: a draft with totals from the items, currency and a number', async () => {
		const res = await t.admin('POST', '/quotes', {
			contactId,
			items,
			validUntil: '2027-01-31T12:00:00Z',
		});
		expect(res.status).toBe(201);
		// 3 × 5.25 = 15.75 (+9% = 1.4175 → 1.42); 7.50 (+21% = 1.575 → 1.58)
		expect(res.body.data).toMatchObject({
			status: 'draft',
			contactId,
			items,
			validUntil: '2027-01-31T12:00:00.000Z',
			currency: 'EUR',
			subtotal: 23.25,
			vatTotal: 3,
			total: 26.25,
		});
		expect(res.body.data.number).toMatch(new RegExp(`^OFF-${year}-\\d{4}$`));
		expect((await t.admin('GET', `/quotes/${res.body.data.id}`)).body.data).toEqual(res.body.data);
	});

	test('numbers follow the sequence and the quoteNumberPrefix', async () => {
		const first = await draft();
		const second = await draft();
		expect(Number(second.number.slice(-4))).toBe(Number(first.number.slice(-4)) + 1);
		await t.admin('PATCH', '/organization', { quoteNumberPrefix: 'Q' });
		expect((await draft()).number).toMatch(new RegExp(`^Q${year}-\\d{4}$`));
	});

	test('a line without vatPercentage takes the organization default; validUntil defaults to 30 days', async () => {
		const res = await t.admin('POST', '/quotes', {
			contactId,
			items: [{ name: 'Advies', quantity: 2, unitPrice: 100 }],
		});
		expect(res.body.data.items[0].vatPercentage).toBe(21);
		expect(res.body.data.total).toBe(242);
		const days =
			(Date.parse(res.body.data.validUntil) - Date.parse(res.body.data.createdAt)) / 86_400_000;
		expect(days).toBe(30);
	});

	test('rounding to cents', async () => {
		const res = await t.admin('POST', '/quotes', {
			contactId,
			items: [{ name: 'x', quantity: 3, unitPrice: 0.335, vatPercentage: 21 }],
		});
		expect(res.body.data).toMatchObject({ subtotal: 1.01, vatTotal: 0.21, total: 1.22 });
	});

	test.each([
		[{ items }, 'contactId', '"contactId" is required'],
		[
			{ contactId: 'ctc_nope', items },
			'contactId',
			'"contactId" must be the id of a contact of this organization; "ctc_nope" is not',
		],
		[{ contactId: 'C' }, 'items', '"items" is required'],
		[
			{ contactId: 'C', items: [] },
			'items',
			'"items" must be a non-empty array of at most 200 items',
		],
		[
			{ contactId: 'C', items: 'x' },
			'items',
			'"items" must be a non-empty array of at most 200 items',
		],
		[{ contactId: 'C', items: ['x'] }, 'items[0]', 'items[0] must be an object'],
		[
			{ contactId: 'C', items: [items[0], items[1], { ...items[0], quantity: null }] },
			'items[2].quantity',
			'items[2].quantity must be a number',
		],
		[
			{ contactId: 'C', items: [{ ...items[0], quantity: '3' }] },
			'items[0].quantity',
			'items[0].quantity must be a number',
		],
		[
			{ contactId: 'C', items: [{ ...items[0], name: '' }] },
			'items[0].name',
			'items[0].name must be a non-empty string of at most 200 characters',
		],
		[
			{ contactId: 'C', items: [{ quantity: 1, unitPrice: 1 }] },
			'items[0].name',
			'items[0].name is required',
		],
		[
			{ contactId: 'C', items: [{ ...items[0], unitPrice: '1' }] },
			'items[0].unitPrice',
			'items[0].unitPrice must be a number',
		],
		[
			{ contactId: 'C', items: [{ ...items[0], vatPercentage: 101 }] },
			'items[0].vatPercentage',
			'items[0].vatPercentage must be a number from 0 to 100',
		],
		[
			{ contactId: 'C', items: [{ ...items[0], discount: 5 }] },
			'items[0].discount',
			'items[0].discount is not a known field in items[0]; known fields: name, quantity, unitPrice, vatPercentage',
		],
		[
			{ contactId: 'C', items, validUntil: 'next week' },
			'validUntil',
			'"validUntil" must be an ISO 8601 timestamp such as "2026-12-31T23:59:59Z" (or a date "2026-12-31")',
		],
		[
			{ contactId: 'C', items, validUntil: '2026-02-30' },
			'validUntil',
			'"validUntil" must be an ISO 8601 timestamp such as "2026-12-31T23:59:59Z" (or a date "2026-12-31")',
		],
		[
			{ contactId: 'C', items, status: 'sent' },
			'status',
			'"status" is not a known field; known fields: contactId, items, validUntil',
		],
	])('invalid create %j names %s', async (body, fieldName, message) => {
		const payload = { ...body } as Record<string, unknown>;
		if (payload.contactId === 'C') payload.contactId = contactId;
		const res = await t.admin('POST', '/quotes', payload);
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({ code: 'invalid_request', message, field: fieldName });
	});

	test('validUntil accepts a date and offsets, stored as UTC', async () => {
		const dateOnly = await t.admin('POST', '/quotes', {
			contactId,
			items,
			validUntil: '2027-03-01',
		});
		expect(dateOnly.body.data.validUntil).toBe('2027-03-01T00:00:00.000Z');
		const offset = await t.admin('POST', '/quotes', {
			contactId,
			items,
			validUntil: '2027-03-01T10:00:00+01:00',
		});
		expect(offset.body.data.validUntil).toBe('2027-03-01T09:00:00.000Z');
	});

	test('draft → sent → approved, with quote.sent and quote.approved events', async () => {
		const quote = await draft();
		t.control.clearEvents();
		const sent = await t.admin('PATCH', `/quotes/${quote.id}`, { status: 'sent' });
		expect(sent.status).toBe(200);
		expect(sent.body.data.status).toBe('sent');
		const approved = await t.admin('PATCH', `/quotes/${quote.id}`, { status: 'approved' });
		expect(approved.body.data.status).toBe('approved');
		expect(t.control.events().map((e) => e.type)).toEqual(['quote.sent', 'quote.approved']);
		expect(t.control.events()[1].data).toMatchObject({ id: quote.id, status: 'approved' });
	});

	test('creating a quote emits quote.created with the record', async () => {
		t.control.clearEvents();
		const quote = await draft();
		const events = t.control.events();
		expect(events.map((e) => e.type)).toEqual(['quote.created']);
		expect(events[0].data).toMatchObject({ id: quote.id, status: 'draft' });
		expect(events[0].id).toMatch(/^evt_/);
	});

	test('draft → canceled and sent → canceled are allowed', async () => {
		const a = await draft();
		expect(
			(await t.admin('PATCH', `/quotes/${a.id}`, { status: 'canceled' })).body.data.status,
		).toBe('canceled');
		const b = await draft();
		await t.admin('PATCH', `/quotes/${b.id}`, { status: 'sent' });
		expect(
			(await t.admin('PATCH', `/quotes/${b.id}`, { status: 'canceled' })).body.data.status,
		).toBe('canceled');
	});

	test.each([
		[
			'draft',
			'approved',
			'Cannot change quote status from "draft" to "approved"; allowed from "draft": "sent", "canceled"',
		],
		[
			'sent',
			'draft',
			'Cannot change quote status from "sent" to "draft"; allowed from "sent": "approved", "canceled"',
		],
		[
			'approved',
			'sent',
			'Cannot change quote status from "approved" to "sent"; "approved" is a final status',
		],
		[
			'approved',
			'canceled',
			'Cannot change quote status from "approved" to "canceled"; "approved" is a final status',
		],
		[
			'canceled',
			'draft',
			'Cannot change quote status from "canceled" to "draft"; "canceled" is a final status',
		],
		[
			'canceled',
			'sent',
			'Cannot change quote status from "canceled" to "sent"; "canceled" is a final status',
		],
	])('%s → %s is refused with 422 invalid_state', async (from, to, message) => {
		const quote = await quoteIn(from);
		const res = await t.admin('PATCH', `/quotes/${quote.id}`, { status: to });
		expect(res.status).toBe(422);
		expect(res.body.error).toEqual({ code: 'invalid_state', message });
		expect((await t.admin('GET', `/quotes/${quote.id}`)).body.data.status).toBe(from);
	});

	test('setting the current status again is a no-op without an event', async () => {
		const quote = await quoteIn('sent');
		t.control.clearEvents();
		expect((await t.admin('PATCH', `/quotes/${quote.id}`, { status: 'sent' })).status).toBe(200);
		expect(t.control.events()).toEqual([]);
	});

	test('an unknown status is 400', async () => {
		const quote = await draft();
		const res = await t.admin('PATCH', `/quotes/${quote.id}`, { status: 'accepted' });
		expect(res.status).toBe(400);
		expect(res.body.error.message).toBe(
			'"status" must be one of "draft", "sent", "approved", "canceled"; got "accepted"',
		);
	});

	test('content changes while draft recompute the totals', async () => {
		const quote = await draft();
		const res = await t.admin('PATCH', `/quotes/${quote.id}`, {
			items: [{ name: 'Taart', quantity: 1, unitPrice: 40, vatPercentage: 9 }],
			validUntil: '2027-01-01',
		});
		expect(res.body.data).toMatchObject({
			subtotal: 40,
			vatTotal: 3.6,
			total: 43.6,
			validUntil: '2027-01-01T00:00:00.000Z',
		});
	});

	test('content cannot change once sent (422), and not together with a status move either', async () => {
		const quote = await quoteIn('sent');
		const res = await t.admin('PATCH', `/quotes/${quote.id}`, { items });
		expect(res.status).toBe(422);
		expect(res.body.error.message).toBe(
			`Cannot change items of quote ${quote.number}: its status is "sent"; content can only change while the quote is "draft"`,
		);
		expect(
			(await t.admin('PATCH', `/quotes/${quote.id}`, { items, status: 'approved' })).status,
		).toBe(422);
		expect((await t.admin('GET', `/quotes/${quote.id}`)).body.data.status).toBe('sent');
	});

	test('a draft can change content and move to sent in one PATCH', async () => {
		const quote = await draft();
		const res = await t.admin('PATCH', `/quotes/${quote.id}`, {
			validUntil: '2027-05-01',
			status: 'sent',
		});
		expect(res.body.data).toMatchObject({ status: 'sent', validUntil: '2027-05-01T00:00:00.000Z' });
	});

	test('PATCH contactId must be a contact of the organization', async () => {
		const quote = await draft();
		const res = await t.admin('PATCH', `/quotes/${quote.id}`, { contactId: 'ctc_nope' });
		expect(res.status).toBe(400);
		expect(res.body.error.field).toBe('contactId');
	});

	test('DELETE only draft or canceled quotes', async () => {
		const quote = await draft();
		expect((await t.admin('DELETE', `/quotes/${quote.id}`)).body).toEqual({
			data: { id: quote.id, deleted: true },
		});
		expect((await t.admin('GET', `/quotes/${quote.id}`)).status).toBe(404);
		const canceled = await quoteIn('canceled');
		expect((await t.admin('DELETE', `/quotes/${canceled.id}`)).status).toBe(200);
		for (const status of ['sent', 'approved']) {
			const quote = await quoteIn(status);
			const res = await t.admin('DELETE', `/quotes/${quote.id}`);
			expect(res.status).toBe(422);
			expect(res.body.error.message).toBe(
				`Cannot delete quote ${quote.number}: its status is "${status}"; only "draft" or "canceled" quotes can be deleted`,
			);
		}
		expect((await t.admin('DELETE', '/quotes/quo_nope')).status).toBe(404);
	});
});
