import { scryptSync } from 'node:crypto';

import { KeyStore } from '../src/auth';
import { startSandbox } from '../src/index';
import { startTestSandbox, type TestSandbox, type Loose } from './helpers';

// scrypt as it is, counted: the cache is proven by the calls it saves, not by timings
jest.mock('node:crypto', () => {
	const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
	return { ...actual, scryptSync: jest.fn(actual.scryptSync) };
});

let t: TestSandbox;
beforeAll(async () => {
	t = await startTestSandbox();
});
afterAll(() => t.sandbox.stop());

describe('API keys', () => {
	test('the four keys are svc_ + 32 URL-safe characters and the same on every start', async () => {
		const keys = Object.values(t.sandbox.keys);
		expect(keys).toHaveLength(4);
		for (const key of keys) expect(key).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
		expect(new Set(keys).size).toBe(4);
		const second = await startSandbox({ seed: false });
		try {
			expect(second.keys).toEqual(t.sandbox.keys);
		} finally {
			await second.stop();
		}
	});

	test('GET /me describes the key without revealing it', async () => {
		const res = await t.as(t.sandbox.keys.readOnly)('GET', '/me');
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			organizationId: t.sandbox.organizationIds.primary,
			scopes: [
				'contacts.read',
				'quotes.read',
				'invoices.read',
				'organization.read',
				'agents.read',
				'requests.read',
				'webhooks.read',
			],
			prefix: `${t.sandbox.keys.readOnly.slice(0, 8)}…`,
		});
		expect(res.body.data.apiKeyId).toMatch(/^key_/);
		expect(JSON.stringify(res.body)).not.toContain(t.sandbox.keys.readOnly);
	});

	test('keys are stored only as scrypt hashes; no plain key anywhere in the store', async () => {
		await t.admin('GET', '/me'); // fills the verification cache
		const dump = t.control.keyStore();
		const text = JSON.stringify(dump);
		for (const key of Object.values(t.sandbox.keys)) {
			expect(text).not.toContain(key);
			expect(text).not.toContain(key.slice(4));
		}
		for (const record of dump.records) {
			expect(record.hash).toMatch(/^[0-9a-f]{64}$/);
			expect(record.salt).toMatch(/^[0-9a-f]{32}$/);
		}
		expect(dump.verifiedFingerprints.length).toBeGreaterThan(0);
	});

	test('scrypt runs once per key, then the fingerprint cache answers', () => {
		const store = new KeyStore();
		const key = 'svc_' + 'k'.repeat(32);
		store.add(key, { id: 'key_1', organizationId: 'org_1', name: 'k', scopes: ['*'] });
		const scrypt = jest.mocked(scryptSync);
		scrypt.mockClear();
		for (let i = 0; i < 1000; i++)
			expect(store.authenticate(`Bearer ${key}`)).toMatchObject({ id: 'key_1' });
		expect(scrypt).toHaveBeenCalledTimes(1);
	});

	test('a key made through the control works at once and can be revoked', async () => {
		const created = t.control.createKey({ scopes: ['contacts.read'], name: 'Integration' });
		expect(created.key).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
		const api = t.as(created.key);
		expect((await api('GET', '/contacts')).status).toBe(200);
		expect((await api('GET', '/quotes')).status).toBe(403);
		expect(t.control.revokeKey(created.id)).toBe(true);
		const res = await api('GET', '/contacts');
		expect(res.status).toBe(401);
		expect(res.body.error.message).toBe('This API key has been revoked');
	});

	test('a key made in the second organization sees that organization', async () => {
		const created = t.control.createKey({ scopes: ['organization.read'], organization: 'other' });
		expect((await t.as(created.key)('GET', '/organization')).body.data.id).toBe(
			t.sandbox.organizationIds.other,
		);
	});

	test('an expired key answers 401', async () => {
		const created = t.control.createKey({ scopes: ['*'], expiresAt: '2020-01-01T00:00:00Z' });
		const res = await t.as(created.key)('GET', '/me');
		expect(res.status).toBe(401);
		expect(res.body.error.message).toBe('This API key has expired');
	});

	test('the key control validates scopes and organization', () => {
		expect(() => t.control.createKey({ scopes: ['contacts.delete'] })).toThrow(/scopes\[0\]/);
		expect(() => t.control.createKey({ scopes: [] })).toThrow(/"scopes"/);
		expect(() => t.control.createKey({ scopes: ['*'], organization: 'org_nope' })).toThrow(
			/"organization"/,
		);
	});
});

describe('rate limiting', () => {
	test('429 rate_limited with Retry-After once the window is full, and recovery after it', async () => {
		const limited = await startTestSandbox({
			rateLimit: { limit: 3, windowMs: 1000 },
			seed: false,
		});
		try {
			// the window runs from the first request, which the sandbox saw before its answer arrived here
			let firstAnswered = 0;
			for (let i = 0; i < 3; i++) {
				const ok = await limited.admin('GET', '/me');
				firstAnswered ||= Date.now();
				expect(ok.status).toBe(200);
				expect(ok.headers.get('x-ratelimit-limit')).toBe('3');
				expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
			}
			const refused = await limited.admin('GET', '/me');
			expect(refused.status).toBe(429);
			expect(refused.body.error.code).toBe('rate_limited');
			expect(refused.headers.get('retry-after')).toBe('1');
			// Other keys have their own window.
			expect((await limited.as(limited.sandbox.keys.readOnly)('GET', '/me')).status).toBe(200);
			// Refused requests do not count: hammering does not push recovery further out.
			for (let i = 0; i < 5; i++) expect((await limited.admin('GET', '/me')).status).toBe(429);
			await new Promise((r) => setTimeout(r, Math.max(0, firstAnswered + 1100 - Date.now())));
			expect((await limited.admin('GET', '/me')).status).toBe(200);
		} finally {
			await limited.sandbox.stop();
		}
	});

	test('Retry-After is the whole seconds until the oldest request leaves the window', async () => {
		const limited = await startTestSandbox({
			rateLimit: { limit: 1, windowMs: 4500 },
			seed: false,
		});
		try {
			expect((await limited.admin('GET', '/me')).status).toBe(200);
			const refused = await limited.admin('GET', '/me');
			expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(4);
			expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(5);
		} finally {
			await limited.sandbox.stop();
		}
	});

	test('the limit can be changed at runtime; unauthenticated requests are not limited', async () => {
		const limited = await startTestSandbox({ seed: false });
		try {
			limited.control.setRateLimit({ limit: 2, windowMs: 60_000 });
			expect(limited.control.rateLimit()).toEqual({ limit: 2, windowMs: 60_000 });
			await limited.admin('GET', '/me');
			await limited.admin('GET', '/me');
			expect((await limited.admin('GET', '/me')).status).toBe(429);
			for (let i = 0; i < 5; i++) expect((await limited.as(null)('GET', '/me')).status).toBe(401);
			const http = await fetch(`${limited.sandbox.controlUrl}/rate-limit`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ limit: 100, windowMs: 60_000 }),
			});
			expect(((await http.json()) as Loose).data).toEqual({ limit: 100, windowMs: 60_000 });
			expect((await limited.admin('GET', '/me')).status).toBe(200);
		} finally {
			await limited.sandbox.stop();
		}
	});
});
