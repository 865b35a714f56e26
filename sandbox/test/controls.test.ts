import { TimerSet } from '../src/timers';
import { startReceiver, startTestSandbox, type TestSandbox, type Loose } from './helpers';

/** The delays the sandbox's timers are asked for from now on (hang, latency): no clock is read. */
function waitsOfTimers(): number[] {
	const waits: number[] = [];
	const delay = TimerSet.prototype.delay;
	jest.spyOn(TimerSet.prototype, 'delay').mockImplementation(function (this: TimerSet, ms: number) {
		waits.push(ms);
		return delay.call(this, ms);
	});
	return waits;
}

afterEach(() => jest.restoreAllMocks());

let t: TestSandbox;
beforeAll(async () => {
	t = await startTestSandbox();
});
afterAll(() => t.sandbox.stop());
beforeEach(() => t.control.reset());

async function control(
	method: string,
	path: string,
	body?: unknown,
): Promise<{ status: number; body: Loose }> {
	const res = await fetch(`${t.sandbox.controlUrl}${path}`, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, body: await res.json() };
}

describe('reset', () => {
	test('brings back the seed data, clears logs, keeps keys', async () => {
		const created = t.control.createKey({ scopes: ['contacts.read'] });
		await t.admin('POST', '/contacts', { name: 'Tijdelijk' });
		await t.admin('PATCH', '/organization', { legalName: 'Anders B.V.' });
		expect(t.control.requestLog()).toHaveLength(2);
		expect((await control('POST', '/reset')).body).toEqual({ data: { reset: true } });
		expect(t.control.requestLog()).toEqual([]);
		expect(t.control.events()).toEqual([]);
		expect((await t.admin('GET', '/contacts')).body.meta.total).toBe(20);
		expect((await t.admin('GET', '/organization')).body.data.legalName).toBe(
			'Bakkerij de Vries B.V.',
		);
		expect((await t.as(created.key)('GET', '/contacts')).status).toBe(200);
	});
});

describe('seed', () => {
	test('10,000 contacts, deterministic and listable', async () => {
		const result = t.control.seed({ resource: 'contacts', count: 10_000 });
		expect(result).toMatchObject({ resource: 'contacts', created: 10_000, total: 10_020 });
		const page = await t.admin('GET', '/contacts?page=400&pageSize=25');
		expect(page.body.meta).toEqual({ page: 400, pageSize: 25, total: 10_020, hasMore: true });
		t.control.reset();
		const again = t.control.seed({ resource: 'contacts', count: 10_000 });
		expect(again.ids).toEqual(result.ids);
	});

	test('over HTTP, for quotes, invoices and requests, and for the other organization', async () => {
		for (const resource of ['quotes', 'invoices', 'requests']) {
			const res = await control('POST', '/seed', { resource, count: 50 });
			expect(res.status).toBe(200);
			expect(res.body.data.created).toBe(50);
		}
		expect((await t.admin('GET', '/quotes')).body.meta.total).toBe(58);
		expect((await t.admin('GET', '/invoices')).body.meta.total).toBe(60);
		const other = await control('POST', '/seed', {
			resource: 'contacts',
			count: 5,
			organization: 'other',
		});
		expect(other.body.data.organizationId).toBe(t.sandbox.organizationIds.other);
		expect((await t.as(t.sandbox.keys.otherOrg)('GET', '/contacts')).body.meta.total).toBe(8);
		const bad = await control('POST', '/seed', { resource: 'agents', count: 1 });
		expect(bad.status).toBe(400);
		expect(bad.body.error.field).toBe('resource');
	});

	test('seeded quotes have valid numbers and totals', async () => {
		t.control.seed({ resource: 'quotes', count: 3 });
		const quotes = (await t.admin('GET', '/quotes?pageSize=100')).body.data.slice(-3);
		for (const quote of quotes) {
			expect(quote.number).toMatch(/^OFF-\d{4}-\d{4}$/);
			expect(quote.total).toBeGreaterThan(0);
		}
	});
});

