import nock from 'nock';

import { runDeclarativeNode, testCredential, TEST_API_KEY } from '../harness/engine';
import { node } from '../harness/actionNode';

const me = { apiKeyId: 'key_1', organizationId: 'org_1', scopes: ['*'], prefix: 'svc_Ab3d…' };

/** The credential test of the Base URL `baseUrl` with `apiKey`. */
const testWith = async (baseUrl: string, apiKey = TEST_API_KEY) =>
	await testCredential({ apiKey, baseUrl });

function expectBearer(host: string) {
	return nock(host, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });
}

describe('credential test (GET /me)', () => {
	test('passes with the bearer key on the current /v1 base URL', async () => {
		const scope = expectBearer('https://api.example.com').get('/v1/me').reply(200, { data: me });
		const result = await testWith('https://api.example.com/v1');
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(scope.isDone()).toBe(true);
	});

	test('works the same on the legacy /api/v1 base URL with a trailing slash', async () => {
		const scope = expectBearer('https://legacy.example.com')
			.get('/api/v1/me')
			.reply(200, { data: me });
		const result = await testWith('https://legacy.example.com/api/v1/');
		expect(result.status).toBe('OK');
		expect(scope.isDone()).toBe(true);
	});

	test.each([
		[401, 'unauthorized', /^The API key was not accepted \(401\)/],
		[403, 'insufficient_scope', /lacks the scope "organization.read"/],
		[404, 'not_found', /Nothing answers at this Base URL/],
		[429, 'rate_limited', /rate limit is used up right now \(429\)/],
		[500, 'internal_error', /did not answer like the Business Ops API/],
	])('explains a %i answer without showing the key', async (status, code, message) => {
		// The explanation comes from the error code in the body (n8n 1.x does not pass the status on).
		nock('https://api.example.com')
			.get('/v1/me')
			.reply(status, { error: { code, message: 'refused' } });
		const result = await testWith('https://api.example.com/v1');
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(message);
		expect(result.message).not.toContain(TEST_API_KEY);
	});

	test.each([
		['an HTML page', 404, '<html><body>Not Found</body></html>'],
		['JSON that is not the API', 200, { status: 'ok' }],
	])('fails when the Base URL answers with %s', async (_case, status, body) => {
		nock('https://api.example.com').get('/v1/me').reply(status, body);
		const result = await testWith('https://api.example.com/v1');
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^GET \/me at this Base URL did not answer like the Business Ops API/,
			),
		});
	});

	test.each([
		['a key without the svc_ prefix', 'sk_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z1234'],
		['a key that is too short', 'svc_Ab3dEf6hIj9kLm2n'],
		['a key with characters that are not URL-safe', 'svc_Ab3dEf6hIj9kLm2nOp5qRs8tUv1w+y4z'],
		['a key with a space inside', 'svc_Ab3dEf6hIj9kLm 2nOp5qRs8tUv1wXy4'],
	])('refuses %s before sending anything', async (_case, apiKey) => {
		const result = await testWith('https://api.example.com/v1', apiKey);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The API key is not in the right form: it must be "svc_" followed by 32/,
		);
		expect(result.message).not.toContain(apiKey);
		expect(nock.pendingMocks()).toEqual([]);
	});

	test('refuses a plain http:// base URL for a remote host', async () => {
		const result = await testWith('http://api.example.com/v1');
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^The Base URL must start with https:\/\/ \(the API accepts only HTTPS\)/,
			),
		});
	});

	test('refuses a base URL that is not a URL', async () => {
		const result = await testWith('api.example.com/v1');
		expect(result.message).toMatch(/^The Base URL is not a valid URL/);
	});

	test.each(['http://127.0.0.1:4010/v1', 'http://localhost:4010/api/v1'])(
		'allows plain http:// on a loopback host (%s)',
		async (baseUrl) => {
			const url = new URL(baseUrl);
			const scope = expectBearer(url.origin).get(`${url.pathname}/me`).reply(200, { data: me });
			expect((await testCredential({ apiKey: TEST_API_KEY, baseUrl })).status).toBe('OK');
			expect(scope.isDone()).toBe(true);
		},
	);
});

describe('credential applied to node requests', () => {
	test.each([
		['https://api.example.com/v1', 'https://api.example.com', '/v1/me'],
		['https://api.example.com/v1/', 'https://api.example.com', '/v1/me'],
		['https://old.example.com/api/v1', 'https://old.example.com', '/api/v1/me'],
		['https://old.example.com/api/v1//', 'https://old.example.com', '/api/v1/me'],
	])('base URL %s joins to %s%s', async (baseUrl, origin, path) => {
		const scope = expectBearer(origin).get(path).reply(200, { data: me });
		const { items } = await runDeclarativeNode(
			node,
			{ resource: 'me', operation: 'get' },
			{ credentials: { apiKey: TEST_API_KEY, baseUrl } },
		);
		expect(items.map((item) => item.json)).toEqual([me]);
		expect(scope.isDone()).toBe(true);
	});

	test('an invalid key fails the node with the format message, never the key', async () => {
		const apiKey = 'svc_tooShortButSecret';
		const error = await runDeclarativeNode(
			node,
			{ resource: 'me', operation: 'get' },
			{ credentials: { apiKey, baseUrl: 'https://api.example.com/v1' } },
		).catch((e: Error) => e);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toContain('The API key is not in the right form');
		expect(JSON.stringify(error)).not.toContain(apiKey);
		expect((error as Error).message).not.toContain(apiKey);
	});

	test('an API error never carries the key', async () => {
		nock('https://api.example.com')
			.get('/v1/me')
			.reply(401, { error: { code: 'unauthorized', message: 'Invalid API key' } });
		const error = (await runDeclarativeNode(
			node,
			{ resource: 'me', operation: 'get' },
			{ credentials: { apiKey: TEST_API_KEY, baseUrl: 'https://api.example.com/v1' } },
		).catch((e: Error) => e)) as Error & { description?: string };
		expect(error.message).toBe('Invalid API key (HTTP 401 unauthorized, GET /me) [item 0]');
		const everything = JSON.stringify({ ...error, message: error.message, stack: error.stack });
		expect(everything).not.toContain(TEST_API_KEY);
	});
});
