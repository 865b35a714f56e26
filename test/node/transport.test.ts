import { PollContext } from 'n8n-core';
import nock from 'nock';

import { BusinessOpsPollingTrigger } from '../../nodes/BusinessOpsPollingTrigger/BusinessOpsPollingTrigger.node';
import { DEPRECATION_DATA_KEY } from '../../nodes/BusinessOps/shared/requestHook';
import { retryDelayMs } from '../../nodes/shared/api/transport';
import { forgetRateBudgets, manualClock, realClock, type ManualClock } from '../harness/clock';
import {
	captureLogWarnings,
	createTestNode,
	runDeclarativeNode,
	TEST_API_KEY,
	TEST_BASE_URL,
} from '../harness/engine';
import { API, node } from '../harness/actionNode';

const contact = { id: 'ctc_1', name: 'Bakkerij de Vries' };
const getContact = {
	resource: 'contact',
	operation: 'get',
	contactId: { __rl: true, mode: 'id', value: 'ctc_1' },
};
const createContact = { resource: 'contact', operation: 'create', name: 'Bakkerij de Vries' };
const rateLimited = { error: { code: 'rate_limited', message: 'Too many requests' } };
const connectionReset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const serverError = { error: { code: 'internal_error', message: 'Something broke' } };

let waits: number[];
let clock: ManualClock;

beforeEach(() => {
	forgetRateBudgets();
	clock = manualClock();
	waits = clock.waits;
});
afterEach(() => {
	realClock();
	nock.cleanAll();
});

describe('429 rate limited', () => {
	test('waits Retry-After, then succeeds', async () => {
		const scope = nock(API)
			.get('/v1/contacts/ctc_1')
			.reply(429, rateLimited, { 'Retry-After': '3' })
			.get('/v1/contacts/ctc_1')
			.reply(200, { data: contact });
		const { items } = await runDeclarativeNode(node, getContact);
		expect(items.map((i) => i.json)).toEqual([contact]);
		expect(waits).toEqual([3000]);
		expect(scope.isDone()).toBe(true);
	});

	test('without Retry-After waits 1 s and backs off exponentially', async () => {
		const scope = nock(API)
			.get('/v1/contacts/ctc_1')
			.times(3)
			.reply(429, rateLimited)
			.get('/v1/contacts/ctc_1')
			.reply(200, { data: contact });
		await runDeclarativeNode(node, getContact);
		expect(waits).toEqual([1000, 2000, 4000]);
		expect(scope.isDone()).toBe(true);
	});

	test('retries a POST too (a 429 means nothing was done) and gives up after 5 attempts', async () => {
		const scope = nock(API)
			.post('/v1/contacts')
			.times(5)
			.reply(429, rateLimited, { 'Retry-After': '1' });
		const error = await runDeclarativeNode(node, createContact).catch((e) => e);
		expect(scope.isDone()).toBe(true);
		expect(waits).toEqual([1000, 2000, 4000, 8000]);
		expect(error.message).toBe(
			'Too many requests (HTTP 429 rate_limited, POST /contacts) [item 0]',
		);
		expect(error.httpCode).toBe('429');
		expect(error.description).toMatch(/after 5 attempts/);
	});

	test('a long Retry-After wins over the backoff', () => {
		expect(retryDelayMs(1, { 'retry-after': '7' })).toBe(7000);
		expect(retryDelayMs(3, { 'retry-after': '1' })).toBe(4000);
		expect(retryDelayMs(2, {})).toBe(2000);
	});
});