describe('fail-next', () => {
	test('the next N matching requests answer the status with an error envelope, without touching state', async () => {
		t.control.failNext({ count: 2, status: 503, path: '/contacts', method: 'POST' });
		for (let i = 0; i < 2; i++) {
			const res = await t.admin('POST', '/contacts', { name: `Fail ${i}` });
			expect(res.status).toBe(503);
			expect(res.body.error.code).toBe('service_unavailable');
		}
		expect((await t.admin('GET', '/contacts')).body.meta.total).toBe(20);
		expect((await t.admin('POST', '/contacts', { name: 'Ok' })).status).toBe(201);
	});

	test('default 500 internal_error for any request; code and Retry-After can be set', async () => {
		t.control.failNext();
		const res = await t.admin('GET', '/me');
		expect(res.status).toBe(500);
		expect(res.body.error.code).toBe('internal_error');
		t.control.failNext({ status: 429, retryAfter: 2 });
		const limited = await t.admin('GET', '/me');
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('2');
		expect(limited.body.error.code).toBe('rate_limited');
		expect((await t.admin('GET', '/me')).status).toBe(200);
	});

	test('matches full paths and prefixes, on the legacy base too', async () => {
		t.control.failNext({ path: '/api/v1/quotes*', status: 502 });
		expect((await t.admin('GET', '/quotes')).status).toBe(200);
		const legacy = await fetch(`${t.sandbox.legacyBaseUrl}/quotes`, {
			headers: { Authorization: `Bearer ${t.sandbox.keys.admin}` },
		});
		expect(legacy.status).toBe(502);
	});

	test('mode reset destroys the connection', async () => {
		await control('POST', '/fail-next', { mode: 'reset' });
		await expect(
			fetch(`${t.sandbox.baseUrl}/me`, {
				headers: { Authorization: `Bearer ${t.sandbox.keys.admin}` },
			}),
		).rejects.toThrow();
		expect((await t.admin('GET', '/me')).status).toBe(200);
		expect(t.control.requestLog()[0]).toMatchObject({
			path: '/v1/me',
			injected: 'reset',
			status: null,
		});
	});

	test('mode hang answers after ms (normally, or with the given status)', async () => {
		const waits = waitsOfTimers();
		t.control.failNext({ mode: 'hang', ms: 300 });
		expect((await t.admin('GET', '/me')).status).toBe(200);
		t.control.failNext({ mode: 'hang', ms: 200, status: 504 });
		expect((await t.admin('GET', '/me')).status).toBe(504);
		expect(waits).toEqual([300, 200]);
	});

	test('a client that gives up on a hang gets a timeout', async () => {
		t.control.failNext({ mode: 'hang', ms: 300 });
		await expect(
			fetch(`${t.sandbox.baseUrl}/me`, {
				headers: { Authorization: `Bearer ${t.sandbox.keys.admin}` },
				signal: AbortSignal.timeout(100),
			}),
		).rejects.toThrow();
		// the hang ends (and is logged) after the client left: waited for here, not in a later test's log
		const hangLogged = () => t.control.requestLog().some((e) => e.injected === 'hang');
		for (let i = 0; i < 100 && !hangLogged(); i++) await new Promise((r) => setTimeout(r, 20));
		expect(hangLogged()).toBe(true);
	});

	test('injected failures do not count against the rate limit', async () => {
		t.control.setRateLimit({ limit: 1, windowMs: 60_000 });
		t.control.failNext({ count: 3 });
		for (let i = 0; i < 3; i++) expect((await t.admin('GET', '/me')).status).toBe(500);
		expect((await t.admin('GET', '/me')).status).toBe(200);
	});

	test('fail-next input is validated', async () => {
		const res = await control('POST', '/fail-next', { status: 200 });
		expect(res.status).toBe(400);
		expect(res.body.error.field).toBe('status');
	});
});

