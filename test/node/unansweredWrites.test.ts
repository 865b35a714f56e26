/**
 * Writes whose answer never came, under Retry On Fail through n8n-core's engine (Wait Between Tries
 * 1000 ms on the harness clock, the API answering after a real delay): a write still in flight when
 * the next try starts, an answer lost after the API stored the write, a gateway's 5xx without the
 * API's error body. None is sent twice; a create the API gives no way to find fails instead.
 */
import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import * as errors from '../../nodes/shared/api/errors';
import { API, node } from '../harness/actionNode';
import { realSleep } from '../harness/clock';
import { byId, runDeclarativeNode } from '../harness/engine';
import {
	contactCreate,
	FAILS_TO_BUILD,
	networkError,
	outcomes,
	retrying,
	settle,
} from '../harness/unansweredWrites';

/**
 * What happens to a write: `ok`; `lost` (stored, the connection reset before any answer); `gateway`
 * (stored, a 502 page without the API's error body); `internal` (the API's own 500, not stored);
 * `dropped` (the connection reset before the API stored it); `refused` and `unresolved` (the request
 * never left: ECONNREFUSED, ENOTFOUND).
 */
type Fate = 'ok' | 'lost' | 'dropped' | 'gateway' | 'internal' | 'refused' | 'unresolved';

/**
 * A stateful API for contacts, quotes, requests and agents: `fate` decides each write (by its method,
 * path and number, 1-based); every write is logged as `METHOD path name-or-status`.
 */
function fakeApi(fate: (write: string, n: number) => Fate = () => 'ok', delayMs = 0) {
	const records: Record<string, IDataObject[]> = {
		contacts: [],
		quotes: [],
		requests: [],
		agents: [{ id: 'agt_1', name: 'Quotes', status: 'active' }],
	};
	const writes: string[] = [];
	let inFlight = 0;
	const find = (kind: string, id: string) => records[kind].find((r) => r.id === id);
	const notFound = [404, { error: { code: 'not_found', message: 'Not found' } }] as const;
	/** Applies the write (unless it never left or the API failed), then answers as `fate` says. */
	async function write(
		method: string,
		path: string,
		body: IDataObject,
		apply: () => IDataObject | undefined,
	) {
		writes.push(
			`${method} ${path} ${String(body.name ?? body.status ?? body.subject ?? (body.items as IDataObject[] | undefined)?.[0]?.name ?? '')}`.trim(),
		);
		const chosen = fate(`${method} ${path}`, writes.length);
		inFlight++;
		// the write is stored when it arrives; its answer takes delayMs (the latency of every answer)
		await realSleep(delayMs).finally(() => inFlight--);
		if (chosen === 'refused') throw networkError('ECONNREFUSED', 'connect ECONNREFUSED');
		if (chosen === 'unresolved') throw networkError('ENOTFOUND', 'getaddrinfo ENOTFOUND');
		if (chosen === 'dropped') throw networkError('ECONNRESET', 'socket hang up');
		if (chosen === 'internal')
			return [500, { error: { code: 'internal_error', message: 'Something went wrong' } }];
		const record = apply();
		if (chosen === 'lost') throw networkError('ECONNRESET', 'socket hang up');
		if (chosen === 'gateway') return [502, '<html><body>502 Bad Gateway</body></html>'];
		return record
			? [method === 'POST' && !path.includes('agents') ? 201 : 200, { data: record }]
			: notFound;
	}
	const scope = nock(API).persist();
	scope
		.get(/^\/v1\/(contacts|quotes|requests|agents)(\?.*)?$/)
		.delay(delayMs)
		.reply((uri) => {
			const list = records[uri.split('/')[2].split('?')[0]];
			return [
				200,
				{ data: list, meta: { page: 1, pageSize: 100, total: list.length, hasMore: false } },
			];
		});
	scope
		.get(/^\/v1\/(contacts|quotes|requests|agents)\/[^/?]+$/)
		.delay(delayMs)
		.reply((uri) => {
			const [, , kind, id] = uri.split('/');
			const record = find(kind, id);
			return record ? [200, { data: record }] : notFound;
		});
	scope.post(/^\/v1\/(contacts|quotes|requests)$/).reply(async (uri, body) => {
		{
			const kind = uri.split('/')[2];
			return await write('POST', uri.slice(3), body as IDataObject, () => {
				const record = {
					...(body as IDataObject),
					id: `${kind.slice(0, 3)}_${records[kind].length + 1}`,
				};
				records[kind].push(record);
				return record;
			});
		}
	});
	scope.post(/^\/v1\/agents\/[^/]+\/(pause|resume)$/).reply(async (uri) => {
		const [, , , id, move] = uri.split('/');
		return await write('POST', uri.slice(3), {}, () => {
			const agent = find('agents', id);
			if (agent) agent.status = move === 'pause' ? 'paused' : 'active';
			return agent;
		});
	});
	scope.patch(/^\/v1\/(contacts|quotes)\/[^/]+$/).reply(async (uri, body) => {
		const [, , kind, id] = uri.split('/');
		return await write('PATCH', uri.slice(3), body as IDataObject, () => {
			const record = find(kind, id);
			return record && Object.assign(record, body);
		});
	});
	scope.delete(/^\/v1\/(contacts|quotes)\/[^/]+$/).reply(async (uri) => {
		const [, , kind, id] = uri.split('/');
		return await write('DELETE', uri.slice(3), {}, () => {
			const record = find(kind, id);
			if (record) records[kind].splice(records[kind].indexOf(record), 1);
			return record && { id };
		});
	});
	return { records, writes, settled: async () => await settle(() => inFlight) };
}

