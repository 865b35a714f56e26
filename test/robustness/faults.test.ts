/**
 * Issue 7, faults from the sandbox: 500s, answers slower than the timeout, connection resets
 * and 429 storms, against the in-process sandbox over real HTTP (no nock). Several items per
 * run with continue-on-fail: each item ends with its own clear error or its result, nothing
 * is sent twice (a create that failed, timed out or was reset is not repeated; a read may be;
 * a create refused with 429 is repeated and made exactly once), and the other items go on.
 *
 * Faults are aimed at one item where the request path allows it (fail-next rules by path), so
 * the outcome of every item is known. The transport's waits between retries are real seconds;
 * where a test is about outcomes rather than timing, `timing` is replaced by a fast clock.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { fastClock, realClock, realSleep } from '../harness/clock';
import type { RequestLogEntry } from '../../sandbox/src';
import { useSandbox } from '../harness/sandbox';
import { runDeclarativeNode } from '../harness/engine';
import { node } from '../harness/actionNode';

/** Request Options → Timeout, and how long a slow answer takes: far enough apart for a busy machine. */
const TIMEOUT_MS = 500;
const SLOW_MS = 900;
const { sandbox } = useSandbox({ keepRateLimit: true });
let waits: number[];

beforeEach(() => {
	// real time (setup.ts starts each test on the fast clock): Request Options → Timeout must elapse
	realClock();
	waits = [];
});
afterEach(() => {
	realClock();
	sandbox().control.clearFailures();
	sandbox().control.setLatency(0);
});

/** Retry waits are recorded and skipped on a clock of their own (the order of events stays real). */
function fastRetries() {
	waits = fastClock();
}

async function run(parameters: INodeParameters, inputs: IDataObject[], continueOnFail = true) {
	const { items } = await runDeclarativeNode(node, parameters, {
		credentials: { apiKey: sandbox().keys.admin, baseUrl: sandbox().baseUrl },
		items: inputs.map((json) => ({ json })),
		continueOnFail,
	});
	return items;
}

type Outcome = { ok: IDataObject } | { error: string; description: string };

function outcomes(items: INodeExecutionData[]): Outcome[] {
	return items.map((item) =>
		item.error
			? {
					error: item.error.message,
					description: String((item.error as { description?: string }).description ?? ''),
				}
			: { ok: item.json },
	);
}

function errorOf(outcome: Outcome | undefined): string | undefined {
	return outcome && 'error' in outcome ? outcome.error : undefined;
}

async function api<T = IDataObject>(method: string, path: string, body?: IDataObject): Promise<T> {
	const response = await fetch(`${sandbox().baseUrl}${path}`, {
		method,
		headers: {
			Authorization: `Bearer ${sandbox().keys.admin}`,
			'Content-Type': 'application/json',
		},
		body: body ? JSON.stringify(body) : undefined,
	});
	return (await response.json()) as T;
}

/** Every contact of the primary organization (read with a request that is not in the counted log). */
async function contactNames(): Promise<string[]> {
	const names: string[] = [];
	for (let page = 1; ; page++) {
		const body = await api<{ data: IDataObject[]; meta: { hasMore: boolean } }>(
			'GET',
			`/contacts?pageSize=100&page=${page}`,
		);
		names.push(...body.data.map((c) => String(c.name)));
		if (!body.meta.hasMore) return names;
	}
}

async function seededIds(path: string, count: number): Promise<string[]> {
	const body = await api<{ data: IDataObject[] }>('GET', `${path}?pageSize=${count}`);
	return body.data.slice(0, count).map((record) => String(record.id));
}

/** Requests the sandbox has answered (or reset), by method and path. */
function logOf(method: string, path?: string): RequestLogEntry[] {
	return sandbox()
		.control.requestLog()
		.filter(
			(entry) => entry.method === method && (path === undefined || entry.path === `/v1${path}`),
		);
}

/** Waits until the sandbox has logged `count` requests of a kind (slow or hung ones are logged when they end). */
async function waitForLog(method: string, count: number, timeoutMs = 3000): Promise<void> {
	const until = Date.now() + timeoutMs;
	while (logOf(method).length < count && Date.now() < until) await realSleep(20);
}

const occurrences = (list: string[], value: string) =>
	list.filter((entry) => entry === value).length;