describe('fail-next after the write: the API stores it, its answer is lost', () => {
	const contactsNamed = async (name: string) =>
		((await t.admin('GET', '/contacts?pageSize=100')).body.data as Loose[]).filter(
			(c) => c.name === name,
		);

	test('drop-after-write stores the contact, then closes the connection without any answer', async () => {
		await control('POST', '/fail-next', {
			mode: 'drop-after-write',
			method: 'POST',
			path: '/contacts',
		});
		await expect(t.admin('POST', '/contacts', { name: 'Verloren' })).rejects.toThrow();
		expect(await contactsNamed('Verloren')).toHaveLength(1);
		expect(t.control.events().map((e) => e.type)).toEqual(['contact.created']);
		expect(t.control.requestLog()).toMatchObject([
			{ method: 'POST', path: '/v1/contacts', status: null, injected: 'drop-after-write' },
			{ method: 'GET', status: 200, injected: null },
		]);
		expect((await t.admin('POST', '/contacts', { name: 'Daarna' })).status).toBe(201);
	});

	test('skip, count and bodyContains select the writes, as for the other modes; the API answer is lost whatever it was', async () => {
		t.control.failNext({ mode: 'drop-after-write', skip: 1, count: 2, method: 'POST' });
		expect((await t.admin('POST', '/contacts', { name: 'Een' })).status).toBe(201);
		await expect(t.admin('POST', '/contacts', { name: 'Twee' })).rejects.toThrow();
		await expect(t.admin('POST', '/contacts', {})).rejects.toThrow(); // a 400 lost too
		expect((await t.admin('POST', '/contacts', { name: 'Vier' })).status).toBe(201);
		for (const name of ['Een', 'Twee', 'Vier']) expect(await contactsNamed(name)).toHaveLength(1);
		t.control.failNext({ mode: 'drop-after-write', bodyContains: 'b@example.com' });
		const [a, b] = await Promise.allSettled(
			['a', 'b'].map((x) => t.admin('POST', '/contacts', { name: x, email: `${x}@example.com` })),
		);
		expect(a.status).toBe('fulfilled');
		expect(b.status).toBe('rejected');
		expect(await contactsNamed('b')).toHaveLength(1);
	});

	test('gateway-after-write applies the update, then answers 502 with an HTML page, not the API body', async () => {
		const id = (await t.admin('GET', '/contacts?pageSize=1')).body.data[0].id;
		t.control.failNext({ mode: 'gateway-after-write', method: 'PATCH' });
		const res = await t.admin('PATCH', `/contacts/${id}`, { name: 'Via de poort' });
		expect(res.status).toBe(502);
		expect(res.headers.get('content-type')).toBe('text/html');
		expect(res.body).toMatch(/^<html>.*502 Bad Gateway/);
		expect((await t.admin('GET', `/contacts/${id}`)).body.data.name).toBe('Via de poort');
		expect(t.control.requestLog().find((e) => e.method === 'PATCH')).toMatchObject({
			status: 502,
			injected: 'gateway-after-write',
		});
	});

	test('gateway-after-write: 504 with a JSON message (given or the status text), after ms', async () => {
		const waits = waitsOfTimers();
		await control('POST', '/fail-next', {
			mode: 'gateway-after-write',
			status: 504,
			gatewayBody: 'json',
			ms: 40,
		});
		const res = await t.admin('POST', '/contacts', { name: 'Te laat' });
		expect(res.status).toBe(504);
		expect(res.body).toEqual({ message: 'Gateway Timeout' });
		expect(waits).toEqual([40]);
		t.control.failNext({ mode: 'gateway-after-write', gatewayBody: 'json', message: 'upstream' });
		expect((await t.admin('POST', '/contacts', { name: 'Ook' })).body).toEqual({
			message: 'upstream',
		});
		expect(await contactsNamed('Te laat')).toHaveLength(1);
		expect(await contactsNamed('Ook')).toHaveLength(1);
	});

	test('after-write rules count against the rate limit (the API handled them)', async () => {
		t.control.setRateLimit({ limit: 1, windowMs: 60_000 });
		t.control.failNext({ mode: 'gateway-after-write' });
		expect((await t.admin('GET', '/me')).status).toBe(502);
		expect((await t.admin('GET', '/me')).status).toBe(429);
	});

	test('input is validated: a gateway answers 5xx, a drop has no status, gatewayBody only for a gateway', async () => {
		for (const [body, field] of [
			[{ mode: 'gateway-after-write', status: 404 }, 'status'],
			[{ mode: 'drop-after-write', status: 502 }, 'status'],
			[{ mode: 'status', gatewayBody: 'json' }, 'gatewayBody'],
			[{ mode: 'gateway-after-write', gatewayBody: 'xml' }, 'gatewayBody'],
			[{ mode: 'drop-before-write' }, 'mode'],
		] as const) {
			const res = await control('POST', '/fail-next', body);
			expect(res.status).toBe(400);
			expect(res.body.error.field).toBe(field);
		}
		expect(t.control.failRules()).toEqual([]);
	});
});