const named = (...names: string[]) =>
	names.map((name) => ({ json: { name, email: `${name.toLowerCase()}@example.com` } }));

const quoteCreate = {
	resource: 'quote',
	operation: 'create',
	contactId: byId('ctc_1'),
	items: { item: [{ name: '={{ $json.name }}', quantity: 2, unitPrice: 100, vatPercentage: 21 }] },
};
const requestCreate = (externalRef?: string) => ({
	resource: 'request',
	operation: 'create',
	fromEmail: 'anna@example.nl',
	subject: '={{ $json.name }}',
	bodyText: 'Graag een prijs.',
	additionalFields: externalRef ? { externalRef: `={{ "${externalRef}-" + $json.name }}` } : {},
});

test('a write still in flight when n8n starts the next try: Stop Workflow, 10 creates answered after 150 ms, item 7 failing to build: each contact created once', async () => {
	const api = fakeApi(undefined, 150);
	const parameters = {
		...contactCreate,
		name: FAILS_TO_BUILD,
	};
	const items = Array.from({ length: 10 }, (_, i) => ({
		json: { name: `C${i}`, ...(i === 7 ? { fail: true } : {}) },
	}));
	// RoutingNode throws at item 7 while items 0 to 6 are on their way: n8n logs their outcomes, unhandled
	const unhandled: unknown[] = [];
	const onUnhandled = (reason: unknown) => unhandled.push(reason);
	process.on('unhandledRejection', onUnhandled);
	const tries = await retrying(parameters, items).finally(api.settled);
	await api.settled();
	process.off('unhandledRejection', onUnhandled);
	expect(outcomes(tries)).toEqual(['failed', 'failed', 'failed']);
	expect(api.writes).toEqual(
		['C0', 'C1', 'C2', 'C3', 'C4', 'C5', 'C6'].map((n) => `POST /contacts ${n}`),
	);
});

