/**
 * The node against the sandbox API over real HTTP (no nock): paging, the shared rate-limit
 * gate under a burst of items, and errors as the sandbox answers them.
 */
import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { clearRateLimitGates } from '../../nodes/shared/api/rateLimitGate';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { loadNodeType, runDeclarativeNode } from '../harness/engine';

const node = loadNodeType(new BusinessOps());
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.control.reset();
	clearRateLimitGates();
});

const withKey = (apiKey: string, baseUrl = sandbox.baseUrl) => ({ credentials: { apiKey, baseUrl } });

test('Return All reads 260 extra contacts in the fewest pages, on the current and the legacy base URL', async () => {
	sandbox.control.seed({ resource: 'contacts', count: 260 });
	for (const baseUrl of [sandbox.baseUrl, sandbox.legacyBaseUrl]) {
		sandbox.control.clearRequestLog();
		const { items } = await runDeclarativeNode(
			node,
			{ resource: 'contact', operation: 'getAll', returnAll: true },
			withKey(sandbox.keys.admin, baseUrl),
		);
		const log = sandbox.control.requestLog();
		expect(items.length).toBeGreaterThan(260);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(items.length);
		expect(log).toHaveLength(Math.ceil(items.length / 100));
		expect(log.every((entry) => entry.query.pageSize === '100')).toBe(true);
	}
});

test('a burst of 20 creates against 5 requests per second: all created once, few refusals', async () => {
	sandbox.control.setRateLimit({ limit: 5, windowMs: 1000 });
	const names = Array.from({ length: 20 }, (_, i) => `Burst ${i}`);
	const { items } = await runDeclarativeNode(
		node,
		{ resource: 'contact', operation: 'create', name: '={{ $json.name }}' },
		{ ...withKey(sandbox.keys.admin), items: names.map((name) => ({ json: { name } })) },
	);
	expect(items.map((i) => i.json.name)).toEqual(names);
	const posts = sandbox.control.requestLog().filter((entry) => entry.method === 'POST');
	const created = posts.filter((entry) => entry.status === 201);
	const refused = posts.filter((entry) => entry.status === 429);
	expect(created).toHaveLength(20);
	// The first burst is refused once per item beyond the limit; after that, one per window.
	expect(refused.length).toBeGreaterThanOrEqual(15);
	expect(refused.length).toBeLessThanOrEqual(15 + 4);
}, 30_000);

test('a read-only key gets the missing scope in the error', async () => {
	const scopeError = await runDeclarativeNode(
		node,
		{ resource: 'contact', operation: 'create', name: 'Nope' },
		withKey(sandbox.keys.readOnly),
	).catch((e) => e);
	expect(scopeError.message).toMatch(/contacts\.write.*\(HTTP 403 insufficient_scope, POST \/contacts\) \[item 0\]$/);
	expect(scopeError.description).toMatch(/lacks the scope "contacts.write"/);
});