describe('5xx and network failures', () => {
	test('a GET is retried on 500', async () => {
		const scope = nock(API)
			.get('/v1/contacts/ctc_1')
			.reply(500, serverError)
			.get('/v1/contacts/ctc_1')
			.reply(200, { data: contact });
		const { items } = await runDeclarativeNode(node, getContact);
		expect(items[0].json).toEqual(contact);
		expect(waits).toEqual([1000]);
		expect(scope.isDone()).toBe(true);
	});

	test('a POST is never retried on 500', async () => {
		const scope = nock(API).post('/v1/contacts').reply(500, serverError);
		const extra = nock(API).post('/v1/contacts').reply(201, { data: contact });
		const error = await runDeclarativeNode(node, createContact).catch((e) => e);
		expect(scope.isDone()).toBe(true);
		expect(extra.isDone()).toBe(false);
		expect(waits).toEqual([]);
		expect(error.message).toBe(
			'Something broke (HTTP 500 internal_error, POST /contacts) [item 0]',
		);
	});

	test('a PATCH and a DELETE are never retried after a connection reset', async () => {
		nock(API).patch('/v1/contacts/ctc_1').replyWithError(connectionReset());
		const patchError = await runDeclarativeNode(node, {
			...getContact,
			operation: 'update',
			updateFields: { name: 'x' },
		}).catch((e) => e);
		expect(patchError.message).toBe(
			'Could not complete PATCH /contacts/ctc_1: the connection was closed by the server [item 0]',
		);
		expect(patchError.description).toMatch(/not repeated because it changes data.*econnreset/);

		nock(API).delete('/v1/contacts/ctc_1').replyWithError(connectionReset());
		const deleteError = await runDeclarativeNode(node, {
			...getContact,
			operation: 'delete',
		}).catch((e) => e);
		expect(deleteError.message).toBe(
			'Could not complete DELETE /contacts/ctc_1: the connection was closed by the server [item 0]',
		);
		expect(waits).toEqual([]);
	});

	test('a GET is retried after a connection reset, at most 5 attempts', async () => {
		const scope = nock(API).get('/v1/contacts/ctc_1').times(5).replyWithError(connectionReset());
		const error = await runDeclarativeNode(node, getContact).catch((e) => e);
		expect(scope.isDone()).toBe(true);
		expect(waits).toHaveLength(4);
		expect(error.message).toBe(
			'Could not complete GET /contacts/ctc_1: the connection was closed by the server [item 0]',
		);
	});
});

describe('errors', () => {
	test.each([
		[400, 'invalid_request', '"email" must be a valid e-mail address', /field named/],
		[404, 'not_found', 'Contact ctc_1 not found', /Check the ID/],
		[409, 'duplicate_resource', 'A contact with this e-mail exists', /already exists/],
		[422, 'invalid_state', 'Cannot delete a sent quote', /current status does not allow/],
	])('%i %s keeps the API code and message', async (status, code, message, fix) => {
		nock(API).get('/v1/contacts/ctc_1').reply(status, { error: { code, message } });
		const error = await runDeclarativeNode(node, getContact).catch((e) => e);
		expect(error.message).toBe(`${message} (HTTP ${status} ${code}, GET /contacts/ctc_1) [item 0]`);
		expect(error.httpCode).toBe(String(status));
		expect(error.description).toMatch(fix);
	});

	test('403 names the missing scope', async () => {
		nock(API)
			.post('/v1/contacts')
			.reply(403, {
				error: {
					code: 'insufficient_scope',
					message: 'This API key lacks the scope "contacts.write"',
				},
			});
		const error = await runDeclarativeNode(node, createContact).catch((e) => e);
		expect(error.message).toBe(
			'This API key lacks the scope "contacts.write" (HTTP 403 insufficient_scope, POST /contacts) [item 0]',
		);
		expect(error.description).toMatch(/lacks the scope "contacts.write".*"contacts\.\*"/);
	});

	test('continue-on-fail keeps the other items going, each error names its item', async () => {
		nock(API)
			.post('/v1/contacts', { name: 'A' })
			.reply(201, { data: { id: 'ctc_a', name: 'A' } })
			.post('/v1/contacts', { name: 'B' })
			.reply(409, { error: { code: 'duplicate_resource', message: 'Exists' } })
			.post('/v1/contacts', { name: 'C' })
			.reply(201, { data: { id: 'ctc_c', name: 'C' } });
		const { items } = await runDeclarativeNode(
			node,
			{ resource: 'contact', operation: 'create', name: '={{ $json.name }}' },
			{
				items: [{ json: { name: 'A' } }, { json: { name: 'B' } }, { json: { name: 'C' } }],
				continueOnFail: true,
			},
		);
		expect(items.map((i) => i.json.id ?? null)).toEqual(['ctc_a', null, 'ctc_c']);
		expect(items[1].error?.message).toBe(
			'Exists (HTTP 409 duplicate_resource, POST /contacts) [item 1]',
		);
	});
});