describe('latency', () => {
	test('is added to every API response, not to controls', async () => {
		await control('POST', '/latency', { ms: 250 });
		const waits = waitsOfTimers();
		expect((await t.admin('GET', '/me')).status).toBe(200);
		expect((await t.admin('GET', '/contacts')).status).toBe(200);
		expect(waits).toEqual([250, 250]);
		await control('GET', '/requests');
		expect(waits).toEqual([250, 250]);
		t.control.setLatency(0);
	});
});

describe('logs', () => {
	test('the request log has method, path, query, status, key id and time, never the key', async () => {
		await t.admin('GET', '/contacts?page=2&pageSize=5');
		await t.as(null)('GET', '/me');
		const log = (await control('GET', '/requests')).body.data;
		expect(log).toHaveLength(2);
		expect(log[0]).toMatchObject({
			method: 'GET',
			path: '/v1/contacts',
			query: { page: '2', pageSize: '5' },
			status: 200,
			organizationId: t.sandbox.organizationIds.primary,
		});
		expect(log[0].keyId).toMatch(/^key_/);
		expect(log[0].time).toMatch(/^\d{4}-/);
		expect(log[1]).toMatchObject({ status: 401, keyId: null });
		const text = JSON.stringify(log);
		for (const key of Object.values(t.sandbox.keys)) expect(text).not.toContain(key);
		await control('DELETE', '/requests');
		expect(t.control.requestLog()).toEqual([]);
	});

	test('the logger option never receives keys or secrets', async () => {
		const lines: string[] = [];
		const logged = await startTestSandbox({ log: (line) => lines.push(line), seed: false });
		const receiver = await startReceiver();
		try {
			const hook = (
				await logged.admin('POST', '/webhooks', { url: receiver.url, events: ['contact.created'] })
			).body.data;
			await logged.admin('POST', '/contacts', { name: 'Log' });
			await logged.control.waitForDeliveries();
			expect(lines.length).toBeGreaterThan(2);
			const text = lines.join('\n');
			for (const key of Object.values(logged.sandbox.keys)) expect(text).not.toContain(key);
			expect(text).not.toContain(hook.signingSecret);
		} finally {
			await receiver.close();
			await logged.sandbox.stop();
		}
	});

	test('the delivery log over HTTP, and DELETE clears it', async () => {
		const receiver = await startReceiver();
		try {
			await t.admin('POST', '/webhooks', { url: receiver.url, events: ['agent.paused'] });
			const agent = (await t.admin('GET', '/agents?status=active')).body.data[0];
			await t.admin('POST', `/agents/${agent.id}/pause`);
			await control('POST', '/deliveries/wait');
			const log = (await control('GET', '/deliveries')).body.data;
			expect(log).toHaveLength(1);
			expect(log[0]).toMatchObject({
				eventType: 'agent.paused',
				attempt: 1,
				statusCode: 200,
				success: true,
				url: receiver.url,
			});
			await control('DELETE', '/deliveries');
			expect((await control('GET', '/deliveries')).body.data).toEqual([]);
		} finally {
			await receiver.close();
		}
	});
});