const createContact: INodeParameters = {
	resource: 'contact',
	operation: 'create',
	name: '={{ $json.name }}',
};
const getContact: INodeParameters = {
	resource: 'contact',
	operation: 'get',
	contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
};
const updateContact: INodeParameters = {
	resource: 'contact',
	operation: 'update',
	contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	updateFields: { phone: '={{ $json.phone }}' },
};

describe('500s', () => {
	test('creates: the failed ones carry their own error and are not repeated; the rest are created once', async () => {
		sandbox().control.failNext({ status: 500, count: 2, method: 'POST', path: '/contacts' });
		const names = ['F0', 'F1', 'F2', 'F3', 'F4'];
		const results = outcomes(
			await run(
				createContact,
				names.map((name) => ({ name })),
			),
		);

		const failed = results.flatMap((outcome, index) => ('error' in outcome ? [index] : []));
		expect(failed).toHaveLength(2);
		for (const [index, outcome] of results.entries()) {
			if ('error' in outcome) {
				expect(outcome.error).toMatch(
					new RegExp(`\\(HTTP 500 internal_error, POST /contacts\\) \\[item ${index}\\]$`),
				);
				expect(outcome.description).toMatch(
					/not retried automatically, so check whether the change was made before repeating it\./,
				);
			} else {
				expect(outcome.ok.name).toBe(names[index]);
			}
		}
		const posts = logOf('POST', '/contacts');
		expect(posts).toHaveLength(5);
		expect(posts.filter((entry) => entry.status === 500)).toHaveLength(2);
		const stored = await contactNames();
		for (const [index, name] of names.entries()) {
			expect(occurrences(stored, name)).toBe(failed.includes(index) ? 0 : 1);
		}
	});

	test('reads: 502/503 are retried into the result; a read that keeps failing ends in its own error', async () => {
		fastRetries();
		const ids = await seededIds('/contacts', 4);
		sandbox().control.clearRequestLog();
		sandbox().control.failNext({ status: 502, count: 2, path: `/contacts/${ids[0]}` });
		sandbox().control.failNext({ status: 503, count: 1, path: `/contacts/${ids[1]}` });
		sandbox().control.failNext({ status: 500, count: 5, path: `/contacts/${ids[2]}` });
		const results = outcomes(
			await run(
				getContact,
				ids.map((id) => ({ id })),
			),
		);

		expect(results.map((o) => ('ok' in o ? o.ok.id : undefined))).toEqual([
			ids[0],
			ids[1],
			undefined,
			ids[3],
		]);
		expect(errorOf(results[2])).toMatch(
			new RegExp(`\\(HTTP 500 internal_error, GET /contacts/${ids[2]}\\) \\[item 2\\]$`),
		);
		expect(ids.map((id) => logOf('GET', `/contacts/${id}`).length)).toEqual([3, 2, 5, 1]);
	});

	test('updates and deletes: a 5xx is never repeated, the record keeps its state, the others go on', async () => {
		const ids = await seededIds('/contacts', 3);
		sandbox().control.clearRequestLog();
		sandbox().control.failNext({ status: 503, method: 'PATCH', path: `/contacts/${ids[1]}` });
		const updated = outcomes(
			await run(
				updateContact,
				ids.map((id, i) => ({ id, phone: `+31 20 000 000${i}` })),
			),
		);
		expect(updated.map((o) => 'ok' in o)).toEqual([true, false, true]);
		expect(errorOf(updated[1])).toMatch(
			new RegExp(`\\(HTTP 503 service_unavailable, PATCH /contacts/${ids[1]}\\) \\[item 1\\]$`),
		);
		expect(ids.map((id) => logOf('PATCH', `/contacts/${id}`).length)).toEqual([1, 1, 1]);
		const after = await api<{ data: IDataObject }>('GET', `/contacts/${ids[1]}`);
		expect(after.data.phone).not.toBe('+31 20 000 0001');

		sandbox().control.failNext({ status: 500, method: 'DELETE', path: `/contacts/${ids[0]}` });
		const deleted = outcomes(
			await run(
				{ ...getContact, operation: 'delete' },
				ids.map((id) => ({ id })),
			),
		);
		expect(deleted.map((o) => ('ok' in o ? o.ok : undefined))).toEqual([
			undefined,
			{ deleted: true, id: ids[1] },
			{ deleted: true, id: ids[2] },
		]);
		expect(errorOf(deleted[0])).toMatch(
			/\(HTTP 500 internal_error, DELETE \/contacts\/\S+\) \[item 0\]$/,
		);
		expect(ids.map((id) => logOf('DELETE', `/contacts/${id}`).length)).toEqual([1, 1, 1]);
	});
});