describe('Deprecation', () => {
	const notice =
		"This version of the Business Ops API is deprecated (Deprecation: true). It stops working after Wed, 31 Dec 2027 23:59:59 GMT. Move the credential's Base URL to the newer version when it is available.";
	const deprecated = { Deprecation: 'true', Sunset: 'Wed, 31 Dec 2027 23:59:59 GMT' };

	test('told once per execution, in the log and the execution custom data; the records stay as the API sent them', async () => {
		nock(API).get('/v1/contacts/ctc_1').times(3).reply(200, { data: contact }, deprecated);
		const { warnings, restore } = captureLogWarnings();
		const { items, context } = await runDeclarativeNode(node, getContact, {
			items: [{ json: {} }, { json: {} }, { json: {} }],
			executionId: 'deprecation-1',
		}).finally(restore);
		expect(items.map((i) => i.json)).toEqual([contact, contact, contact]);
		expect(context.customData.get(DEPRECATION_DATA_KEY)).toBe(notice);
		expect(warnings.filter((line) => line.includes('deprecated'))).toEqual([
			`Business Ops: ${notice}`,
		]);
	});

	test('editor and production runs give the same output; each execution is told again', async () => {
		nock(API).get('/v1/contacts/ctc_1').times(2).reply(200, { data: contact }, deprecated);
		const { warnings, restore } = captureLogWarnings();
		const editor = await runDeclarativeNode(node, getContact, {
			mode: 'manual',
			executionId: 'deprecation-2',
		});
		const production = await runDeclarativeNode(node, getContact, {
			mode: 'trigger',
			executionId: 'deprecation-3',
		}).finally(restore);
		expect(editor.items).toEqual(production.items);
		expect(warnings.filter((line) => line.includes('deprecated'))).toHaveLength(2);
	});

	test('a Deprecation header without Sunset is told too, without a date', async () => {
		nock(API).get('/v1/contacts/ctc_1').reply(200, { data: contact }, { Deprecation: 'true' });
		const { warnings, restore } = captureLogWarnings();
		await runDeclarativeNode(node, getContact, { executionId: 'deprecation-4' }).finally(restore);
		expect(warnings.filter((line) => line.includes('deprecated'))).toEqual([
			"Business Ops: This version of the Business Ops API is deprecated (Deprecation: true). Move the credential's Base URL to the newer version when it is available.",
		]);
	});

	test('a Deprecation header with an empty value is told too (the header is there), without a Sunset sentence for an empty Sunset', async () => {
		nock(API)
			.get('/v1/contacts/ctc_1')
			.reply(200, { data: contact }, { Deprecation: '', Sunset: '' });
		const { warnings, restore } = captureLogWarnings();
		const { context } = await runDeclarativeNode(node, getContact, {
			executionId: 'deprecation-empty',
		}).finally(restore);
		const told =
			"This version of the Business Ops API is deprecated (Deprecation: ). Move the credential's Base URL to the newer version when it is available.";
		expect(context.customData.get(DEPRECATION_DATA_KEY)).toBe(told);
		expect(warnings.filter((line) => line.includes('deprecated'))).toEqual([
			`Business Ops: ${told}`,
		]);
	});
});

