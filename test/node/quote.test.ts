import nock from 'nock';
import { DateTime } from 'luxon';
import type { IDataObject, IExecuteSingleFunctions, INodeParameters } from 'n8n-workflow';

import { dateRule, type ApiDate } from '../../nodes/BusinessOps/shared/dates';
import { byId, jsonOf, TEST_API_KEY } from '../harness/engine';
import { API, run } from '../harness/actionNode';

/** What a date field sends for `value` in `timeZone` (undefined: refused). */
function apiDateOf(value: unknown, timeZone: string, as: ApiDate) {
	const ctx = { getTimezone: () => timeZone } as IExecuteSingleFunctions;
	const typed = dateRule(as)(ctx, value);
	return 'value' in typed ? typed.value : undefined;
}

const item = { name: 'Bruidstaart drie lagen', quantity: 1, unitPrice: 485, vatPercentage: 9 };
const quote = {
	id: 'quo_1',
	number: 'OFF-2026-0006',
	status: 'draft',
	contactId: 'ctc_1',
	items: [item],
	validUntil: '2026-12-31T12:00:00.000Z',
	currency: 'EUR',
	subtotal: 485,
	vatTotal: 43.65,
	total: 528.65,
	createdAt: '2026-11-01T09:00:00.000Z',
	updatedAt: '2026-11-01T09:00:00.000Z',
};
const simpleQuote = {
	id: 'quo_1',
	number: 'OFF-2026-0006',
	status: 'draft',
	contactId: 'ctc_1',
	total: 528.65,
	validUntil: '2026-12-31T12:00:00.000Z',
	createdAt: '2026-11-01T09:00:00.000Z',
};

const onQuote = (operation: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'quote',
	operation,
	quoteId: byId('quo_1'),
	...extra,
});
const createParams = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'quote',
	operation: 'create',
	contactId: byId('ctc_1'),
	items: { item: [item] },
	...extra,
});

/** nock body matcher for GET and DELETE: no body at all. */
const noBody = (body: unknown) => body === '';

