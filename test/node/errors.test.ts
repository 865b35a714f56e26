// What an API error says to do, for every status (not only those with a text of their own), and
// a Base URL without its version segment, through n8n-core's engine.
import nock from 'nock';

import { byId, runDeclarativeNode } from '../harness/engine';
import { API, node } from '../harness/actionNode';

const getContact = { resource: 'contact', operation: 'get', contactId: byId('ctc_1') };
const createContact = { resource: 'contact', operation: 'create', name: 'Bakkerij' };
const getManyContacts = { resource: 'contact', operation: 'getAll', returnAll: true };

const INTERNAL = /internal error/i;

describe('a status without a text of its own does not read as an internal error', () => {
	test.each([
		[405, /does not take this method.*version segment/],
		[406, /cannot answer in JSON/],
		[
			408,
			/gave up waiting.*; for a create, update or delete, check whether the change was made before repeating it\.$/,
		],
		[410, /gone/],
		[413, /too large.*fewer line items/],
		[414, /address is too long/],
		[415, /did not accept the body as JSON/],
		[418, /refused the request with HTTP 418/],
		[451, /refused the request with HTTP 451/],
		[501, /does not offer this operation/],
		[502, /gateway.*no good answer from it\. Try again later/],
		[503, /unavailable for now\. Try again later/],
		[504, /gateway.*no answer in time\. Try again later/],
		[599, /server error 599/],
	])('%i', async (status, fix) => {
		// a POST is never repeated, so one answer is all the test needs
		nock(API)
			.post('/v1/contacts')
			.reply(status, { error: { code: `code_${status}`, message: `Status ${status}` } });
		const error = await runDeclarativeNode(node, createContact).catch((e) => e);
		expect(error.message).toBe(
			`Status ${status} (HTTP ${status} code_${status}, POST /contacts) [item 0]`,
		);
		expect(error.httpCode).toBe(String(status));
		expect(error.description).toMatch(fix);
		expect(error.description).not.toMatch(INTERNAL);
	});

	test('500 still says the API had an internal error', async () => {
		nock(API)
			.post('/v1/contacts')
			.reply(500, { error: { code: 'internal_error', message: 'Boom' } });
		const error = await runDeclarativeNode(node, createContact).catch((e) => e);
		expect(error.description).toMatch(INTERNAL);
		expect(error.description).toMatch(/^The API had an internal error\. Try again later; /);
	});

	test('an answer without the error envelope keeps the status and a clear text', async () => {
		nock(API).post('/v1/contacts').reply(413, '<html>Request Entity Too Large</html>');
		const error = await runDeclarativeNode(node, createContact).catch((e) => e);
		expect(error.message).toMatch(/\(HTTP 413 http_413, POST \/contacts\) \[item 0\]$/);
		expect(error.description).toMatch(/too large/);
	});
});

describe('404', () => {
	test('on a record: check the ID (and the Base URL if every call gives 404)', async () => {
		nock(API)
			.get('/v1/contacts/ctc_1')
			.reply(404, { error: { code: 'not_found', message: 'Contact "ctc_1" was not found' } });
		const error = await runDeclarativeNode(node, getContact).catch((e) => e);
		expect(error.description).toMatch(/^Check the ID/);
	});

	test('on Get Many with a Base URL without its version segment: the Base URL is named, not the ID', async () => {
		nock(API)
			.get('/contacts')
			.query(true)
			.reply(404, { error: { code: 'not_found', message: 'No route for GET /contacts' } });
		const error = await runDeclarativeNode(node, getManyContacts, {
			credentials: { apiKey: `svc_${'a'.repeat(32)}`, baseUrl: API },
		}).catch((e) => e);
		expect(error.message).toBe(
			'No route for GET /contacts (HTTP 404 not_found, GET /contacts) [item 0]',
		);
		expect(error.description).toMatch(
			/Base URL in the credential is most likely incomplete: it must end with the version segment/,
		);
		expect(error.description).not.toMatch(/Check the ID/);
	});

	test.each([
		[{ resource: 'me', operation: 'get' }, '/me'],
		[{ resource: 'webhook', operation: 'getEventTypes' }, '/webhooks/events'],
	])('on %j the Base URL is named too', async (params, path) => {
		nock(API)
			.get(`/v1${path}`)
			.query(true)
			.reply(404, { error: { code: 'not_found', message: 'No route' } });
		const error = await runDeclarativeNode(node, params).catch((e) => e);
		expect(error.description).toMatch(/version segment/);
		expect(error.description).not.toMatch(/Check the ID/);
	});
});