describe('connection resets', () => {
	test('a reset create is not repeated and says so; the other items are created once', async () => {
		sandbox().control.failNext({ mode: 'reset', method: 'POST', path: '/contacts' });
		const names = ['R0', 'R1', 'R2'];
		const results = outcomes(
			await run(
				createContact,
				names.map((name) => ({ name })),
			),
		);

		const failed = results.flatMap((outcome, index) => ('error' in outcome ? [index] : []));
		expect(failed).toHaveLength(1);
		const [index] = failed;
		const outcome = results[index] as { error: string; description: string };
		expect(outcome.error).toBe(
			`Could not complete POST /contacts: the connection was closed by the server [item ${index}]`,
		);
		expect(outcome.description).toMatch(/not repeated because it changes data/);
		expect(logOf('POST', '/contacts')).toHaveLength(3);
		const stored = await contactNames();
		expect(names.map((name) => occurrences(stored, name))).toEqual(
			names.map((_, i) => (i === index ? 0 : 1)),
		);
	});

	test('a reset read is retried; one that is reset every time ends in its own error', async () => {
		fastRetries();
		const ids = await seededIds('/contacts', 3);
		sandbox().control.clearRequestLog();
		sandbox().control.failNext({ mode: 'reset', count: 2, path: `/contacts/${ids[0]}` });
		sandbox().control.failNext({ mode: 'reset', count: 5, path: `/contacts/${ids[1]}` });
		const results = outcomes(
			await run(
				getContact,
				ids.map((id) => ({ id })),
			),
		);

		expect(results.map((o) => ('ok' in o ? o.ok.id : undefined))).toEqual([
			ids[0],
			undefined,
			ids[2],
		]);
		expect(errorOf(results[1])).toBe(
			`Could not complete GET /contacts/${ids[1]}: the connection was closed by the server [item 1]`,
		);
		expect((results[1] as { description: string }).description).toMatch(/failed 5 times/);
		expect(ids.map((id) => logOf('GET', `/contacts/${id}`).length)).toEqual([3, 5, 1]);
	});
});

describe('answers slower than the timeout (Request Options → Timeout)', () => {
	const withTimeout = (parameters: INodeParameters) => ({
		...parameters,
		requestOptions: { timeout: TIMEOUT_MS },
	});

	test('a create that timed out is not repeated; the other items are created once', async () => {
		sandbox().control.failNext({ mode: 'hang', ms: SLOW_MS, method: 'POST', path: '/contacts' });
		const names = ['T0', 'T1', 'T2'];
		const results = outcomes(
			await run(
				withTimeout(createContact),
				names.map((name) => ({ name })),
			),
		);

		const failed = results.flatMap((outcome, index) => ('error' in outcome ? [index] : []));
		expect(failed).toHaveLength(1);
		const [index] = failed;
		const outcome = results[index] as { error: string; description: string };
		expect(outcome.error).toBe(
			`Could not complete POST /contacts: no answer within the timeout [item ${index}]`,
		);
		// the same sentence as a 5xx's (errors.ts words it)
		expect(outcome.description).toContain(
			'It was not repeated because it changes data; check whether the change was made before repeating it.',
		);
		await waitForLog('POST', 3);
		await realSleep(100);
		expect(logOf('POST', '/contacts')).toHaveLength(3);
		const stored = await contactNames();
		for (const [i, name] of names.entries()) {
			// the timed-out create may or may not have been applied by the server, but never twice
			if (i === index) expect(occurrences(stored, name)).toBeLessThanOrEqual(1);
			else expect(occurrences(stored, name)).toBe(1);
		}
	});

	test('reads that time out are retried into the result; one that always times out ends in its own error', async () => {
		fastRetries();
		const ids = await seededIds('/contacts', 3);
		sandbox().control.clearRequestLog();
		sandbox().control.failNext({
			mode: 'hang',
			ms: SLOW_MS,
			count: 2,
			path: `/contacts/${ids[0]}`,
		});
		sandbox().control.failNext({
			mode: 'hang',
			ms: SLOW_MS,
			count: 5,
			path: `/contacts/${ids[1]}`,
		});
		const results = outcomes(
			await run(
				withTimeout(getContact),
				ids.map((id) => ({ id })),
			),
		);

		expect(results.map((o) => ('ok' in o ? o.ok.id : undefined))).toEqual([
			ids[0],
			undefined,
			ids[2],
		]);
		expect(errorOf(results[1])).toBe(
			`Could not complete GET /contacts/${ids[1]}: no answer within the timeout [item 1]`,
		);
		await waitForLog('GET', 3 + 5 + 1);
		expect(ids.map((id) => logOf('GET', `/contacts/${id}`).length)).toEqual([3, 5, 1]);
	});

	test('a slow API (latency above the timeout for every request): every create fails once, none is repeated', async () => {
		sandbox().control.setLatency(SLOW_MS);
		const names = ['S0', 'S1', 'S2', 'S3'];
		const results = outcomes(
			await run(
				withTimeout(createContact),
				names.map((name) => ({ name })),
			),
		);

		expect(results.map(errorOf)).toEqual(
			names.map(
				(_, i) => `Could not complete POST /contacts: no answer within the timeout [item ${i}]`,
			),
		);
		await waitForLog('POST', 4);
		await realSleep(200);
		expect(logOf('POST', '/contacts')).toHaveLength(4);
		sandbox().control.setLatency(0);
		const stored = await contactNames();
		expect(names.every((name) => occurrences(stored, name) <= 1)).toBe(true);
	});
});

