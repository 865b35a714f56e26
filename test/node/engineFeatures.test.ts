/**
 * The node under n8n's own engine features: Retry On Fail with "Stop Workflow", paired items on
 * every output item, and error items under "Continue" that carry their input item.
 */
import nock from 'nock';
import type { INodeExecutionData } from 'n8n-workflow';

import { runDeclarativeNode, runWithRetries, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { API, node } from '../harness/actionNode';

const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };
const inputs = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, index) => ({ json: { row: index, name: `Contact ${index}` } }));
const createContact = { resource: 'contact', operation: 'create', name: '={{ $json.name }}' };
const serverError = { error: { code: 'internal_error', message: 'Something broke' } };

describe('Retry On Fail under Stop Workflow', () => {
	test('each try is a run of its own: after a 503 on the first item, the second try creates every item once', async () => {
		const created: string[] = [];
		nock(API).post('/v1/contacts').reply(503, serverError);
		nock(API)
			.post('/v1/contacts')
			.times(3)
			.reply(201, (_uri, body) => {
				created.push((body as { name: string }).name);
				return { data: { id: `ctc_${created.length}`, ...(body as object) } };
			});
		const tries = await runWithRetries(node, createContact, {
			credentials,
			items: inputs(3),
			maxTries: 3,
		});
		expect(tries.map((attempt) => (attempt.error ? 'failed' : 'succeeded'))).toEqual([
			'failed',
			'succeeded',
		]);
		expect(created).toEqual(['Contact 0', 'Contact 1', 'Contact 2']);
		expect(tries[1].items?.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});
});

describe('paired items', () => {
	test('Get Many: every record of input item i is paired with i', async () => {
		nock(API)
			.get('/v1/contacts')
			.query(true)
			.times(2)
			.reply(200, {
				data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
				meta: { page: 1, pageSize: 50, total: 3, hasMore: false },
			});
		const { items } = await runDeclarativeNode(
			node,
			{ resource: 'contact', operation: 'getAll' },
			{ credentials, items: inputs(2) },
		);
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
			{ item: 1 },
		]);
	});

	const failingCreates = () => {
		nock(API)
			.post('/v1/contacts')
			.reply(422, { error: { code: 'validation_error', message: 'Name taken' } });
		nock(API)
			.post('/v1/contacts')
			.reply(201, { data: { id: 'ctc_2' } });
		return {
			...createContact,
			additionalFields: { email: '={{ $json.row === 1 ? "not an address" : "a@example.com" }}' },
		};
	};

	test('Continue: a failed item (API error or input check) is { error } paired with its input, with the error object', async () => {
		const { items } = await runDeclarativeNode(node, failingCreates(), {
			credentials,
			items: inputs(3),
			continueOnFail: true,
		});
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json).toEqual({ error: expect.stringContaining('Name taken') });
		expect(items[1].json).toEqual({ error: expect.stringContaining('Email') });
		expect(items[0].error?.description).toEqual(expect.any(String));
		expect(items[2].json).toEqual({ id: 'ctc_2' });
	});

	test('Continue (using error output): a failed item is { error } paired with its input and no error object, so n8n merges the input item into it', async () => {
		const { items } = await runDeclarativeNode(node, failingCreates(), {
			credentials,
			items: inputs(3),
			onError: 'continueErrorOutput',
		});
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items.slice(0, 2).map((item) => [Object.keys(item.json), item.error])).toEqual([
			[['error'], undefined],
			[['error'], undefined],
		]);
		expect(items[1].json.error).toContain('Email');
	});
});

describe("n8n's own dates", () => {
	const quoteWith = (validUntil: string) => ({
		resource: 'quote',
		operation: 'create',
		contactId: { __rl: true, mode: 'id', value: 'ctc_1' },
		items: { item: [{ name: 'Design', quantity: 1, unitPrice: 10 }] },
		additionalFields: { validUntil },
	});
	const sentBodies = (path: string) => {
		const bodies: Array<Record<string, unknown>> = [];
		nock(API)
			.post(path)
			.times(3)
			.reply(201, (_uri, body) => {
				bodies.push(body as Record<string, unknown>);
				return { data: { id: 'x_1' } };
			});
		return bodies;
	};

	test('Valid Until from $now.plus(...), a JS Date or text with an offset is sent as ISO 8601 UTC', async () => {
		const bodies = sentBodies('/v1/quotes');
		const expressions = [
			'={{ $now.plus({ days: 30 }) }}',
			'={{ new Date("2026-12-31T10:00:00Z") }}',
			'2026-12-23T15:18:16.838-05:00',
		];
		for (const validUntil of expressions)
			await runDeclarativeNode(node, quoteWith(validUntil), { credentials });
		const [fromNow, fromDate, fromText] = bodies.map((body) => String(body.validUntil));
		expect(fromNow).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
		expect(Math.abs(Date.parse(fromNow) - Date.now() - 30 * 86_400_000)).toBeLessThan(3_600_000);
		expect(fromDate).toBe('2026-12-31T10:00:00.000Z');
		expect(fromText).toBe('2026-12-23T20:18:16.838Z');
	});

	test("Due Date from $today is the workflow's calendar date, whenever the test runs (the clock stands still)", async () => {
		const bodies = sentBodies('/v1/invoices');
		// one instant for the expression and the expectation: a run across midnight cannot tell them apart
		const today = Date.now();
		const frozen = jest.spyOn(Date, 'now').mockReturnValue(today);
		try {
			const { context } = await runDeclarativeNode(
				node,
				{
					...quoteWith(''),
					resource: 'invoice',
					additionalFields: { dueDate: '={{ $today.plus({ days: 14 }) }}' },
				},
				{ credentials },
			);
			// 14 calendar days on from today's date in the workflow's time zone (a DST change between is no matter)
			const [year, month, day] = new Intl.DateTimeFormat('en-CA', {
				timeZone: context.getTimezone(),
			})
				.format(today)
				.split('-')
				.map(Number);
			expect(bodies.map((body) => body.dueDate)).toEqual([
				new Date(Date.UTC(year, month - 1, day + 14)).toISOString().slice(0, 10),
			]);
		} finally {
			frozen.mockRestore();
		}
	});

	test("Due Date from a JS Date is its calendar date in the workflow's time zone, as with $now", async () => {
		const bodies = sentBodies('/v1/invoices');
		// 03:30 UTC on 1 January is still 31 December in any zone from UTC-4 to UTC-12
		const { context } = await runDeclarativeNode(
			node,
			{
				...quoteWith(''),
				resource: 'invoice',
				additionalFields: { dueDate: '={{ new Date("2027-01-01T03:30:00Z") }}' },
			},
			{ credentials },
		);
		const expected = new Intl.DateTimeFormat('en-CA', { timeZone: context.getTimezone() }).format(
			Date.parse('2027-01-01T03:30:00Z'),
		);
		expect(expected).toBe('2026-12-31');
		expect(bodies.map((body) => body.dueDate)).toEqual([expected]);
	});
});
