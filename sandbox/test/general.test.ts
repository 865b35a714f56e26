import { apiClient, startTestSandbox, type TestSandbox, type Loose } from './helpers';

let t: TestSandbox;
beforeAll(async () => {
	t = await startTestSandbox();
});
afterAll(() => t.sandbox.stop());

describe('addresses and envelopes', () => {
	test('listens on 127.0.0.1 and exposes the three URLs', () => {
		expect(t.sandbox.baseUrl).toBe(`http://127.0.0.1:${t.sandbox.port}/v1`);
		expect(t.sandbox.legacyBaseUrl).toBe(`http://127.0.0.1:${t.sandbox.port}/api/v1`);
		expect(t.sandbox.controlUrl).toBe(`http://127.0.0.1:${t.sandbox.port}/__sandbox`);
	});

	test('single resources come as { data }', async () => {
		const res = await t.admin('GET', '/organization');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(Object.keys(res.body)).toEqual(['data']);
		expect(res.body.data.legalName).toBe('Bakkerij de Vries B.V.');
	});

	test('lists come as { data: [...], meta: { page, pageSize, total, hasMore } }', async () => {
		const res = await t.admin('GET', '/contacts');
		expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
		expect(res.body.meta).toEqual({ page: 1, pageSize: 25, total: 20, hasMore: false });
		expect(res.body.data).toHaveLength(20);
	});

	test('errors come as { error: { code, message } }', async () => {
		const res = await t.admin('GET', '/contacts/ctc_doesnotexist');
		expect(res.status).toBe(404);
		expect(res.body).toEqual({
			error: { code: 'not_found', message: 'Contact "ctc_doesnotexist" was not found' },
		});
	});

	test('the legacy base /api/v1 serves the same routes with the same answers', async () => {
		const legacy = apiClient(t.sandbox.legacyBaseUrl, t.sandbox.keys.admin);
		for (const path of [
			'/me',
			'/organization',
			'/contacts?pageSize=3',
			'/quotes',
			'/invoices',
			'/agents',
			'/requests',
			'/webhooks/events',
		]) {
			const [now, old] = await Promise.all([t.admin('GET', path), legacy('GET', path)]);
			expect(old.status).toBe(now.status);
			expect(old.body).toEqual(now.body);
		}
		const created = await legacy('POST', '/contacts', {
			name: 'Legacy Klant',
			email: 'legacy@klant.nl',
		});
		expect(created.status).toBe(201);
		expect((await t.admin('GET', `/contacts/${created.body.data.id}`)).body.data.name).toBe(
			'Legacy Klant',
		);
		expect((await legacy('DELETE', `/contacts/${created.body.data.id}`)).body).toEqual({
			data: { id: created.body.data.id, deleted: true },
		});
	});
});

describe('pagination', () => {
	test('page and pageSize cut the list in creation order', async () => {
		const all = (await t.admin('GET', '/contacts?pageSize=100')).body.data.map(
			(c: { id: string }) => c.id,
		);
		const page2 = await t.admin('GET', '/contacts?page=2&pageSize=7');
		expect(page2.body.meta).toEqual({ page: 2, pageSize: 7, total: 20, hasMore: true });
		expect(page2.body.data.map((c: { id: string }) => c.id)).toEqual(all.slice(7, 14));
		const last = await t.admin('GET', '/contacts?page=3&pageSize=7');
		expect(last.body.meta.hasMore).toBe(false);
		expect(last.body.data).toHaveLength(6);
		const beyond = await t.admin('GET', '/contacts?page=9&pageSize=7');
		expect(beyond.status).toBe(200);
		expect(beyond.body).toEqual({
			data: [],
			meta: { page: 9, pageSize: 7, total: 20, hasMore: false },
		});
	});

	test('pageSize 100 is the maximum', async () => {
		expect((await t.admin('GET', '/contacts?pageSize=100')).status).toBe(200);
		const res = await t.admin('GET', '/contacts?pageSize=101');
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({
			code: 'invalid_request',
			message: '"pageSize" must be an integer from 1 to 100',
			field: 'pageSize',
		});
	});

	test.each([
		['page=0', 'page'],
		['page=1.5', 'page'],
		['page=abc', 'page'],
		['pageSize=0', 'pageSize'],
		['pageSize=-3', 'pageSize'],
		['pageSize=ten', 'pageSize'],
	])('%s is refused naming the field', async (query, name) => {
		const res = await t.admin('GET', `/quotes?${query}`);
		expect(res.status).toBe(400);
		expect(res.body.error.code).toBe('invalid_request');
		expect(res.body.error.message).toContain(`"${name}"`);
		expect(res.body.error.field).toBe(name);
	});

	test('every list paginates the same way', async () => {
		for (const path of [
			'/quotes',
			'/invoices',
			'/agents',
			'/requests',
			'/webhooks',
			'/webhooks/events',
		]) {
			const res = await t.admin('GET', `${path}?pageSize=2`);
			expect(res.status).toBe(200);
			expect(res.body.meta.pageSize).toBe(2);
			expect(res.body.data.length).toBeLessThanOrEqual(2);
		}
	});
});