describe('429 storms', () => {
	test('refused creates are repeated and each is created exactly once', async () => {
		fastRetries();
		sandbox().control.failNext({
			status: 429,
			count: 12,
			retryAfter: 1,
			method: 'POST',
			path: '/contacts',
		});
		const names = ['Q0', 'Q1', 'Q2', 'Q3', 'Q4', 'Q5'];
		const results = outcomes(
			await run(
				createContact,
				names.map((name) => ({ name })),
			),
		);

		expect(results.map((o) => ('ok' in o ? o.ok.name : errorOf(o)))).toEqual(names);
		const posts = logOf('POST', '/contacts');
		expect(posts.filter((entry) => entry.status === 429)).toHaveLength(12);
		expect(posts.filter((entry) => entry.status === 201)).toHaveLength(6);
		const stored = await contactNames();
		expect(names.map((name) => occurrences(stored, name))).toEqual(names.map(() => 1));
		// the refusals are waited out for at least the 1 s asked; items refused together share one
		// wait of the key, so a later one waits what remains of it (on this clock, what the others'
		// skipped waits left). That Retry-After sets the wait is pinned in transport.test.ts.
		expect(Math.max(...waits)).toBeGreaterThanOrEqual(1000);
	});

	test('a storm that does not end: each item gives up after 5 attempts with its own error, nothing is created', async () => {
		fastRetries();
		sandbox().control.failNext({ status: 429, count: 1000, method: 'POST', path: '/contacts' });
		const names = ['N0', 'N1', 'N2'];
		const results = outcomes(
			await run(
				createContact,
				names.map((name) => ({ name })),
			),
		);

		expect(results.map(errorOf)).toEqual(
			names.map((_, i) =>
				expect.stringMatching(
					new RegExp(`\\(HTTP 429 rate_limited, POST /contacts\\) \\[item ${i}\\]$`),
				),
			),
		);
		expect((results[0] as { description: string }).description).toMatch(/after 5 attempts/);
		expect(logOf('POST', '/contacts')).toHaveLength(15);
		const stored = await contactNames();
		expect(names.map((name) => occurrences(stored, name))).toEqual([0, 0, 0]);
	});

	test("the sandbox's own rate limit (4 per second) against 10 creates: all made once, in real time", async () => {
		sandbox().control.setRateLimit({ limit: 4, windowMs: 1000 });
		const names = Array.from({ length: 10 }, (_, i) => `L${i}`);
		const results = outcomes(
			await run(
				createContact,
				names.map((name) => ({ name })),
			),
		);

		expect(results.map((o) => ('ok' in o ? o.ok.name : errorOf(o)))).toEqual(names);
		const posts = logOf('POST', '/contacts');
		expect(posts.filter((entry) => entry.status === 201)).toHaveLength(10);
		expect(posts.filter((entry) => entry.status === 429).length).toBeGreaterThan(0);
		sandbox().control.setRateLimit({ limit: 1000, windowMs: 60_000 });
		const stored = await contactNames();
		expect(names.map((name) => occurrences(stored, name))).toEqual(names.map(() => 1));
	}, 20_000);
});