describe('rate budget', () => {
	const paced = (requestsPerMinute: number, baseUrl = TEST_BASE_URL) => ({
		credentials: { apiKey: TEST_API_KEY, baseUrl, requestsPerMinute },
	});

	test('requests wait for room in the window instead of being sent and refused', async () => {
		const scope = nock(API).get('/v1/contacts/ctc_1').times(5).reply(200, { data: contact });
		const { items } = await runDeclarativeNode(node, getContact, {
			...paced(2),
			items: Array.from({ length: 5 }, () => ({ json: {} })),
		});
		expect(items).toHaveLength(5);
		expect(scope.isDone()).toBe(true);
		// 2 at once, 2 after one window, the last after two; a window counts from a request's answer,
		// and the manual clock may move on while an answer is on its way (at most one window more).
		expect(clock.elapsed()).toBeGreaterThanOrEqual(120_000);
		expect(clock.elapsed()).toBeLessThanOrEqual(180_000);
	});

	test('the default budget is the API limit: 120 requests go at once, the 121st waits a minute', async () => {
		nock(API).get('/v1/contacts/ctc_1').times(121).reply(200, { data: contact });
		await runDeclarativeNode(node, getContact, {
			items: Array.from({ length: 121 }, () => ({ json: {} })),
		});
		expect(waits).toEqual([60_000]);
		// 121 items through RoutingNode: on a loaded 2-core machine this outlived jest's 30 s hang guard
	}, 120_000);

	test('the budget belongs to the API key: the same key shares it, another key has its own', async () => {
		nock(API).get('/v1/contacts/ctc_1').times(3).reply(200, { data: contact });
		const otherKey = 'svc_' + 'Zz9yXw8vUt7sRq6pOn5mLk4jIh3gFe2d';
		await runDeclarativeNode(node, getContact, paced(1));
		await runDeclarativeNode(node, getContact, {
			credentials: { ...paced(1).credentials, apiKey: otherKey },
		});
		expect(waits).toEqual([]);
		await runDeclarativeNode(node, getContact, paced(1));
		expect(waits).toEqual([60_000]);
	});

	test("the legacy Base URL (/api/v1) and the current one (/v1) share the key's budget", async () => {
		nock(API).get('/v1/contacts/ctc_1').reply(200, { data: contact });
		nock(API).get('/api/v1/contacts/ctc_1').reply(200, { data: contact });
		await runDeclarativeNode(node, getContact, paced(1));
		await runDeclarativeNode(node, getContact, paced(1, `${API}/api/v1/`));
		expect(waits).toEqual([60_000]);
	});

	test('two credentials with the same key and different Requests per Minute: the lowest wins', async () => {
		nock(API).get('/v1/contacts/ctc_1').times(3).reply(200, { data: contact });
		await runDeclarativeNode(node, getContact, paced(1));
		await runDeclarativeNode(node, getContact, paced(120)); // the 1 still holds for the key
		expect(waits).toEqual([60_000]);
		await runDeclarativeNode(node, getContact, paced(120));
		expect(waits).toEqual([60_000, 60_000]);
	});

	test("a saved credential with the former hidden Rate Window runs on the API's minute", async () => {
		nock(API).get('/v1/contacts/ctc_1').times(2).reply(200, { data: contact });
		const old = { credentials: { ...paced(1).credentials, rateWindowSeconds: 1 } };
		await runDeclarativeNode(node, getContact, old);
		await runDeclarativeNode(node, getContact, old);
		expect(waits).toEqual([60_000]);
	});

	test('a cancelled execution stops waiting for the budget at once and sends nothing', async () => {
		const scope = nock(API).get('/v1/contacts/ctc_1').reply(200, { data: contact });
		await runDeclarativeNode(node, getContact, paced(1));
		const cancel = new AbortController();
		cancel.abort();
		const error = await runDeclarativeNode(node, getContact, {
			...paced(1),
			abortSignal: cancel.signal,
		}).catch((e) => e);
		expect(error.message).toMatch(
			/^Not sent: the execution was cancelled while GET \/contacts\/ctc_1 waited/,
		);
		expect(waits).toEqual([]);
		expect(scope.isDone()).toBe(true);
		// It took no place: the next execution waits only for the first request's window.
		nock(API).get('/v1/contacts/ctc_1').reply(200, { data: contact });
		await runDeclarativeNode(node, getContact, paced(1));
		expect(waits).toEqual([60_000]);
	});

	test('a Requests per Minute that is not a number of 1 or more fails with a message naming the field', async () => {
		const error = await runDeclarativeNode(node, getContact, paced(0)).catch((e) => e);
		expect(error.message).toMatch(
			/Requests per Minute in the Business Ops API credential must be a number of 1 or more, not "0"/,
		);
	});

	test('a Retry-After longer than 120 s fails the item at once and names the wait', async () => {
		nock(API).post('/v1/contacts').reply(429, rateLimited, { 'Retry-After': '3600' });
		const error = await runDeclarativeNode(node, createContact).catch((e) => e);
		expect(waits).toEqual([]);
		expect(error.httpCode).toBe('429');
		expect(error.description).toMatch(/asked to wait 3600 s .*waits at most 120 s/);
	});

	test("a Retry-After longer than 120 s fails only its item: the key's other requests and its pace are left alone", async () => {
		nock(API)
			.post('/v1/contacts', { name: 'A' })
			.reply(429, rateLimited, { 'Retry-After': '3600' })
			.post('/v1/contacts', { name: 'B' })
			.reply(201, { data: { id: 'ctc_b', name: 'B' } });
		const { items } = await runDeclarativeNode(
			node,
			{ resource: 'contact', operation: 'create', name: '={{ $json.name }}' },
			{
				...paced(3),
				items: [{ json: { name: 'A' } }, { json: { name: 'B' } }],
				continueOnFail: true,
			},
		);
		expect(items.map((i) => i.json.id ?? null)).toEqual([null, 'ctc_b']);
		expect(items[0].error?.description).toMatch(/asked to wait 3600 s/);
		// No pause for the key, no slower pace: the third request of the window goes at once.
		nock(API).get('/v1/contacts/ctc_1').reply(200, { data: contact });
		await runDeclarativeNode(node, getContact, paced(3));
		expect(waits).toEqual([]);
	});

	test('a Retry-After beyond 2^31 ms does not fire at once: it fails the item', async () => {
		nock(API).get('/v1/contacts/ctc_1').reply(429, rateLimited, { 'Retry-After': '99999999' });
		const error = await runDeclarativeNode(node, getContact).catch((e) => e);
		expect(waits).toEqual([]);
		expect(error.description).toMatch(/asked to wait 99999999 s/);
	});

	// errors.ts words it (transport.ts only gives up): an item is run again, a poll is the next one
	test('a Retry-After longer than 120 s: the description says which was given up, an item or a poll', async () => {
		const wording = (what: string, then: string) =>
			`The API asked to wait 3600 s before the next request (Retry-After); the node waits at most 120 s, so it gave up on ${what} instead of holding up every workflow that uses this credential. ${then}, or check the key's usage in the dashboard.`;
		nock(API).get('/v1/contacts/ctc_1').reply(429, rateLimited, { 'Retry-After': '3600' });
		const error = await runDeclarativeNode(node, getContact).catch((e) => e);
		expect(error.description).toBe(wording('this item', 'Run it again later'));
		nock(API)
			.get(/^\/v1\/contacts/)
			.reply(429, rateLimited, { 'Retry-After': '3600' });
		const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100 };
		const trigger = new BusinessOpsPollingTrigger();
		const poll = createTestNode(trigger, { events: ['contact.created'] }, { credentials });
		const ctx = new PollContext(
			poll.workflow,
			poll.node,
			poll.additionalData,
			'trigger',
			'activate',
		);
		const pollError = await trigger.poll.call(ctx).catch((e) => e);
		expect(pollError.message).toBe('Too many requests (HTTP 429 rate_limited, GET /contacts)');
		expect(pollError.description).toBe(wording('this poll', 'The next poll tries again'));
	});
});