describe('routing and bodies', () => {
	test('unknown routes answer 404 not_found, also outside the base paths', async () => {
		for (const path of ['/v1/nothing', '/v1/contacts/x/y', '/nothing', '/v2/contacts']) {
			const res = await fetch(`http://127.0.0.1:${t.sandbox.port}${path}`, {
				headers: { Authorization: `Bearer ${t.sandbox.keys.admin}` },
			});
			expect(res.status).toBe(404);
			expect(((await res.json()) as Loose).error.code).toBe('not_found');
		}
	});

	test('a known path with a wrong method answers 405 with Allow', async () => {
		const res = await t.admin('PUT', '/contacts');
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('GET, POST');
		expect(res.body.error.code).toBe('method_not_allowed');
	});

	test('a trailing slash is ignored', async () => {
		expect((await t.admin('GET', '/contacts/')).status).toBe(200);
	});

	test('malformed JSON answers 400 invalid_json', async () => {
		const res = await t.admin('POST', '/contacts', '{"name": "x",');
		expect(res.status).toBe(400);
		expect(res.body.error.code).toBe('invalid_json');
	});

	test.each([['[1,2]'], ['"text"'], ['42'], ['null']])(
		'a body that is not a JSON object (%s) answers 400',
		async (body) => {
			const res = await t.admin('POST', '/contacts', body);
			expect(res.status).toBe(400);
			expect(res.body.error).toEqual({
				code: 'invalid_request',
				message: 'The request body must be a JSON object',
			});
		},
	);

	test('PATCH bodies must be JSON objects too', async () => {
		const res = await t.admin('PATCH', '/organization', '[]');
		expect(res.status).toBe(400);
		expect(res.body.error.code).toBe('invalid_request');
	});

	test('a body sent without Content-Type: application/json is refused', async () => {
		const res = await t.admin('POST', '/contacts', JSON.stringify({ name: 'X' }), {
			'Content-Type': 'text/plain',
		});
		expect(res.status).toBe(400);
		expect(res.body.error.message).toContain('Content-Type: application/json');
	});

	test('unknown fields are refused naming the field', async () => {
		const res = await t.admin('POST', '/contacts', { name: 'X', nickname: 'Y' });
		expect(res.status).toBe(400);
		expect(res.body.error.message).toMatch(/^"nickname" is not a known field/);
		expect(res.body.error.field).toBe('nickname');
	});

	test('bodies over 1 MiB answer 413', async () => {
		const res = await t.admin('POST', '/contacts', { name: 'x'.repeat(1_100_000) });
		expect(res.status).toBe(413);
		expect(res.body.error.code).toBe('payload_too_large');
	});
});