describe('the ID check', () => {
	test.each(['.', '..'])(
		'refuses "%s", which the address would normalise into another path',
		async (id) => {
			const error = await runDeclarativeNode(node, { ...getContact, contactId: byId(id) }).catch(
				(e) => e,
			);
			expect(error.message).toBe(
				`Contact: "${id}" is not an ID: "." and ".." name a folder of the address, not a record [item 0]`,
			);
		},
	);

	test('takes an ID with dots inside it', async () => {
		nock(API)
			.get('/v1/contacts/ctc.1..2')
			.reply(200, { data: { id: 'ctc.1..2' } });
		const { items } = await runDeclarativeNode(node, {
			...getContact,
			contactId: byId('ctc.1..2'),
		});
		expect(items[0].json).toEqual({ id: 'ctc.1..2' });
	});
});

describe('as an AI tool, errors say what to change in the arguments (every path: toolErrors.test.ts)', () => {
	it('an unknown ID: no item number, no advice about the Base URL or running the node again', async () => {
		nock(API)
			.get('/v1/contacts/ctc_1')
			.reply(404, { error: { code: 'not_found', message: 'Contact not found' } });
		const fromModel = {
			...getContact,
			contactId: { __rl: true, mode: 'id', value: "={{ $fromAI('contactId') }}" },
		};
		const error = await runDeclarativeNode(node, fromModel, {
			asTool: true,
			items: [{ json: { contactId: 'ctc_1' } }],
		}).catch((e) => e);
		// n8n 2.41's AI Agent v3 hands the model the message only: what to do is in it
		expect(error.message).toMatch(
			/^Contact not found \(HTTP 404 not_found, GET \/contacts\/ctc_1\)\. .*Check the "contactId" argument/,
		);
		expect(error.description).not.toMatch(/Base URL|run the node|item/i);
	});

	it('a refused key tells the model to tell the user', async () => {
		nock(API)
			.post('/v1/contacts')
			.reply(403, {
				error: { code: 'insufficient_scope', message: 'Missing scope contacts.write' },
			});
		const error = await runDeclarativeNode(node, createContact, { asTool: true }).catch((e) => e);
		expect(error.message).not.toMatch(/\[item/);
		expect(error.description).toMatch(/tell the user/);
	});

	it('a bad argument names the argument the model sees (its $fromAI key), nothing is sent', async () => {
		const error = await runDeclarativeNode(
			node,
			{
				...createContact,
				additionalFields: { email: "={{ $fromAI('email', 'E-mail address') }}" },
			},
			{ asTool: true, items: [{ json: { email: 'not-an-address' } }] },
		).catch((e) => e);
		expect(error.message).toBe(
			'Argument "email": "not-an-address" is not an e-mail address. Change the "email" argument and call the tool again. Nothing was sent.',
		);
		expect(error.description).toBe(
			'Change the "email" argument and call the tool again. Nothing was sent.',
		);
	});
});

describe("the API's error fields never carry the key, whatever their type", () => {
	const KEY = `svc_${'k'.repeat(32)}`;
	const credentials = { apiKey: KEY, baseUrl: `${API}/v1` };
	/** The error as n8n keeps and shows it: every own property, then the message once more. */
	const everything = (error: Error) =>
		JSON.stringify(error, Object.getOwnPropertyNames(error)) + error.message;

	test('a key inside the error code is taken out of the message and the details', async () => {
		nock(API)
			.get('/v1/contacts/ctc_1')
			.reply(401, { error: { code: `unauthorized:${KEY}`, message: 'Unauthorized' } });
		const error = await runDeclarativeNode(node, getContact, { credentials }).catch((e) => e);
		expect(error.message).toBe(
			'Unauthorized (HTTP 401 unauthorized:[redacted], GET /contacts/ctc_1) [item 0]',
		);
		expect(everything(error)).not.toContain(KEY);
	});

	test('a message that is a list is shown as text, without the key, with status, path and item', async () => {
		nock(API)
			.get('/v1/contacts/ctc_1')
			.reply(400, {
				error: { code: 'bad_request', message: [`Authorization: Bearer ${KEY}`, 'name'] },
			});
		const error = await runDeclarativeNode(node, getContact, { credentials }).catch((e) => e);
		expect(error.message).toBe(
			'["Authorization: [redacted]","name"] (HTTP 400 bad_request, GET /contacts/ctc_1) [item 0]',
		);
		expect(everything(error)).not.toContain(KEY);
	});

	test('a number as code and an object as scope are shown as text', async () => {
		nock(API)
			.get('/v1/contacts/ctc_1')
			.reply(403, {
				error: { code: 403, message: 'Forbidden', scope: { need: `contacts.read for ${KEY}` } },
			});
		const error = await runDeclarativeNode(node, getContact, { credentials }).catch((e) => e);
		expect(error.message).toBe('Forbidden (HTTP 403 403, GET /contacts/ctc_1) [item 0]');
		expect(error.description).toContain('{"need":"contacts.read for [redacted]"}');
		expect(everything(error)).not.toContain(KEY);
	});
});