describe('Create (POST /quotes)', () => {
	test('sends contactId and the items of the form with the bearer key, returns the quote', async () => {
		const scope = nock(API, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.post('/v1/quotes', { contactId: 'ctc_1', items: [item] })
			.reply(201, { data: quote });
		const { items } = await run(createParams());
		expect(jsonOf(items)).toEqual([quote]);
		expect(scope.isDone()).toBe(true);
	});

	test('sends Valid Until with a zone as a UTC timestamp', async () => {
		const scope = nock(API)
			.post('/v1/quotes', {
				contactId: 'ctc_1',
				items: [item],
				validUntil: '2026-12-31T10:00:00.000Z',
			})
			.reply(201, { data: quote });
		await run(createParams({ additionalFields: { validUntil: '2026-12-31T12:00:00+02:00' } }));
		expect(scope.isDone()).toBe(true);
	});

	test("reads a Valid Until without a zone (n8n's date picker) in the workflow's time zone", async () => {
		let sent: IDataObject = {};
		nock(API)
			.post('/v1/quotes', (body) => ((sent = body), true))
			.reply(201, { data: quote });
		const { context } = await run(
			createParams({ additionalFields: { validUntil: '2026-12-31T00:00:00' } }),
		);
		const timeZone = context.getTimezone();
		expect(sent).toEqual({
			contactId: 'ctc_1',
			items: [item],
			validUntil: apiDateOf('2026-12-31T00:00:00', timeZone, 'utcTimestamp'),
		});
		expect(sent.validUntil).toMatch(/^2026-12-3[01]T\d{2}:00:00\.000Z$/);
	});

	test('refuses a Valid Until that is not an ISO date, sending nothing', async () => {
		const scope = nock(API).post('/v1/quotes').reply(201, { data: quote });
		const error = await run(createParams({ additionalFields: { validUntil: '31-12-2026' } })).catch(
			(e) => e,
		);
		expect(error.message).toBe(
			'Valid Until: "31-12-2026" is not a date; use ISO 8601, e.g. 2026-12-31 or 2026-12-31T12:00:00Z [item 0]',
		);
		expect(scope.isDone()).toBe(false);
	});

	test('refuses a missing contact, sending nothing', async () => {
		const scope = nock(API).post('/v1/quotes').reply(201, { data: quote });
		const error = await run(createParams({ contactId: byId('') })).catch((e) => e);
		expect(error.message).toBe('Contact: no ID was given [item 0]');
		expect(scope.isDone()).toBe(false);
	});

	test('names the first refused field of an item: the steps after a refusal do not run', async () => {
		const scope = nock(API).post('/v1/quotes').reply(201, { data: quote });
		const params = createParams({
			contactId: byId(''),
			items: { item: [{ ...item, vatPercentage: 101 }] },
			additionalFields: { validUntil: '31-12-2026' },
		});
		const error = await run(params).catch((e) => e);
		expect(error.message).toBe('Contact: no ID was given [item 0]');
		expect(scope.isDone()).toBe(false);
	});
});

describe('Get (GET /quotes/{id})', () => {
	test('returns the whole quote', async () => {
		const scope = nock(API).get('/v1/quotes/quo_1', noBody).reply(200, { data: quote });
		const { items } = await run(onQuote('get'));
		expect(jsonOf(items)).toEqual([quote]);
		expect(scope.isDone()).toBe(true);
	});

	test('Simplify keeps id, number, status, contactId, total and the dates', async () => {
		nock(API).get('/v1/quotes/quo_1').reply(200, { data: quote });
		const { items } = await run(onQuote('get', { simplify: true }));
		expect(jsonOf(items)).toEqual([simpleQuote]);
	});

	test('refuses an ID that is not one URL segment, sending nothing', async () => {
		const error = await run(onQuote('get', { quoteId: byId('quo_1/../x') })).catch((e) => e);
		expect(error.message).toBe(
			'Quote: "quo_1/../x" is not an ID (letters, digits, "_", "-", "." and ":" only) [item 0]',
		);
		expect(nock.pendingMocks()).toEqual([]);
	});
});

describe('Get Many (GET /quotes)', () => {
	const page = (from: number, count: number) =>
		Array.from({ length: count }, (_, i) => ({ ...quote, id: `quo_${from + i}` }));
	const list = (data: IDataObject[], pageNo: number, hasMore: boolean) => ({
		data,
		meta: { page: pageNo, pageSize: 100, total: 205, hasMore },
	});

	test('Return All asks 100 a page and follows meta.hasMore until it is false', async () => {
		const scope = nock(API)
			.get('/v1/quotes', noBody)
			.query({ pageSize: '100', page: '1' })
			.reply(200, list(page(1, 100), 1, true))
			.get('/v1/quotes', noBody)
			.query({ pageSize: '100', page: '2' })
			.reply(200, list(page(101, 100), 2, true))
			.get('/v1/quotes', noBody)
			.query({ pageSize: '100', page: '3' })
			.reply(200, list(page(201, 5), 3, false));
		const { items } = await run({ resource: 'quote', operation: 'getAll', returnAll: true });
		expect(items).toHaveLength(205);
		expect(items[0].json.id).toBe('quo_1');
		expect(items[204].json.id).toBe('quo_205');
		expect(scope.isDone()).toBe(true);
	});

	test('Limit asks for no more than it needs in one page', async () => {
		const scope = nock(API)
			.get('/v1/quotes')
			.query({ pageSize: '3', page: '1' })
			.reply(200, { data: page(1, 3), meta: { page: 1, pageSize: 3, total: 8, hasMore: true } });
		const { items } = await run({
			resource: 'quote',
			operation: 'getAll',
			returnAll: false,
			limit: 3,
		});
		expect(items.map((i) => i.json.id)).toEqual(['quo_1', 'quo_2', 'quo_3']);
		expect(scope.isDone()).toBe(true);
	});

	test('a Limit above 100 pages at 100 and stops once it has enough', async () => {
		const scope = nock(API)
			.get('/v1/quotes')
			.query({ pageSize: '100', page: '1' })
			.reply(200, list(page(1, 100), 1, true))
			.get('/v1/quotes')
			.query({ pageSize: '100', page: '2' })
			.reply(200, list(page(101, 100), 2, true));
		const { items } = await run({
			resource: 'quote',
			operation: 'getAll',
			returnAll: false,
			limit: 150,
		});
		expect(items).toHaveLength(150);
		expect(items[149].json.id).toBe('quo_150');
		expect(scope.isDone()).toBe(true);
	});

	test('Simplify applies to every quote of the list', async () => {
		nock(API)
			.get('/v1/quotes')
			.query({ pageSize: '50', page: '1' })
			.reply(200, {
				data: [quote, { ...quote, id: 'quo_2' }],
				meta: { page: 1, pageSize: 50, total: 2, hasMore: false },
			});
		const { items } = await run({ resource: 'quote', operation: 'getAll', simplify: true });
		expect(jsonOf(items)).toEqual([simpleQuote, { ...simpleQuote, id: 'quo_2' }]);
	});
});

describe('Update (PATCH /quotes/{id})', () => {
	test('sends only the fields that were added', async () => {
		const scope = nock(API)
			.patch('/v1/quotes/quo_1', { contactId: 'ctc_2', validUntil: '2027-01-31T12:00:00.000Z' })
			.reply(200, { data: { ...quote, contactId: 'ctc_2' } });
		const { items } = await run(
			onQuote('update', {
				updateFields: { contactId: byId('ctc_2'), validUntil: '2027-01-31T12:00:00Z' },
			}),
		);
		expect(items[0].json.contactId).toBe('ctc_2');
		expect(scope.isDone()).toBe(true);
	});

	test('sends the items of the form when Items was added', async () => {
		const lines = [item, { name: 'Proeverij', quantity: 1, unitPrice: 35, vatPercentage: 21 }];
		const scope = nock(API).patch('/v1/quotes/quo_1', { items: lines }).reply(200, { data: quote });
		await run(onQuote('update', { updateFields: { items: { item: lines } } }));
		expect(scope.isDone()).toBe(true);
	});

	test('carries content and a status in one request (spec: "content changes and/or a status")', async () => {
		const lines = [item];
		const scope = nock(API)
			.patch('/v1/quotes/quo_1', { items: lines, status: 'sent' })
			.reply(200, { data: { ...quote, status: 'sent' } });
		const { items } = await run(
			onQuote('update', { updateFields: { items: { item: lines }, status: 'sent' } }),
		);
		expect(items[0].json.status).toBe('sent');
		expect(scope.isDone()).toBe(true);
	});

	test('a status the list does not offer can come from an expression, and is sent as given', async () => {
		const scope = nock(API)
			.patch('/v1/quotes/quo_1', { status: 'expired' })
			.reply(200, { data: quote });
		await run(onQuote('update', { updateFields: { status: '={{ "expired" }}' } }));
		expect(scope.isDone()).toBe(true);
	});

	test('refuses an Update with no field to change, sending nothing', async () => {
		const scope = nock(API).patch('/v1/quotes/quo_1').reply(200, { data: quote });
		const error = await run(onQuote('update', { updateFields: {} })).catch((e) => e);
		expect(error.message).toBe(
			'Update Fields: no field to change was added; add at least one [item 0]',
		);
		expect(scope.isDone()).toBe(false);
	});

	test('refuses a contact ID that is not an ID, sending nothing', async () => {
		const scope = nock(API).patch('/v1/quotes/quo_1').reply(200, { data: quote });
		const error = await run(
			onQuote('update', { updateFields: { contactId: byId('ctc 2') } }),
		).catch((e) => e);
		expect(error.message).toBe(
			'Contact: "ctc 2" is not an ID (letters, digits, "_", "-", "." and ":" only) [item 0]',
		);
		expect(scope.isDone()).toBe(false);
	});
});

describe('Delete (DELETE /quotes/{id})', () => {
	test('answers deleted: true with the ID', async () => {
		const scope = nock(API)
			.delete('/v1/quotes/quo_1', noBody)
			.reply(200, { data: { id: 'quo_1' } });
		const { items } = await run(onQuote('delete'));
		expect(jsonOf(items)).toEqual([{ deleted: true, id: 'quo_1' }]);
		expect(scope.isDone()).toBe(true);
	});

	test('a sent quote cannot be deleted: the 422 names the status', async () => {
		const message =
			'Cannot delete quote OFF-2026-0003: its status is "sent"; only "draft" or "canceled" quotes can be deleted';
		nock(API)
			.delete('/v1/quotes/quo_1')
			.reply(422, { error: { code: 'invalid_state', message } });
		const error = await run(onQuote('delete')).catch((e) => e);
		expect(error.message).toBe(
			`${asShown(message)} (HTTP 422 invalid_state, DELETE /quotes/quo_1) [item 0]`,
		);
		expect(error.description).toContain(message);
	});

	test('an API message naming the status "canceled" is not read by n8n as a cancelled execution', async () => {
		const message =
			'Cannot change quote status from "draft" to "canceled"; allowed from "draft": "sent"';
		nock(API)
			.patch('/v1/quotes/quo_1', { status: 'canceled' })
			.reply(422, { error: { code: 'invalid_state', message } });
		const error = await run(onQuote('cancel')).catch((e) => e);
		// n8n-core's WorkflowExecute marks an execution canceled when the error message contains "canceled"
		expect(error.message).not.toContain('canceled');
		expect(error.message).toBe(
			'Cannot change quote status from "draft" to "cancelled"; allowed from "draft": "sent" (HTTP 422 invalid_state, PATCH /quotes/quo_1) [item 0]',
		);
		expect(error.description).toContain(message);
	});
});

/** The API's message as the error shows it: "canceled" spelled so that n8n does not read a cancellation. */
const asShown = (message: string) => message.replace(/canceled/g, 'cancelled');

describe('status operations (PATCH /quotes/{id} with { status })', () => {
	test.each([
		['send', 'sent'],
		['approve', 'approved'],
		['cancel', 'canceled'],
	])('%s sends { status: "%s" } and returns the quote', async (operation, status) => {
		const scope = nock(API)
			.patch('/v1/quotes/quo_1', { status })
			.reply(200, { data: { ...quote, status } });
		const { items } = await run(onQuote(operation));
		expect(jsonOf(items)).toEqual([{ ...quote, status }]);
		expect(scope.isDone()).toBe(true);
	});

	test('Approve on a draft quote: the 422 error says which move was refused', async () => {
		const message =
			'Cannot change quote status from "draft" to "approved"; allowed from "draft": "sent", "canceled"';
		const scope = nock(API)
			.patch('/v1/quotes/quo_1', { status: 'approved' })
			.reply(422, { error: { code: 'invalid_state', message } });
		const error = await run(onQuote('approve')).catch((e) => e);
		expect(scope.isDone()).toBe(true);
		expect(error.message).toBe(
			`${asShown(message)} (HTTP 422 invalid_state, PATCH /quotes/quo_1) [item 0]`,
		);
		expect(error.httpCode).toBe('422');
		expect(error.description).toMatch(/from "draft" to "approved".*current status does not allow/);
	});
});

describe('continue on fail', () => {
	test('two input items, one with a bad quantity: the other is still created', async () => {
		const scope = nock(API)
			.post('/v1/quotes', { contactId: 'ctc_1', items: [{ ...item, quantity: 2 }] })
			.reply(201, { data: { ...quote, items: [{ ...item, quantity: 2 }] } });
		const { items } = await run(
			createParams({ items: { item: [{ ...item, quantity: '={{ $json.quantity }}' }] } }),
			{ items: [{ json: { quantity: 2 } }, { json: { quantity: '2,5' } }], continueOnFail: true },
		);
		expect(scope.isDone()).toBe(true);
		expect(items).toHaveLength(2);
		expect(items[0].json.items).toEqual([{ ...item, quantity: 2 }]);
		const message =
			'Items: line 1 "quantity" must be a number; got "2,5" (use a dot for decimals) [item 1]';
		// the error item is paired with its input item (n8n gives the regular output { error } alone)
		expect(items[1].json).toEqual({ error: message });
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(items[1].error?.message).toBe(message);
	});

	test('two input items, the API refuses one: the other result still comes out', async () => {
		const message =
			'Cannot change quote status from "draft" to "approved"; allowed from "draft": "sent", "canceled"';
		nock(API)
			.patch('/v1/quotes/quo_1', { status: 'approved' })
			.reply(200, { data: { ...quote, status: 'approved' } })
			.patch('/v1/quotes/quo_2', { status: 'approved' })
			.reply(422, { error: { code: 'invalid_state', message } });
		const { items } = await run(onQuote('approve', { quoteId: byId('={{ $json.id }}') }), {
			items: [{ json: { id: 'quo_1' } }, { json: { id: 'quo_2' } }],
			continueOnFail: true,
		});
		expect(items[0].json.status).toBe('approved');
		expect(items[1].error?.message).toBe(
			`${asShown(message)} (HTTP 422 invalid_state, PATCH /quotes/quo_2) [item 1]`,
		);
	});
});

describe("dateRule('utcTimestamp')", () => {
	test.each([
		['2026-12-31T00:00:00', 'Europe/Amsterdam', '2026-12-30T23:00:00.000Z'],
		['2026-07-01T00:00:00', 'Europe/Amsterdam', '2026-06-30T22:00:00.000Z'],
		['2026-12-31', 'America/New_York', '2026-12-31T05:00:00.000Z'],
		['2026-12-31 08:30', 'UTC', '2026-12-31T08:30:00.000Z'],
		['2026-03-29T03:30:00', 'Europe/Amsterdam', '2026-03-29T01:30:00.000Z'],
		['2026-12-31T12:00:00+02:00', 'America/New_York', '2026-12-31T10:00:00.000Z'],
		['2026-12-31T12:00:00.250Z', 'Europe/Amsterdam', '2026-12-31T12:00:00.250Z'],
	])('%s in %s is %s', (value, timeZone, expected) => {
		expect(apiDateOf(value, timeZone, 'utcTimestamp')).toBe(expected);
	});
});

describe('dateRule: the years 0000-0100, which Date.UTC reads as 1900 + year', () => {
	test("0100-01-01 in America/New_York is that day, not -003501-01-01 (the zone's wall clock of year 99 read back as 1999)", () => {
		// New York's offset then was its local mean time, -04:56:02 (Intl says so for 100 AD)
		expect(apiDateOf('0100-01-01', 'America/New_York', 'utcTimestamp')).toBe(
			'0100-01-01T04:56:02.000Z',
		);
	});

	test('a written day of the years 0000–0099 is a date (was refused as "not a date": its day was looked for in 19xx)', () => {
		expect(apiDateOf('0050-06-01', 'UTC', 'calendarDate')).toBe('0050-06-01');
		expect(apiDateOf('0099-12-31T10:00:00Z', 'UTC', 'utcTimestamp')).toBe(
			'0099-12-31T10:00:00.000Z',
		);
	});
});

describe('dateRule: what the one regex took over from isoDateOf + toUtcTimestamp / toCalendarDate', () => {
	test('a fraction of more than 3 digits without a zone is cut to milliseconds, not read as a count of them', () => {
		expect(apiDateOf('2026-12-31T10:00:00.123456789', 'UTC', 'utcTimestamp')).toBe(
			'2026-12-31T10:00:00.123Z',
		);
	});

	test('a calendar date is taken from the text without the spaces around it', () => {
		expect(apiDateOf(' 2026-12-31 ', 'UTC', 'calendarDate')).toBe('2026-12-31');
		expect(apiDateOf('\t2026-12-31T23:30:00Z', 'Europe/Amsterdam', 'calendarDate')).toBe(
			'2026-12-31',
		);
	});
});

describe('dateRule: the refusal', () => {
	test.each([[20261231], [true], [{ year: 2026 }], [['2026-12-31']], [null]])(
		'%j (neither text, a Date nor a Luxon DateTime) is refused with what was given',
		(value) => {
			const ctx = { getTimezone: () => 'UTC' } as IExecuteSingleFunctions;
			expect(dateRule('utcTimestamp')(ctx, value)).toEqual({
				problem: `"${String(value)}" is not a date; use ISO 8601, e.g. 2026-12-31 or 2026-12-31T12:00:00Z`,
			});
		},
	);
});

describe('dateRule: a date is read before its refusal is worded', () => {
	test.each([
		['a JS Date', () => new Date(Date.UTC(2026, 11, 31))],
		['a Luxon DateTime', () => DateTime.fromISO('2026-12-31T00:00:00', { zone: 'UTC' })],
	])(
		'found: %s whose String() throws is no longer sent (dateRule words the refusal before reading the date; apiDateOf sent it)',
		(_kind, make) => {
			const value = Object.assign(make(), {
				toString() {
					throw new Error('no text');
				},
			});
			expect(apiDateOf(value, 'UTC', 'utcTimestamp')).toBe('2026-12-31T00:00:00.000Z');
		},
	);
});