describe('authentication and scopes', () => {
	test('a missing key answers 401 unauthorized', async () => {
		const res = await t.as(null)('GET', '/contacts');
		expect(res.status).toBe(401);
		expect(res.body.error.code).toBe('unauthorized');
	});

	test('an invalid key answers 401', async () => {
		const admin = t.sandbox.keys.admin;
		const oneCharOff = admin.slice(0, -1) + (admin.endsWith('x') ? 'y' : 'x');
		for (const key of ['svc_' + 'A'.repeat(32), 'svc_short', oneCharOff, 'not-a-key']) {
			const res = await t.as(key)('GET', '/contacts');
			expect(res.status).toBe(401);
			expect(res.body.error).toEqual({ code: 'unauthorized', message: 'Invalid API key' });
		}
	});

	test('a scheme other than Bearer answers 401', async () => {
		const res = await t.as(null)('GET', '/me', undefined, {
			Authorization: `Basic ${t.sandbox.keys.admin}`,
		});
		expect(res.status).toBe(401);
	});

	test('the read-only key reads everything and writes nothing (403 naming the scope)', async () => {
		const readOnly = t.as(t.sandbox.keys.readOnly);
		for (const path of [
			'/me',
			'/organization',
			'/contacts',
			'/quotes',
			'/invoices',
			'/agents',
			'/requests',
			'/webhooks',
			'/webhooks/events',
		]) {
			expect((await readOnly('GET', path)).status).toBe(200);
		}
		const res = await readOnly('POST', '/contacts', { name: 'Nope' });
		expect(res.status).toBe(403);
		expect(res.body.error).toEqual({
			code: 'insufficient_scope',
			message: 'This API key lacks the scope "contacts.write"',
			scope: 'contacts.write',
		});
		const writes: Array<[string, string, string]> = [
			['PATCH', '/organization', 'organization.write'],
			['POST', '/quotes', 'quotes.write'],
			['POST', '/invoices', 'invoices.write'],
			['POST', '/agents/x/pause', 'agents.write'],
			['PATCH', '/agents/x/autonomy', 'agents.write'],
			['POST', '/requests', 'requests.write'],
			['POST', '/webhooks', 'webhooks.write'],
			['DELETE', '/webhooks/x', 'webhooks.write'],
			['POST', '/webhooks/x/test', 'webhooks.write'],
		];
		for (const [method, path, scope] of writes) {
			const denied = await readOnly(method, path, {});
			expect(denied.status).toBe(403);
			expect(denied.body.error.scope).toBe(scope);
			expect(denied.body.error.message).toBe(`This API key lacks the scope "${scope}"`);
		}
	});

	test('contacts.* grants every contact action and nothing else', async () => {
		const contactsOnly = t.as(t.sandbox.keys.contactsOnly);
		const created = await contactsOnly('POST', '/contacts', { name: 'Wildcard B.V.' });
		expect(created.status).toBe(201);
		expect(
			(
				await contactsOnly('PATCH', `/contacts/${created.body.data.id}`, {
					phone: '+31 6 1111 2222',
				})
			).status,
		).toBe(200);
		expect((await contactsOnly('DELETE', `/contacts/${created.body.data.id}`)).status).toBe(200);
		const quotes = await contactsOnly('GET', '/quotes');
		expect(quotes.status).toBe(403);
		expect(quotes.body.error.message).toBe('This API key lacks the scope "quotes.read"');
		expect((await contactsOnly('GET', '/me')).body.error.scope).toBe('organization.read');
	});

	test('scope * grants everything', async () => {
		const { key } = t.control.createKey({ scopes: ['*'] });
		expect((await t.as(key)('PATCH', '/organization', {})).status).toBe(200);
	});

	test('<resource>.* wildcards work for every resource', async () => {
		const { key } = t.control.createKey({ scopes: ['agents.*', 'webhooks.*'] });
		const api = t.as(key);
		expect((await api('GET', '/agents')).status).toBe(200);
		expect((await api('GET', '/webhooks/events')).status).toBe(200);
		expect((await api('GET', '/invoices')).status).toBe(403);
	});

	test('the OpenAPI document needs no key', async () => {
		expect((await t.as(null)('GET', '/openapi.json')).status).toBe(200);
	});
});

describe('organization isolation', () => {
	test('each key sees only its organization', async () => {
		const other = t.as(t.sandbox.keys.otherOrg);
		const mine = (await t.admin('GET', '/contacts?pageSize=100')).body.data;
		const theirs = (await other('GET', '/contacts?pageSize=100')).body.data;
		expect(theirs.map((c: { name: string }) => c.name)).toEqual([
			'VvE De Kade',
			'Kees Willemsen',
			'Woonstichting Maasoever',
		]);
		expect(mine.some((c: { name: string }) => c.name === 'VvE De Kade')).toBe(false);
		expect((await other('GET', '/organization')).body.data.legalName).toBe(
			'Schildersbedrijf Jansen V.O.F.',
		);
		expect((await other('GET', '/me')).body.data.organizationId).toBe(
			t.sandbox.organizationIds.other,
		);
	});

	test("another organization's ids answer 404 for every resource", async () => {
		const other = t.as(t.sandbox.keys.otherOrg);
		const ids = {
			contacts: (await t.admin('GET', '/contacts')).body.data[0].id,
			quotes: (await t.admin('GET', '/quotes')).body.data[0].id,
			invoices: (await t.admin('GET', '/invoices')).body.data[0].id,
			agents: (await t.admin('GET', '/agents')).body.data[0].id,
			requests: (await t.admin('GET', '/requests')).body.data[0].id,
		};
		for (const [resource, id] of Object.entries(ids)) {
			expect((await other('GET', `/${resource}/${id}`)).status).toBe(404);
		}
		expect((await other('PATCH', `/contacts/${ids.contacts}`, { name: 'Hijack' })).status).toBe(
			404,
		);
		expect((await other('DELETE', `/quotes/${ids.quotes}`)).status).toBe(404);
		expect((await other('POST', `/agents/${ids.agents}/pause`)).status).toBe(404);
		expect(
			(
				await other('POST', '/quotes', {
					contactId: ids.contacts,
					items: [{ name: 'x', quantity: 1, unitPrice: 1 }],
				})
			).status,
		).toBe(400);
	});
});
