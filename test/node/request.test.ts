import nock from 'nock';

import { byId, jsonOf, runListSearch } from '../harness/engine';
import { baseApi as api, node, runOn } from '../harness/actionNode';

const run = runOn('request');

const request = (id: string, status = 'new') => ({
	id,
	fromEmail: 'anna@example.nl',
	fromName: 'Anna de Vries',
	subject: 'Offerte schilderwerk',
	bodyText: 'Graag een prijs voor de gevel.',
	externalRef: 'TICKET-1042',
	status,
	output: null,
	createdAt: '2026-11-20T09:00:00Z',
});

afterEach(() => {
	const pending = nock.pendingMocks();
	nock.cleanAll();
	expect(pending).toEqual([]);
});

describe('Customer Request: Create', () => {
	it('posts every field to /requests and returns the created request from the 201 answer', async () => {
		const body = {
			fromEmail: 'anna@example.nl',
			subject: 'Offerte schilderwerk',
			bodyText: 'Graag een prijs voor de gevel.\nHet gaat om 40 m2.',
			processImmediately: true,
			fromName: 'Anna de Vries',
			externalRef: 'TICKET-1042',
		};
		const created = { ...request('req_1', 'processed'), ...body };
		api().post('/requests', body).reply(201, { data: created });

		const { items } = await run({
			operation: 'create',
			fromEmail: ' anna@example.nl ',
			subject: 'Offerte schilderwerk',
			bodyText: 'Graag een prijs voor de gevel.\nHet gaat om 40 m2.',
			additionalFields: { fromName: 'Anna de Vries', externalRef: 'TICKET-1042' },
		});

		expect(jsonOf(items)).toEqual([created]);
	});

	it('sends processImmediately false, so the request stays new', async () => {
		const body = {
			fromEmail: 'anna@example.nl',
			subject: 'Hi',
			bodyText: 'Later',
			processImmediately: false,
		};
		api()
			.post('/requests', body)
			.reply(201, { data: request('req_2') });

		const { items } = await run({ operation: 'create', ...body });

		expect(items[0].json).toMatchObject({ id: 'req_2', status: 'new' });
	});

	it.each([
		['subject', 'Subject'],
		['bodyText', 'Body Text'],
	])('refuses an empty %s and sends nothing', async (field, label) => {
		const params = {
			operation: 'create',
			fromEmail: 'anna@example.nl',
			subject: 'Hi',
			bodyText: 'Text',
			[field]: ' ',
		};
		await expect(run(params)).rejects.toThrow(`${label}: a value is required [item 0]`);
	});

	it('refuses a From Email that is not an e-mail address and sends nothing', async () => {
		await expect(
			run({ operation: 'create', fromEmail: 'anna.example.nl', subject: 'Hi' }),
		).rejects.toThrow('From Email: "anna.example.nl" is not an e-mail address [item 0]');
	});

	it('a key without requests.write gets the missing scope named', async () => {
		api()
			.post('/requests')
			.reply(403, {
				error: {
					code: 'insufficient_scope',
					message: 'This API key lacks the scope "requests.write"',
				},
			});

		await expect(
			run({ operation: 'create', fromEmail: 'anna@example.nl', subject: 'Hi', bodyText: 'Text' }),
		).rejects.toMatchObject({
			message:
				'This API key lacks the scope "requests.write" (HTTP 403 insufficient_scope, POST /requests) [item 0]',
			httpCode: '403',
			errorResponse: { code: 'insufficient_scope', scope: 'requests.write' },
		});
	});
});

describe('Customer Request: Get', () => {
	it('reads GET /requests/{id} and passes the agent-run output on untouched', async () => {
		const output = {
			action: 'quote_created',
			quoteId: 'quo_7',
			data: [{ id: 'line_1', meta: { hasMore: true } }],
			summary: 'Draft quote OFF-0007 created',
		};
		const processed = { ...request('req_1', 'processed'), agentRunId: 'run_1', output };
		api().get('/requests/req_1').reply(200, { data: processed });

		const { items } = await run({ operation: 'get', requestId: byId('req_1') });

		expect(jsonOf(items)).toEqual([processed]);
		expect(items[0].json.output).toEqual(output);
	});

	it('keeps an output that came as text as text', async () => {
		const processed = { ...request('req_3', 'processed'), output: '{"action":"reply_drafted"}' };
		api().get('/requests/req_3').reply(200, { data: processed });

		const { items } = await run({ operation: 'get', requestId: byId('req_3') });

		expect(items[0].json.output).toBe('{"action":"reply_drafted"}');
	});
});

describe('Customer Request: Get Many', () => {
	it('Return All follows the pages of GET /requests with the status filter', async () => {
		const query = { status: 'processed', pageSize: '100' };
		api()
			.get('/requests')
			.query({ ...query, page: '1' })
			.reply(200, {
				data: [request('req_1', 'processed')],
				meta: { page: 1, pageSize: 100, total: 2, hasMore: true },
			});
		api()
			.get('/requests')
			.query({ ...query, page: '2' })
			.reply(200, {
				data: [request('req_2', 'processed')],
				meta: { page: 2, pageSize: 100, total: 2, hasMore: false },
			});

		const { items } = await run({
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'processed' },
		});

		expect(jsonOf(items)).toEqual([request('req_1', 'processed'), request('req_2', 'processed')]);
	});

	it('Limit over the largest page size reads a second page and cuts the rest', async () => {
		const many = (from: number, count: number) =>
			Array.from({ length: count }, (_, i) => request(`req_${from + i}`));
		api()
			.get('/requests')
			.query({ page: '1', pageSize: '100' })
			.reply(200, {
				data: many(1, 100),
				meta: { page: 1, pageSize: 100, total: 300, hasMore: true },
			});
		api()
			.get('/requests')
			.query({ page: '2', pageSize: '100' })
			.reply(200, {
				data: many(101, 100),
				meta: { page: 2, pageSize: 100, total: 300, hasMore: true },
			});

		const { items } = await run({ operation: 'getAll', returnAll: false, limit: 150 });

		expect(items).toHaveLength(150);
		expect(items[149].json.id).toBe('req_150');
	});

	it('Simplify keeps the identifying fields and drops the text and output', async () => {
		api()
			.get('/requests')
			.query({ page: '1', pageSize: '50' })
			.reply(200, {
				data: [request('req_1')],
				meta: { page: 1, pageSize: 50, total: 1, hasMore: false },
			});

		const { items } = await run({ operation: 'getAll', simplify: true });

		expect(jsonOf(items)).toEqual([
			{
				id: 'req_1',
				status: 'new',
				fromEmail: 'anna@example.nl',
				fromName: 'Anna de Vries',
				subject: 'Offerte schilderwerk',
				externalRef: 'TICKET-1042',
				createdAt: '2026-11-20T09:00:00Z',
			},
		]);
	});

	it('the request list search lists subject, sender and status', async () => {
		api()
			.get('/requests')
			.query({ page: '1', pageSize: '100' })
			.reply(200, {
				data: [request('req_1')],
				meta: { page: 1, pageSize: 100, total: 1, hasMore: false },
			});

		const result = await runListSearch(node, 'searchRequests', {
			resource: 'request',
			operation: 'get',
		});

		expect(result.results).toEqual([
			{ name: 'Offerte schilderwerk · anna@example.nl · new', value: 'req_1' },
		]);
	});
});