describe('every fault in one run', () => {
	test('updates: 500, reset, timeout, 429 and no fault, one per item: each item its own outcome', async () => {
		fastRetries();
		const ids = await seededIds('/contacts', 5);
		sandbox().control.clearRequestLog();
		sandbox().control.failNext({ status: 500, method: 'PATCH', path: `/contacts/${ids[0]}` });
		sandbox().control.failNext({ mode: 'reset', method: 'PATCH', path: `/contacts/${ids[1]}` });
		sandbox().control.failNext({
			mode: 'hang',
			ms: SLOW_MS,
			method: 'PATCH',
			path: `/contacts/${ids[2]}`,
		});
		sandbox().control.failNext({
			status: 429,
			count: 2,
			method: 'PATCH',
			path: `/contacts/${ids[3]}`,
		});
		const results = outcomes(
			await run(
				{ ...updateContact, requestOptions: { timeout: TIMEOUT_MS } },
				ids.map((id, i) => ({ id, phone: `+31 30 000 000${i}` })),
			),
		);

		expect(results.map((o) => errorOf(o) ?? 'ok')).toEqual([
			expect.stringMatching(
				new RegExp(`\\(HTTP 500 internal_error, PATCH /contacts/${ids[0]}\\) \\[item 0\\]$`),
			),
			`Could not complete PATCH /contacts/${ids[1]}: the connection was closed by the server [item 1]`,
			`Could not complete PATCH /contacts/${ids[2]}: no answer within the timeout [item 2]`,
			'ok',
			'ok',
		]);
		expect((results[3] as { ok: IDataObject }).ok.phone).toBe('+31 30 000 0003');
		await waitForLog('PATCH', 1 + 1 + 1 + 3 + 1);
		expect(ids.map((id) => logOf('PATCH', `/contacts/${id}`).length)).toEqual([1, 1, 1, 3, 1]);
	});

	test('reads: 500, reset, timeout and 429 are all retried into the result; five 500s end in an error', async () => {
		fastRetries();
		const ids = await seededIds('/contacts', 5);
		sandbox().control.clearRequestLog();
		sandbox().control.failNext({ status: 500, path: `/contacts/${ids[0]}` });
		sandbox().control.failNext({ mode: 'reset', path: `/contacts/${ids[1]}` });
		sandbox().control.failNext({ mode: 'hang', ms: SLOW_MS, path: `/contacts/${ids[2]}` });
		sandbox().control.failNext({ status: 429, path: `/contacts/${ids[3]}` });
		sandbox().control.failNext({ status: 502, count: 5, path: `/contacts/${ids[4]}` });
		const results = outcomes(
			await run(
				{ ...getContact, requestOptions: { timeout: TIMEOUT_MS } },
				ids.map((id) => ({ id })),
			),
		);

		expect(results.map((o) => ('ok' in o ? o.ok.id : errorOf(o)))).toEqual([
			ids[0],
			ids[1],
			ids[2],
			ids[3],
			expect.stringMatching(
				new RegExp(`\\(HTTP 502 bad_gateway, GET /contacts/${ids[4]}\\) \\[item 4\\]$`),
			),
		]);
		await waitForLog('GET', 2 + 2 + 2 + 2 + 5);
		expect(ids.map((id) => logOf('GET', `/contacts/${id}`).length)).toEqual([2, 2, 2, 2, 5]);
	});

	test("without continue-on-fail the run fails with the failing item's own error", async () => {
		const ids = await seededIds('/contacts', 3);
		sandbox().control.failNext({ status: 500, method: 'PATCH', path: `/contacts/${ids[2]}` });
		const error = await run(
			updateContact,
			ids.map((id) => ({ id, phone: '+31 20 123 4567' })),
			false,
		).catch((e: Error) => e);
		expect((error as Error).message).toMatch(
			new RegExp(`\\(HTTP 500 internal_error, PATCH /contacts/${ids[2]}\\) \\[item 2\\]$`),
		);
	});
});