describe.each(['lost', 'gateway'] as const)(
	'an answer %s after the API stored the write',
	(lost) => {
		test('Contact → Create: found by its address, not created again; the execution succeeds with it', async () => {
			const api = fakeApi((_w, n) => (n === 2 ? lost : 'ok'));
			const tries = await retrying(contactCreate, named('Ann', 'Bob', 'Cas'));
			await api.settled();
			expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
			expect(api.records.contacts.map((c) => c.name)).toEqual(['Ann', 'Bob', 'Cas']);
			expect(tries[1].items?.map((i) => [i.json.id, i.pairedItem])).toEqual([
				['con_1', { item: 0 }],
				['con_2', { item: 1 }],
				['con_3', { item: 2 }],
			]);
		});

		test('Request → Create with an External Reference: found by it, not created again', async () => {
			const api = fakeApi((_w, n) => (n === 1 ? lost : 'ok'));
			const tries = await retrying(requestCreate('T'), named('Ann', 'Bob'));
			await api.settled();
			expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
			expect(api.writes).toEqual(['POST /requests Ann', 'POST /requests Bob']);
			expect(tries[1].items?.map((i) => i.json.id)).toEqual(['req_1', 'req_2']);
		});

		test.each([
			['Quote → Create', quoteCreate, '/quotes', ['contactId: ctc_1', 'items: 1']],
			[
				'Request → Create without an External Reference',
				requestCreate(),
				'/requests',
				['fromEmail: anna@example.nl', 'subject: Ann'],
			],
		] as const)(
			'%s: not sent again; each try fails saying the record may exist, what identifies it, where to look',
			async (_, parameters, path, identifying) => {
				const api = fakeApi((_w, n) => (n === 1 ? lost : 'ok'));
				const tries = await retrying(parameters as INodeParameters, named('Ann'));
				await api.settled();
				expect(api.writes).toEqual([`POST ${path} Ann`]);
				expect(outcomes(tries)).toEqual(['failed', 'failed', 'failed']);
				const last = tries[2].error as Error & { description?: string };
				expect(last.message).toContain('may have been created');
				expect(last.message).toContain('[item 0]');
				for (const field of identifying) expect(last.description).toContain(field);
				expect(last.description).toContain('Get Many');
				expect(last.description).toContain('dashboard');
			},
		);

		test('Quote → Create under Continue: the re-run gives an error item with the same words; nothing sent again', async () => {
			const api = fakeApi((_w, n) => (n === 1 ? lost : 'ok'));
			const tries = await retrying(quoteCreate, named('Ann', 'Bob'), 'continueRegularOutput');
			await api.settled();
			expect(api.writes).toEqual(['POST /quotes Ann', 'POST /quotes Bob']);
			expect(tries.length).toBeGreaterThan(1);
			expect(String(tries.at(-1)?.items?.[0].json.error)).toContain('may have been created');
		});

		test.each([
			[
				'Contact → Update: the record shows the change',
				{ contacts: [{ id: 'ctc_9', name: 'Old' }] },
				{
					resource: 'contact',
					operation: 'update',
					contactId: byId('ctc_9'),
					updateFields: { name: 'New' },
				},
				'PATCH /contacts/ctc_9 New',
				{ id: 'ctc_9', name: 'New' },
			],
			[
				'Quote → Send (a status move): the quote shows it sent',
				{ quotes: [{ id: 'quo_1', status: 'draft' }] },
				{ resource: 'quote', operation: 'send', quoteId: byId('quo_1') },
				'PATCH /quotes/quo_1 sent',
				{ id: 'quo_1', status: 'sent' },
			],
			[
				'Agent → Pause: the agent shows paused',
				{},
				{ resource: 'agent', operation: 'pause', agentId: byId('agt_1') },
				'POST /agents/agt_1/pause',
				{ id: 'agt_1', status: 'paused' },
			],
		])('%s: answered from it, not sent again', async (_, seed, parameters, write, json) => {
			const api = fakeApi((_w, n) => (n === 1 ? lost : 'ok'));
			for (const [kind, rows] of Object.entries(seed))
				api.records[kind as keyof typeof api.records].push(...rows);
			const tries = await retrying(parameters as INodeParameters, [{ json: {} }]);
			await api.settled();
			expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
			expect(api.writes).toEqual([write]);
			expect(tries[1].items?.[0].json).toMatchObject(json);
		});

		test("Contact → Delete: the API's 404 shows it deleted: answered, not sent again", async () => {
			const api = fakeApi((_w, n) => (n === 1 ? lost : 'ok'));
			api.records.contacts.push({ id: 'ctc_9', name: 'Old' });
			const tries = await retrying(
				{ resource: 'contact', operation: 'delete', contactId: byId('ctc_9') },
				[{ json: {} }],
			);
			await api.settled();
			expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
			expect(api.writes).toEqual(['DELETE /contacts/ctc_9']);
			expect(tries[1].items?.[0].json).toEqual({ deleted: true, id: 'ctc_9' });
		});
	},
);