describe('emit, signing, webhooks, keys, deprecation', () => {
	test('emit sends an event to matching subscriptions, with given data or a sample record in the status the event leaves it (the latest invoice is a draft)', async () => {
		const receiver = await startReceiver();
		try {
			await t.admin('POST', '/webhooks', { url: receiver.url, events: ['invoice.paid'] });
			await t.admin('POST', '/invoices', {
				contactId: (await t.admin('POST', '/contacts', { name: 'Ann' })).body.data.id,
				items: [{ name: 'Work', quantity: 1, unitPrice: 10 }],
			});
			const res = await control('POST', '/emit', {
				type: 'invoice.paid',
				data: { id: 'inv_custom', status: 'paid' },
			});
			expect(res.body.data.subscriptionIds).toHaveLength(1);
			const sample = t.control.emit({ type: 'invoice.paid' });
			const deliveries = await receiver.waitFor(2);
			expect(JSON.parse(deliveries[0].body).data).toEqual({ id: 'inv_custom', status: 'paid' });
			expect(JSON.parse(deliveries[1].body)).toMatchObject({
				id: sample.id,
				data: { status: 'paid' },
			});
			expect((await control('POST', '/emit', { type: 'nope' })).status).toBe(400);
		} finally {
			await receiver.close();
		}
	});

	test('the signing scheme can be switched at runtime', async () => {
		const receiver = await startReceiver();
		try {
			await t.admin('POST', '/webhooks', { url: receiver.url, events: ['contact.created'] });
			expect((await control('POST', '/signing', { scheme: 'github' })).body.data).toEqual({
				scheme: 'github',
			});
			await t.admin('POST', '/contacts', { name: 'A' });
			t.control.setSigningScheme('stripe');
			await t.admin('POST', '/contacts', { name: 'B' });
			const [github, stripe] = await receiver.waitFor(2);
			expect(github.headers['x-hub-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);
			expect(stripe.headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
			expect((await control('POST', '/signing', { scheme: 'md5' })).status).toBe(400);
		} finally {
			await receiver.close();
		}
	});

	test('GET /__sandbox/webhooks lists the subscriptions of every organization without secrets', async () => {
		const mine = (
			await t.admin('POST', '/webhooks', {
				url: 'https://example.com/a',
				events: ['quote.created'],
			})
		).body.data;
		const theirs = (
			await t.as(t.sandbox.keys.otherOrg)('POST', '/webhooks', {
				url: 'https://example.com/b',
				events: ['quote.created'],
			})
		).body.data;
		const res = await control('GET', '/webhooks');
		expect(
			res.body.data.map((w: { id: string; organizationId: string }) => [w.id, w.organizationId]),
		).toEqual([
			[mine.id, t.sandbox.organizationIds.primary],
			[theirs.id, t.sandbox.organizationIds.other],
		]);
		expect(JSON.stringify(res.body)).not.toContain('whsec_');
	});

	test('POST /__sandbox/keys creates a key once; DELETE revokes it', async () => {
		const res = await control('POST', '/keys', {
			scopes: ['quotes.read'],
			organization: 'primary',
			name: 'CI',
		});
		expect(res.body.data.key).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
		expect((await t.as(res.body.data.key)('GET', '/quotes')).status).toBe(200);
		expect((await t.as(res.body.data.key)('GET', '/contacts')).status).toBe(403);
		expect(JSON.stringify((await control('GET', '')).body)).not.toContain(res.body.data.key);
		expect((await control('DELETE', `/keys/${res.body.data.id}`)).body.data).toEqual({
			id: res.body.data.id,
			revoked: true,
		});
		expect((await t.as(res.body.data.key)('GET', '/quotes')).status).toBe(401);
	});

	test('deprecation adds Deprecation and Sunset headers to every API response', async () => {
		expect((await t.admin('GET', '/me')).headers.get('deprecation')).toBeNull();
		await control('POST', '/deprecate', { enabled: true });
		for (const res of [
			await t.admin('GET', '/me'),
			await t.as(null)('GET', '/me'),
			await t.admin('GET', '/nothing'),
		]) {
			expect(res.headers.get('deprecation')).toBe('true');
			expect(Number.isNaN(Date.parse(res.headers.get('sunset') ?? ''))).toBe(false);
		}
		t.control.setDeprecation(false);
		expect((await t.admin('GET', '/me')).headers.get('deprecation')).toBeNull();
	});

	test('GET /__sandbox describes the sandbox without plain keys; unknown controls are 404', async () => {
		const res = await control('GET', '');
		expect(res.body.data).toMatchObject({
			baseUrl: t.sandbox.baseUrl,
			signingScheme: 'standard',
			deprecated: false,
		});
		expect(res.body.data.keys.length).toBeGreaterThanOrEqual(4);
		expect(JSON.stringify(res.body)).not.toMatch(/svc_[A-Za-z0-9_-]{32}/);
		expect((await control('POST', '/nothing')).status).toBe(404);
	});
});

describe('fail-next skip', () => {
	test('skip: n - 1 lets n - 1 matching requests through untouched and fails the n-th once', async () => {
		t.control.failNext({ skip: 1, status: 503, path: '/contacts', method: 'POST' });
		expect((await t.admin('GET', '/contacts')).status).toBe(200); // not matching: neither skipped nor failed
		expect((await t.admin('POST', '/contacts', { name: 'Eerste' })).status).toBe(201);
		const second = await t.admin('POST', '/contacts', { name: 'Tweede' });
		expect(second.status).toBe(503);
		expect((await t.admin('POST', '/contacts', { name: 'Tweede' })).status).toBe(201);
		expect((await t.admin('GET', '/contacts')).body.meta.total).toBe(22);
		expect(t.control.failRules()).toEqual([]);
		expect(t.control.requestLog().map((e) => e.injected)).toEqual([
			null,
			null,
			'status',
			null,
			null,
		]);
	});

	test('bodyContains fails only the request whose body holds the text, whatever the order', async () => {
		await control('POST', '/fail-next', {
			bodyContains: 'b@example.com',
			status: 503,
			method: 'POST',
		});
		const answers = await Promise.all(
			['a', 'b', 'c'].map((x) =>
				t.admin('POST', '/contacts', { name: x, email: `${x}@example.com` }),
			),
		);
		expect(answers.map((a) => a.status)).toEqual([201, 503, 201]);
		expect((await t.admin('POST', '/contacts', { name: 'b', email: 'b@example.com' })).status).toBe(
			201,
		);
		expect(
			(await t.admin('POST', '/contacts', 'not json', { 'Content-Type': 'application/json' }))
				.status,
		).toBe(400);
	});

	test('over HTTP, and skip is validated', async () => {
		expect((await control('POST', '/fail-next', { skip: 2, status: 502 })).body.data).toMatchObject(
			{ skip: 2, remaining: 1 },
		);
		expect((await t.admin('GET', '/me')).status).toBe(200);
		expect((await t.admin('GET', '/me')).status).toBe(200);
		expect((await t.admin('GET', '/me')).status).toBe(502);
		expect((await control('POST', '/fail-next', { skip: -1 })).status).toBe(400);
	});
});

describe('list-change', () => {
	const ids = async (page: number, pageSize = 10): Promise<string[]> =>
		(await t.admin('GET', `/contacts?page=${page}&pageSize=${pageSize}`)).body.data.map(
			(c: Loose) => c.id,
		);

	test('deletes the first record of the list after page 1 is answered, once: page 2 then starts one record later', async () => {
		const before = await ids(1, 20);
		t.control.changeDuringList({ resource: 'contacts' });
		expect(await ids(1)).toEqual(before.slice(0, 10));
		expect(t.control.listChanges()).toEqual([]);
		expect(await ids(2)).toEqual(before.slice(11, 20));
		expect((await t.admin('GET', `/contacts/${before[0]}`)).status).toBe(404);
		expect((await t.admin('GET', '/contacts')).body.meta.total).toBe(19);
		await t.admin('GET', '/contacts?page=1&pageSize=10');
		expect((await t.admin('GET', '/contacts')).body.meta.total).toBe(19);
	});

	test('a given id, after a given page; its e-mail is free again', async () => {
		const before = await ids(1, 20);
		const gone = (await t.admin('GET', `/contacts/${before[12]}`)).body.data;
		await control('POST', '/list-change', { resource: 'contacts', afterPage: 2, id: gone.id });
		await ids(1);
		expect((await t.admin('GET', `/contacts/${gone.id}`)).status).toBe(200);
		await ids(2);
		expect((await t.admin('GET', `/contacts/${gone.id}`)).status).toBe(404);
		expect(
			(await t.admin('POST', '/contacts', { name: 'Opnieuw', email: gone.email })).status,
		).toBe(201);
	});

	test('insert puts a new record first: the last record of page 1 is read again on page 2, and contact.created is emitted', async () => {
		const before = await ids(1, 20);
		await control('POST', '/list-change', { resource: 'contacts', change: 'insert' });
		expect(await ids(1)).toEqual(before.slice(0, 10));
		expect(await ids(2)).toEqual(before.slice(9, 19));
		const all = await ids(1, 25);
		expect(all).toHaveLength(21);
		expect(before).not.toContain(all[0]);
		expect(t.control.events().map((e) => e.type)).toEqual(['contact.created']);
	});

	test('every: the list changes on each read of the page, until cleared', async () => {
		t.control.changeDuringList({ resource: 'contacts', every: true });
		for (let read = 1; read <= 3; read++) await ids(1);
		expect(t.control.listChanges()).toMatchObject([{ applied: 3, every: true }]);
		// This read is of page 1 too: answered with 17, then one more is deleted.
		expect((await t.admin('GET', '/contacts')).body.meta.total).toBe(17);
		expect((await control('DELETE', '/list-change')).body.data).toEqual({ cleared: true });
		await ids(1);
		expect((await t.admin('GET', '/contacts')).body.meta.total).toBe(16);
	});

	test('other resources and organizations; reset clears the rules; input is validated', async () => {
		const quotes = (await t.admin('GET', '/quotes')).body.meta.total;
		t.control.changeDuringList({ resource: 'quotes', organization: 'other' });
		await t.admin('GET', '/quotes');
		expect((await t.admin('GET', '/quotes')).body.meta.total).toBe(quotes);
		expect(t.control.listChanges()).toHaveLength(1);
		const other = t.as(t.sandbox.keys.otherOrg);
		const otherQuotes = (await other('GET', '/quotes')).body.meta.total;
		expect((await other('GET', '/quotes')).body.meta.total).toBe(otherQuotes - 1);
		t.control.changeDuringList({ resource: 'invoices' });
		t.control.reset();
		expect(t.control.listChanges()).toEqual([]);
		expect((await control('POST', '/list-change', { resource: 'agents' })).status).toBe(400);
		expect(
			(
				await control('POST', '/list-change', {
					resource: 'contacts',
					change: 'insert',
					id: 'ctc_x',
				})
			).status,
		).toBe(400);
		expect(
			(await control('POST', '/list-change', { resource: 'contacts', afterPage: 0 })).status,
		).toBe(400);
	});
});
