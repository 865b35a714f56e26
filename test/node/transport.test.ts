import nock from 'nock';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { clearRateLimitGates, timing } from '../../nodes/shared/api/rateLimitGate';
import { retryDelayMs } from '../../nodes/shared/api/transport';
import { captureLogWarnings, loadNodeType, runDeclarativeNode } from '../harness/engine';

const node = loadNodeType(new BusinessOps());
const API = 'https://api.business-ops.test';
const contact = { id: 'ctc_1', name: 'Bakkerij de Vries' };
const getContact = { resource: 'contact', operation: 'get', contactId: { __rl: true, mode: 'id', value: 'ctc_1' } };
const createContact = { resource: 'contact', operation: 'create', name: 'Bakkerij de Vries' };
const rateLimited = { error: { code: 'rate_limited', message: 'Too many requests' } };
const connectionReset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const serverError = { error: { code: 'internal_error', message: 'Something broke' } };

let waits: number[];
const realTiming = { ...timing };

beforeEach(() => {
	waits = [];
	clearRateLimitGates();
	let now = 1_000_000;
	timing.now = () => now;
	timing.sleep = async (ms: number) => {
		waits.push(ms);
		now += ms;
	};
});
afterEach(() => {
	Object.assign(timing, realTiming);
	nock.cleanAll();
});

describe('429 rate limited', () => {
	test('waits Retry-After, then succeeds', async () => {
		const scope = nock(API)
			.get('/v1/contacts/ctc_1').reply(429, rateLimited, { 'Retry-After': '3' })
			.get('/v1/contacts/ctc_1').reply(200, { data: contact });
		const { items } = await runDeclarativeNode(node, getContact);
		expect(items.map((i) => i.json)).toEqual([contact]);
		expect(waits).toEqual([3000]);
		expect(scope.isDone()).toBe(true);
	});

	test('without Retry-After waits 1 s and backs off exponentially', async () => {
		const scope = nock(API)
			.get('/v1/contacts/ctc_1').times(3).reply(429, rateLimited)
			.get('/v1/contacts/ctc_1').reply(200, { data: contact });
		await runDeclarativeNode(node, getContact);
		expect(waits).toEqual([1000, 2000, 4000]);
		expect(scope.isDone()).toBe(true);
	});

	test('retries a POST too (a 429 means nothing was done) and gives up after 5 attempts', async () => {
		const scope = nock(API).post('/v1/contacts').times(5).reply(429, rateLimited, { 'Retry-After': '1' });
		const error = await runDeclarativeNode(node, createContact).catch((e) => e);
		expect(scope.isDone()).toBe(true);
		expect(waits).toEqual([1000, 2000, 4000, 8000]);
		expect(error.message).toBe('Too many requests (HTTP 429 rate_limited, POST /contacts) [item 0]');
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
			.get('/v1/contacts/ctc_1').reply(500, serverError)
			.get('/v1/contacts/ctc_1').reply(200, { data: contact });
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
		expect(error.message).toBe('Something broke (HTTP 500 internal_error, POST /contacts) [item 0]');
	});

	test('a PATCH and a DELETE are never retried after a connection reset', async () => {
		nock(API).patch('/v1/contacts/ctc_1').replyWithError(connectionReset());
		const patchError = await runDeclarativeNode(node, {
			...getContact,
			operation: 'update',
			updateFields: { name: 'x' },
		}).catch((e) => e);
		expect(patchError.message).toBe('Could not complete PATCH /contacts/ctc_1: the connection was closed by the server [item 0]');
		expect(patchError.description).toMatch(/not repeated because it changes data.*econnreset/);

		nock(API).delete('/v1/contacts/ctc_1').replyWithError(connectionReset());
		const deleteError = await runDeclarativeNode(node, { ...getContact, operation: 'delete' }).catch((e) => e);
		expect(deleteError.message).toBe('Could not complete DELETE /contacts/ctc_1: the connection was closed by the server [item 0]');
		expect(waits).toEqual([]);
	});

	test('a GET is retried after a connection reset, at most 5 attempts', async () => {
		const scope = nock(API)
			.get('/v1/contacts/ctc_1').times(5)
			.replyWithError(connectionReset());
		const error = await runDeclarativeNode(node, getContact).catch((e) => e);
		expect(scope.isDone()).toBe(true);
		expect(waits).toHaveLength(4);
		expect(error.message).toBe('Could not complete GET /contacts/ctc_1: the connection was closed by the server [item 0]');
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
			.reply(403, { error: { code: 'insufficient_scope', message: 'This API key lacks the scope "contacts.write"' } });
		const error = await runDeclarativeNode(node, createContact).catch((e) => e);
		expect(error.message).toBe(
			'This API key lacks the scope "contacts.write" (HTTP 403 insufficient_scope, POST /contacts) [item 0]',
		);
		expect(error.description).toMatch(/lacks the scope "contacts.write".*"contacts\.\*"/);
	});

	test('continue-on-fail keeps the other items going, each error names its item', async () => {
		nock(API)
			.post('/v1/contacts', { name: 'A' }).reply(201, { data: { id: 'ctc_a', name: 'A' } })
			.post('/v1/contacts', { name: 'B' }).reply(409, { error: { code: 'duplicate_resource', message: 'Exists' } })
			.post('/v1/contacts', { name: 'C' }).reply(201, { data: { id: 'ctc_c', name: 'C' } });
		const { items } = await runDeclarativeNode(
			node,
			{ resource: 'contact', operation: 'create', name: '={{ $json.name }}' },
			{ items: [{ json: { name: 'A' } }, { json: { name: 'B' } }, { json: { name: 'C' } }], continueOnFail: true },
		);
		expect(items.map((i) => i.json.id ?? null)).toEqual(['ctc_a', null, 'ctc_c']);
		expect(items[1].error?.message).toBe('Exists (HTTP 409 duplicate_resource, POST /contacts) [item 1]');
	});
});

test('a Deprecation header is reported as a warning in the n8n log', async () => {
	nock(API)
		.get('/v1/contacts/ctc_1')
		.reply(200, { data: contact }, { Deprecation: 'true', Sunset: 'Wed, 31 Dec 2027 23:59:59 GMT' });
	const { warnings, restore } = captureLogWarnings();
	const { items } = await runDeclarativeNode(node, getContact).finally(restore);
	expect(items[0].json).toEqual(contact);
	expect(warnings).toEqual([
		'Business Ops: this API version is deprecated (Deprecation: true). It stops working after Wed, 31 Dec 2027 23:59:59 GMT. Move the credential\'s Base URL to the newer version when it is available.',
	]);
});