test('Contact → Update whose connection reset before the API applied it: the record does not show it, so it is sent again', async () => {
	const api = fakeApi((_w, n) => (n === 1 ? 'dropped' : 'ok'));
	api.records.contacts.push({ id: 'ctc_9', name: 'Old' });
	const update = {
		resource: 'contact',
		operation: 'update',
		contactId: byId('ctc_9'),
		updateFields: { name: 'New' },
	};
	const tries = await retrying(update, [{ json: {} }]);
	await api.settled();
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
	expect(api.writes).toEqual(['PATCH /contacts/ctc_9 New', 'PATCH /contacts/ctc_9 New']);
});

test.each(['internal', 'refused', 'unresolved'] as const)(
	'not written (%s): the create is sent again on the next try, as before',
	async (fate) => {
		const api = fakeApi((_w, n) => (n === 2 ? fate : 'ok'));
		const tries = await retrying(quoteCreate, named('Ann', 'Bob'));
		await api.settled();
		expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
		expect(api.writes).toEqual(['POST /quotes Ann', 'POST /quotes Bob', 'POST /quotes Bob']);
		expect(api.records.quotes).toHaveLength(2);
	},
);

test("Contact → Create: two items with one address, the 2nd answer lost: the 2nd is found, not the 1st item's contact", async () => {
	const api = fakeApi((_w, n) => (n === 2 ? 'lost' : 'ok'));
	const items = [
		{ json: { name: 'Ann', email: 'same@example.com' } },
		{ json: { name: 'Ann 2', email: 'same@example.com' } },
	];
	const tries = await retrying(contactCreate, items);
	await api.settled();
	expect(api.writes).toEqual(['POST /contacts Ann', 'POST /contacts Ann 2']);
	expect(tries.at(-1)?.items?.map((i) => i.json.id)).toEqual(['con_1', 'con_2']);
});

test('Contact → Create without an e-mail, its answer lost: not sent again (nothing to find it by)', async () => {
	const api = fakeApi((_w, n) => (n === 1 ? 'lost' : 'ok'));
	const tries = await retrying({ ...contactCreate, additionalFields: {} }, named('Ann'));
	await api.settled();
	expect(api.writes).toEqual(['POST /contacts Ann']);
	expect(String(tries.at(-1)?.error?.message)).toContain('may have been created');
});

test('in tool mode a gateway 502 on a create tells the model the record may exist and to check first', async () => {
	const api = fakeApi(() => 'gateway');
	const error = (await runDeclarativeNode(node, quoteCreate, {
		items: named('Ann'),
		asTool: true,
	}).catch((e: unknown) => e)) as Error;
	await api.settled();
	expect(error.message).toMatch(
		/may have made the change although the call failed: read the record/,
	);
	expect(error.message).not.toContain('try again later');
});

// The description is built once, when the try ends (describeStop): counted, not timed. 500 items
// show it as well as 40,000 (rebuilt per item not sent, it was written once per item).
test("Stop Workflow, 500 items, item 0 failing: the error's description is built once, not once per item not sent", async () => {
	nock(API)
		.post('/v1/contacts')
		.reply(422, { error: { code: 'validation_error', message: 'name is not valid' } });
	// the API error of item 0, its description counted as it is written (an own property: n8n's
	// errors declare it as a class field, so a setter on the prototype would never be reached)
	let writes = 0;
	const original = errors.apiErrorFor;
	const spy = jest.spyOn(errors, 'apiErrorFor').mockImplementation((...args) => {
		const error = original(...args);
		let value = error.description;
		Object.defineProperty(error, 'description', {
			configurable: true,
			enumerable: true,
			get: () => value,
			set: (next: typeof value) => {
				writes++;
				value = next;
			},
		});
		return error;
	});
	try {
		const items = Array.from({ length: 500 }, (_, i) => ({ json: { name: `C${i}` } }));
		const error = (await runDeclarativeNode(
			node,
			{ ...contactCreate, additionalFields: {} },
			{ items },
		).catch((e: unknown) => e)) as Error & { description?: string };
		expect(error.description).toContain('Items 1, 2, 3');
		expect(error.description).toContain('and 479 more were not sent');
		expect(writes).toBeGreaterThan(0);
		expect(writes).toBeLessThanOrEqual(2);
	} finally {
		spy.mockRestore();
	}
}, 120_000);

