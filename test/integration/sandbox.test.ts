/**
 * The node against the sandbox API over real HTTP (no nock): paging, the credential's rate
 * budget under a burst of items, errors as the sandbox answers them, and a create whose answer was
 * lost proven under the readings of the spec's silences the proof accepts.
 */
import { useSandbox } from '../harness/sandbox';
import { runDeclarativeNode, runWithRetries } from '../harness/engine';
import { realClock, scaledClock } from '../harness/clock';
import { node } from '../harness/actionNode';

const { sandbox } = useSandbox({ keepRateLimit: true });
// real time (setup.ts starts each test on the fast clock): the sandbox's rate limit is real
beforeEach(() => realClock());

const withKey = (apiKey: string, baseUrl = sandbox().baseUrl) => ({
	credentials: { apiKey, baseUrl },
});

test('Return All reads 260 extra contacts in the fewest pages, on the current and the legacy base URL', async () => {
	sandbox().control.seed({ resource: 'contacts', count: 260 });
	for (const baseUrl of [sandbox().baseUrl, sandbox().legacyBaseUrl]) {
		sandbox().control.clearRequestLog();
		const { items } = await runDeclarativeNode(
			node,
			{ resource: 'contact', operation: 'getAll', returnAll: true },
			withKey(sandbox().keys.admin, baseUrl),
		);
		const log = sandbox().control.requestLog();
		expect(items.length).toBeGreaterThan(260);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(items.length);
		expect(log).toHaveLength(Math.ceil(items.length / 100));
		expect(log.every((entry) => entry.query.pageSize === '100')).toBe(true);
	}
});

describe.each([false, true])(
	'20 creates against 5 requests per second (refusals counted: %s)',
	(countRefused) => {
		const names = Array.from({ length: 20 }, (_, i) => `Burst ${i}`);
		const createAll = async (credentials: { requestsPerMinute?: number }) => {
			sandbox().control.setRateLimit({ limit: 5, windowMs: 1000 });
			sandbox().control.setCountRefused(countRefused);
			const { items } = await runDeclarativeNode(
				node,
				{ resource: 'contact', operation: 'create', name: '={{ $json.name }}' },
				{
					credentials: { ...withKey(sandbox().keys.admin).credentials, ...credentials },
					items: names.map((name) => ({ json: { name } })),
				},
			);
			expect(items.map((i) => i.json.name)).toEqual(names);
			const posts = sandbox()
				.control.requestLog()
				.filter((entry) => entry.method === 'POST');
			expect(posts.filter((entry) => entry.status === 201)).toHaveLength(20);
			return posts.filter((entry) => entry.status === 429).length;
		};

		test('a budget that matches the limit: paced, never refused', async () => {
			scaledClock(60); // the budget's minute is the sandbox's second
			try {
				expect(await createAll({ requestsPerMinute: 5 })).toBe(0);
			} finally {
				realClock();
			}
		}, 30_000);

		test('a budget above the limit (someone else uses the key): refusals are waited out, all created once', async () => {
			expect(await createAll({})).toBeLessThanOrEqual(8);
		}, 60_000);
	},
);

test('a read-only key gets the missing scope in the error', async () => {
	const scopeError = await runDeclarativeNode(
		node,
		{ resource: 'contact', operation: 'create', name: 'Nope' },
		withKey(sandbox().keys.readOnly),
	).catch((e) => e);
	expect(scopeError.message).toMatch(
		/contacts\.write.*\(HTTP 403 insufficient_scope, POST \/contacts\) \[item 0\]$/,
	);
	expect(scopeError.description).toMatch(/lacks the scope "contacts.write"/);
});

describe.each([
	['keeps text in a form of its own', { storesTidiedText: true }],
	['lists contacts without their phone', { listsShowLess: true }],
])('an API that %s', (_, readings) => {
	test('Contact → Create stored and its connection closed, Retry On Fail: the next try finds it; one POST, one contact', async () => {
		sandbox().control.setReadings({ listOrder: 'newest', ...readings });
		sandbox().control.failNext({ mode: 'drop-after-write', method: 'POST', path: '/contacts' });
		const tries = await runWithRetries(
			node,
			{
				resource: 'contact',
				operation: 'create',
				name: '  Ann   de Vries ',
				additionalFields: { email: 'Ann@Example.TEST', phone: '+31 (20) 123-45.67' },
			},
			{ ...withKey(sandbox().keys.admin), items: [{ json: {} }], maxTries: 3, waitBetweenTries: 0 },
		);
		const posts = sandbox()
			.control.requestLog()
			.filter((entry) => entry.method === 'POST');
		const reads = sandbox()
			.control.requestLog()
			.filter((entry) => entry.method === 'GET' && entry.path.endsWith('/contacts'));
		expect(posts).toHaveLength(1);
		expect(reads.length).toBeGreaterThan(0);
		expect(tries.map((t) => t.error?.message ?? 'succeeded')).toEqual([
			expect.any(String),
			'succeeded',
		]);
		const listed = await fetch(`${sandbox().baseUrl}/contacts?pageSize=100`, {
			headers: { authorization: `Bearer ${sandbox().keys.admin}` },
		}).then(async (res) => (await res.json()) as { data: Array<{ id: string; email: string }> });
		const anns = listed.data.filter((c) => c.email.toLowerCase() === 'ann@example.test');
		expect(anns).toHaveLength(1);
		expect(tries[1].items?.[0].json.id).toBe(anns[0].id);
	});
});