describe('On Error', () => {
	const fourItems = [
		{ json: { name: 'A', email: 'a@example.com' } },
		{ json: { name: 'B', email: 'taken@example.com' } },
		{ json: { name: 'C', email: 'not-an-email' } },
		{ json: { name: 'D', email: 'd@example.com' } },
	];
	const createFromInput = {
		resource: 'contact',
		operation: 'create',
		name: '={{ $json.name }}',
		additionalFields: { email: '={{ $json.email }}' },
	};
	const duplicate = {
		error: { code: 'duplicate_resource', message: 'A contact with this e-mail exists' },
	};

	test('Stop Workflow: no write is sent after a failed item; the error names the items not sent', async () => {
		const a = nock(API)
			.post('/v1/contacts', (b) => b.name === 'A')
			.reply(201, { data: { id: 'ctc_a', name: 'A' } });
		const b = nock(API)
			.post('/v1/contacts', (b) => b.name === 'B')
			.reply(409, duplicate);
		const d = nock(API)
			.post('/v1/contacts', (b) => b.name === 'D')
			.reply(201, { data: { id: 'ctc_d', name: 'D' } });
		const error = await runDeclarativeNode(node, createFromInput, { items: fourItems }).catch(
			(e) => e,
		);
		expect(a.isDone()).toBe(true);
		expect(b.isDone()).toBe(true);
		expect(d.isDone()).toBe(false);
		expect(error.message).toBe(
			'A contact with this e-mail exists (HTTP 409 duplicate_resource, POST /contacts) [item 1]',
		);
		// item 2's input was refused too, but it was not sent either: it waited for item 1
		expect(error.description).toContain(
			'Items 2, 3 were not sent: with On Error set to "Stop Workflow", no later item is sent once one fails.',
		);
	});

	test('Stop Workflow: a failed input check stops the later writes too', async () => {
		const a = nock(API)
			.post('/v1/contacts', (b) => b.name === 'A')
			.reply(201, { data: { id: 'ctc_a', name: 'A' } });
		const d = nock(API)
			.post('/v1/contacts', (b) => b.name === 'D')
			.reply(201, { data: { id: 'ctc_d', name: 'D' } });
		const items = [fourItems[0], fourItems[2], fourItems[3]];
		const error = await runDeclarativeNode(node, createFromInput, { items }).catch((e) => e);
		expect(a.isDone()).toBe(true);
		expect(d.isDone()).toBe(false);
		expect(error.message).toMatch(/not-an-email.*\[item 1\]/);
		expect(error.description).toContain(
			'Item 2 was not sent: with On Error set to "Stop Workflow", no later item is sent once one fails.',
		);
	});

	test('Stop Workflow: writes go one at a time in item order; Continue sends them together', async () => {
		const watch = () => {
			const seen = { order: [] as string[], inFlight: 0, most: 0 };
			nock(API)
				.post('/v1/contacts')
				.times(3)
				.reply(function (_uri, body, callback) {
					const name = (body as { name: string }).name;
					seen.order.push(name);
					seen.most = Math.max(seen.most, ++seen.inFlight);
					setTimeout(() => {
						seen.inFlight--;
						callback(null, [201, { data: { id: `ctc_${name}`, name } }]);
					}, 20);
				});
			return seen;
		};
		const items = [fourItems[0], fourItems[3], { json: { name: 'E', email: 'e@example.com' } }];
		const stop = watch();
		await runDeclarativeNode(node, createFromInput, { items });
		expect(stop).toEqual({ order: ['A', 'D', 'E'], inFlight: 0, most: 1 });
		const go = watch();
		await runDeclarativeNode(node, createFromInput, { items, continueOnFail: true });
		expect(go.most).toBe(3);
	});

	test('Continue: every item is tried and each failed item carries its error', async () => {
		nock(API)
			.post('/v1/contacts', (b) => b.name === 'A')
			.reply(201, { data: { id: 'ctc_a', name: 'A' } });
		nock(API)
			.post('/v1/contacts', (b) => b.name === 'B')
			.reply(409, duplicate);
		const d = nock(API)
			.post('/v1/contacts', (b) => b.name === 'D')
			.reply(201, { data: { id: 'ctc_d', name: 'D' } });
		const { items } = await runDeclarativeNode(node, createFromInput, {
			items: fourItems,
			continueOnFail: true,
		});
		expect(d.isDone()).toBe(true);
		expect(items.map((i) => i.json.id ?? null)).toEqual(['ctc_a', null, null, 'ctc_d']);
		expect(items[1].error?.message).toMatch(/\[item 1\]/);
		expect(items[2].error?.message).toMatch(/not-an-email.*\[item 2\]/);
	});
});