describe('the write path mutations an audit found surviving', () => {
	test('a one-item Create or Update under Retry On Fail reads the contacts again in its 2nd try', async () => {
		let reads = 0;
		nock(API)
			.persist()
			.get('/v1/contacts')
			.query(true)
			.reply(() =>
				++reads <= 5
					? [503, { error: { code: 'unavailable', message: 'busy' } }]
					: [200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } }],
			);
		nock(API)
			.post('/v1/contacts')
			.reply(201, { data: { id: 'ctc_1', name: 'Ann' } });
		const upsert = {
			resource: 'contact',
			operation: 'upsert',
			email: 'ann@example.com',
			name: 'Ann',
		};
		const tries = await retrying(upsert, [{ json: {} }]);
		expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
		expect(reads).toBe(6);
		expect(tries[1].items?.[0].json).toMatchObject({ action: 'created', id: 'ctc_1' });
	});

	test("a retry whose write has another body than in the 1st try (an expression reading the clock) uses the 1st try's answer: the memory is keyed by item, method, URL and query", async () => {
		const items = named('Ann', 'Bob');
		const api = fakeApi((_w, n) => {
			if (n === 1) items[0].json.name = 'Ann 2';
			return n === 2 ? 'internal' : 'ok';
		});
		const tries = await retrying(contactCreate, items);
		await api.settled();
		expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
		expect(api.writes).toEqual(['POST /contacts Ann', 'POST /contacts Bob', 'POST /contacts Bob']);
	});

	test("Quote → Create's Stop Workflow error does not advise Contact → Create or Update", async () => {
		const api = fakeApi((_w, n) => (n === 2 ? 'internal' : 'ok'));
		const error = (await runDeclarativeNode(node, quoteCreate, {
			items: named('Ann', 'Bob'),
		}).catch((e: unknown) => e)) as Error & { description?: string };
		await api.settled();
		expect(error.description).toContain('Already written by this run: item 0 (quo_1)');
		expect(error.description).toContain('a create makes a second record');
		expect(error.description).not.toContain('Create or Update');
	});

	test.each([
		[
			'Agent → Pause',
			{ resource: 'agent', operation: 'pause', agentId: byId('={{ $json.id }}') },
			/\/v1\/agents\/.*\/pause/,
			'the same change is made again',
		],
		[
			'Webhook → Send Test Event',
			{
				resource: 'webhook',
				operation: 'sendTestEvent',
				webhookId: byId('={{ $json.id }}'),
				eventType: 'quote.sent',
			},
			/\/v1\/webhooks\/.*\/test/,
			'a second test event is delivered',
		],
	] as const)(
		'%s, the 2nd item failing: running again says what it does ("%s"), not "a second record"',
		async (_, parameters, path, again) => {
			nock(API)
				.post(path)
				.reply(200, { data: { id: 'x_1', status: 'paused' } });
			nock(API)
				.post(path)
				.reply(422, { error: { code: 'invalid_state', message: 'not allowed' } });
			const error = (await runDeclarativeNode(node, parameters as INodeParameters, {
				items: [{ json: { id: 'x_1' } }, { json: { id: 'x_2' } }],
			}).catch((e: unknown) => e)) as Error & { description?: string };
			expect(error.description).toContain('Already written by this run: item 0');
			expect(error.description).toContain(again);
			expect(error.description).not.toContain('second record');
		},
	);
});

test('a reset during the proving read: that try fails, the next one proves again and finds the contact; one POST in all', async () => {
	// the 2nd try's read of the contacts is reset on every attempt (a GET is sent 5 times)
	nock(API)
		.get(/^\/v1\/contacts(\?.*)?$/)
		.times(5)
		.replyWithError(networkError('ECONNRESET', 'socket hang up'));
	const api = fakeApi((_w, n) => (n === 1 ? 'lost' : 'ok'));
	const tries = await retrying(contactCreate, named('Ann'));
	await api.settled();
	expect(outcomes(tries)).toEqual(['failed', 'failed', 'succeeded']);
	expect(api.writes).toEqual(['POST /contacts Ann']);
	expect(tries[2].items?.map((i) => i.json.id)).toEqual(['con_1']);
});
