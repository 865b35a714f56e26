import nock from 'nock';
import { WaitEnded, type Clock } from '../../nodes/shared/api/clock';
import {
	budgetFor,
	budgetKeyOf,
	MAX_RETRY_AFTER_MS,
	RateBudget,
} from '../../nodes/shared/api/rateBudget';
import { forgetRateBudgets, manualClock, realClock, type ManualClock } from '../harness/clock';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { API, node } from '../harness/actionNode';
import type * as ClockModule from '../../nodes/shared/api/clock';

/** A clock on which each wait moves time on at once. */
function instantClock() {
	const state = { now: 0 };
	const clock: Clock = {
		now: () => state.now,
		sleep: async (ms) => {
			state.now += ms;
		},
		timeout: () => new AbortController().signal,
	};
	return { state, clock };
}

/** A clock whose waits end only when the test moves time on with `tick`. */
function steppedClock() {
	const state = { now: 0 };
	let sleepers: Array<{ until: number; wake: () => void }> = [];
	const clock: Clock = {
		now: () => state.now,
		sleep: async (ms) =>
			await new Promise<void>((wake) => sleepers.push({ until: state.now + ms, wake })),
		timeout: () => new AbortController().signal,
	};
	const settle = async () => {
		for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
	};
	const tick = async (ms: number) => {
		state.now += ms;
		const due = sleepers.filter((s) => s.until <= state.now);
		sleepers = sleepers.filter((s) => s.until > state.now);
		due.forEach((s) => s.wake());
		await settle();
	};
	return { state, clock, tick, settle };
}

test('a turn never waits for another request to be answered', async () => {
	const { state, clock } = instantClock();
	const budget = new RateBudget(3, 1000, clock);
	await budget.take(); // never answered: its exchange is still going on
	await budget.take();
	expect(state.now).toBe(0);
});

test('a slot counts from its answer: a slow answer delays the next window, never shortens it', async () => {
	const { state, clock } = instantClock();
	const budget = new RateBudget(1, 1000, clock);
	const slot = await budget.take();
	state.now = 300;
	slot.answered();
	await budget.take();
	expect(state.now).toBe(1300);
});

test('turns are taken in the order they were asked', async () => {
	const { clock, tick, settle } = steppedClock();
	const budget = new RateBudget(1, 1000, clock);
	const order: number[] = [];
	const all = Promise.all(
		[1, 2, 3].map(async (n) => budget.take().then((slot) => (order.push(n), slot.answered()))),
	);
	await settle();
	expect(order).toEqual([1]);
	await tick(1000);
	expect(order).toEqual([1, 2]);
	await tick(1000);
	await all;
	expect(order).toEqual([1, 2, 3]);
});

test('a refusal pauses everyone for Retry-After, capped', async () => {
	const { state, clock } = instantClock();
	const budget = new RateBudget(4, 1000, clock);
	(await budget.take()).refused(2000);
	expect(budget.waitMs()).toBe(2000);
	state.now = 2000;
	(await budget.take()).refused(10 * MAX_RETRY_AFTER_MS);
	expect(budget.waitMs()).toBe(MAX_RETRY_AFTER_MS);
});

test('two credentials with the same key and different settings: the lowest wins', async () => {
	const { clock } = instantClock();
	const budget = new RateBudget(10, 1000, clock);
	budget.useLimit(3);
	budget.useLimit(10);
	expect(budget.limitAt()).toBe(3);
	for (let i = 0; i < 3; i++) (await budget.take()).answered();
	expect(budget.waitMs()).toBe(1000);
});

describe('a setting stops counting 10 minutes after its last use', () => {
	const MINUTES = 60_000;

	test('a request waiting under a lower setting is looked at again when that setting expires', async () => {
		const { state, clock } = instantClock();
		// A window longer than the memory, so the only way to go before it ends is the setting expiring.
		const budget = new RateBudget(1, 20 * MINUTES, clock);
		(await budget.take({ limit: 1 })).answered();
		(await budget.take({ limit: 2 })).answered();
		expect(state.now).toBe(10 * MINUTES);
		expect(budget.limitAt()).toBe(2);
	});

	test('a setting counts while a request of its credential waits, however long', async () => {
		const { state, clock } = instantClock();
		const budget = new RateBudget(1, 20 * MINUTES, clock);
		budget.useLimit(5);
		(await budget.take({ limit: 1 })).answered();
		(await budget.take({ limit: 1 })).answered();
		expect(state.now).toBe(20 * MINUTES);
	});

	test("while both are in use the lowest wins; the other credential's next request counts its own", async () => {
		const { state, clock } = instantClock();
		const budget = new RateBudget(2, MINUTES, clock);
		for (let i = 0; i < 2; i++) (await budget.take({ limit: 2 })).answered();
		state.now = 9 * MINUTES;
		expect(budget.limitAt()).toBe(2);
		(await budget.take({ limit: 1 })).answered();
		state.now = 15 * MINUTES; // 2 was last used at 0, 1 at 9 minutes
		expect(budget.limitAt()).toBe(1);
		state.now = 19 * MINUTES;
		expect(budget.limitAt()).toBe(1); // the one used last, although it no longer counts: nothing else does
	});
});

describe('cancellation', () => {
	test('a cancelled request stops waiting at once, takes nothing, and the next in line moves up', async () => {
		const { clock, tick, settle } = steppedClock();
		const budget = new RateBudget(1, 1000, clock);
		(await budget.take()).answered();
		const cancel = new AbortController();
		const cancelled = budget.take({ signal: cancel.signal });
		const sent: string[] = [];
		const next = budget.take().then((slot) => (sent.push('next'), slot));
		await settle();
		cancel.abort();
		await expect(cancelled).rejects.toEqual(new WaitEnded());
		expect(sent).toEqual([]);
		await tick(1000);
		expect(sent).toEqual(['next']);
		(await next).answered();
		// The cancelled request took no place: one request in the window, the limit's one.
		expect(budget.waitMs()).toBe(1000);
	});

	test('an execution already cancelled does not wait at all', async () => {
		const { clock } = steppedClock();
		const budget = new RateBudget(1, 1000, clock);
		const cancel = new AbortController();
		cancel.abort();
		await expect(budget.take({ signal: cancel.signal })).rejects.toEqual(new WaitEnded());
		expect(budget.waitMs()).toBe(0);
	});
});

describe("a request with a longest wait (the trigger's activation)", () => {
	test('room further off than its longest wait: refused at once, naming the wait, nothing taken', async () => {
		const { clock, state } = steppedClock();
		const budget = new RateBudget(5, 60_000, clock);
		(await budget.take()).refused(120_000);
		const refused = await budget.take({ maxWaitMs: 10_000 }).catch((e: unknown) => e);
		expect(refused).toBeInstanceOf(WaitEnded);
		expect((refused as WaitEnded).waitMs).toBe(120_000);
		expect(state.now).toBe(0);
		expect(budget.isBusy()).toBe(false);
	});

	test('behind a queue that does not reach it in time: it leaves the queue at its longest wait', async () => {
		const { clock, tick } = steppedClock();
		const budget = new RateBudget(1, 5_000, clock);
		(await budget.take()).answered();
		const first = budget.take(); // room in 5 s
		const bounded = budget.take({ maxWaitMs: 8_000 }).catch((e: unknown) => e); // room in 5 s, but its turn in 10 s
		const outcome = jest.fn();
		void bounded.then(outcome);
		await tick(5_000);
		(await first).answered();
		await tick(2_999);
		expect(outcome).not.toHaveBeenCalled();
		await tick(1);
		expect(await bounded).toBeInstanceOf(WaitEnded);
		await tick(10_000);
		await expect(budget.take()).resolves.toEqual({
			answered: expect.any(Function),
			refused: expect.any(Function),
		}); // the next in line is served
	});
});

test('editor look-ups go before waiting production requests, within the same window', async () => {
	const { clock, tick, settle } = steppedClock();
	const budget = new RateBudget(2, 1000, clock);
	for (let i = 0; i < 2; i++) (await budget.take()).answered();
	const order: string[] = [];
	const runs = [1, 2, 3].map(async (n) =>
		budget.take().then((slot) => (order.push(`run ${n}`), slot.answered())),
	);
	await settle();
	const editor = budget
		.take({ lane: 'editor' })
		.then((slot) => (order.push('editor'), slot.answered()));
	await settle();
	expect(order).toEqual([]); // the window is full for everyone
	await tick(1000);
	expect(order).toEqual(['editor', 'run 1']);
	await tick(1000);
	await Promise.all([...runs, editor]);
	expect(order).toEqual(['editor', 'run 1', 'run 2', 'run 3']);
});

test("the polling trigger's requests go after every waiting run and editor request", async () => {
	const { clock, tick, settle } = steppedClock();
	const budget = new RateBudget(1, 1000, clock);
	(await budget.take()).answered();
	const order: string[] = [];
	const take = (name: string, lane?: 'poll' | 'editor') =>
		budget.take({ lane }).then((slot) => (order.push(name), slot.answered()));
	const waiting = [
		take('poll 1', 'poll'),
		take('poll 2', 'poll'),
		take('run 1'),
		take('editor', 'editor'),
		take('run 2'),
	];
	await settle();
	for (let i = 0; i < 5; i++) await tick(1000);
	await Promise.all(waiting);
	expect(order).toEqual(['editor', 'run 1', 'run 2', 'poll 1', 'poll 2']);
});

describe('pacing that learns (the API allows less than the setting)', () => {
	afterEach(() => realClock());

	/**
	 * A sliding-window API and, optionally, another client of the same key that tries one request
	 * every `otherEveryMs` from time 0. Retry-After in whole seconds, as the sandbox; with
	 * `countRefused` a refused request (the other client's too) takes its place in the window.
	 */
	function slidingApi(
		limit: number,
		windowMs: number,
		options: { otherEveryMs?: number; countRefused?: boolean } = {},
	) {
		const { otherEveryMs, countRefused = false } = options;
		const counted: number[] = [];
		let otherNext = 0;
		const room = (t: number) => counted.filter((c) => c > t - windowMs).length < limit;
		const take = (t: number) => {
			const ok = room(t);
			const inWindow = counted.filter((c) => c > t - windowMs);
			if (ok || countRefused) counted.push(t);
			return {
				ok,
				retryAfterMs: ok ? 0 : Math.max(1, Math.ceil((inWindow[0] + windowMs - t) / 1000)) * 1000,
			};
		};
		return {
			hit(t: number): { ok: boolean; retryAfterMs: number } {
				for (; otherEveryMs && otherNext <= t; otherNext += otherEveryMs) take(otherNext);
				return take(t);
			},
		};
	}

	/** `n` writes one after another (Stop Workflow), each 25 ms at the API, 429 retried as the transport does. */
	async function serialWrites(n: number, api: ReturnType<typeof slidingApi>, startMs = 0) {
		const { state, clock } = instantClock();
		state.now += startMs;
		const started = state.now;
		const budget = new RateBudget(120, 60_000, clock);
		let refusals = 0;
		for (let i = 0; i < n; i++) {
			for (let attempt = 1; ; attempt++) {
				expect(attempt).toBeLessThanOrEqual(5);
				const slot = await budget.take();
				state.now += 25;
				const answer = api.hit(state.now);
				if (answer.ok) {
					slot.answered();
					break;
				}
				refusals++;
				slot.refused(answer.retryAfterMs);
				await clock.sleep(Math.max(answer.retryAfterMs, 1000 * 2 ** (attempt - 1)));
			}
		}
		return { ms: state.now - started, refusals, learned: budget.slowedAt() };
	}

	test('100 writes against 20 per 5 s with the default setting: within 1.25x of the minimum, few refusals', async () => {
		const { ms, refusals, learned } = await serialWrites(100, slidingApi(20, 5000));
		const minimum = 4 * 5000 + 20 * 25;
		expect(ms / minimum).toBeLessThanOrEqual(1.25);
		expect(refusals).toBeLessThanOrEqual(8);
		expect(learned?.limit).toBeGreaterThanOrEqual(18);
		expect(learned?.windowMs).toBeGreaterThanOrEqual(5000);
	});

	test('another client uses half the key: settles near the other half, within 1.25x of its minimum', async () => {
		const { ms, refusals } = await serialWrites(100, slidingApi(20, 5000, { otherEveryMs: 500 }));
		const minimum = 9 * 5000 + 10 * 25;
		expect(ms / minimum).toBeLessThanOrEqual(1.25);
		expect(refusals).toBeLessThanOrEqual(25);
	});

	// The other client's oldest request makes Retry-After shorter than the API's window, so the
	// slowed window is too short: bursts that fit it overrun the API's, unless spread evenly.
	test.each([
		[false, 1050],
		[true, 1050],
		[true, 1500],
	])(
		'another client already uses half the key when the writes start (refusals counted: %s, %i ms in): within 1.25x',
		async (countRefused, startMs) => {
			const { ms, refusals } = await serialWrites(
				100,
				slidingApi(20, 5000, { otherEveryMs: 500, countRefused }),
				startMs,
			);
			const minimum = 9 * 5000 + 10 * 25;
			expect(ms / minimum).toBeLessThanOrEqual(1.25);
			expect(refusals).toBeLessThanOrEqual(12);
		},
	);

	/**
	 * `n` writes all at once (On Error: Continue; n8n's RoutingNode sends every item's request
	 * together), each 25 ms at the API, on a clock that moves on to the next wake-up once every
	 * write waits.
	 */
	async function concurrentWrites(n: number, api: ReturnType<typeof slidingApi>) {
		const state = { now: 0 };
		let timers: Array<{ at: number; wake: () => void }> = [];
		const clock: Clock = {
			now: () => state.now,
			sleep: async (ms) =>
				await new Promise<void>((wake) => timers.push({ at: state.now + ms, wake })),
			timeout: () => new AbortController().signal,
		};
		const budget = new RateBudget(120, 60_000, clock);
		let refusals = 0;
		const write = async () => {
			for (let attempt = 1; ; attempt++) {
				if (attempt > 5) throw new Error('gave up after 5 attempts');
				const slot = await budget.take();
				await clock.sleep(25);
				const answer = api.hit(state.now);
				if (answer.ok) return slot.answered();
				refusals++;
				slot.refused(answer.retryAfterMs);
				await clock.sleep(Math.max(answer.retryAfterMs, 1000 * 2 ** (attempt - 1)));
			}
		};
		let done = false;
		const all = Promise.all(Array.from({ length: n }, write)).finally(() => (done = true));
		for (let step = 0; step < 100_000 && !done; step++) {
			for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
			if (done || timers.length === 0) break;
			const next = Math.min(...timers.map((t) => t.at));
			state.now = Math.max(state.now, next);
			const due = timers.filter((t) => t.at <= state.now);
			timers = timers.filter((t) => t.at > state.now);
			due.forEach((t) => t.wake());
		}
		await all;
		return { ms: state.now, refusals };
	}

	// The first burst goes out before any answer (the setting allows 120), so 80 are refused at
	// once; they must not hold the setting's minute once the API's 5-s window is learned.
	test.each([false, true])(
		'100 writes at once against 20 per 5 s (refusals counted: %s): within 1.25x of the minimum',
		async (countRefused) => {
			const { ms, refusals } = await concurrentWrites(100, slidingApi(20, 5000, { countRefused }));
			const minimum = 4 * 5000 + 25;
			expect(ms / minimum).toBeLessThanOrEqual(1.25);
			expect(refusals).toBeLessThanOrEqual(90);
		},
	);

	test('a refusal slows the key to what the API accepted just before; a second one at most halves it (manual clock)', async () => {
		const clock = manualClock();
		const budget = budgetFor(budgetKeyOf(`svc_${'h'.repeat(32)}`), 20);
		for (let i = 0; i < 10; i++) (await budget.take()).answered();
		(await budget.take()).refused(5000);
		expect(budget.slowedAt()).toEqual({ limit: 10, windowMs: 5000 });

		// After the pause, the first request is refused again: nothing was accepted in the slowed
		// window, yet the limit halves (10 → 5), not down to one request per window.
		(await budget.take()).refused(5000);
		expect(clock.waits).toEqual([5000]);
		expect(budget.slowedAt()).toEqual({ limit: 5, windowMs: 5000 });

		// Every workflow on the key then gets 5 requests per 5 s: the pause, 5 at once, then the window.
		clock.waits.length = 0;
		for (let i = 0; i < 6; i++) (await budget.take()).answered();
		expect(clock.waits.reduce((a, b) => a + b, 0)).toBe(5000 + 5000);
	});

	test("the slowed window is the API's: Retry-After plus the span of what it accepted just before", async () => {
		const { state, clock } = instantClock();
		const budget = new RateBudget(20, 60_000, clock);
		for (const at of [0, 1000, 2000, 3000]) {
			state.now = at;
			(await budget.take()).answered();
		}
		// Room in 2 s; the API accepted the requests of 2000 and 3000 within that, so its window goes back to 2000 at least.
		(await budget.take()).refused(2000);
		expect(budget.slowedAt()).toEqual({ limit: 3, windowMs: 3000 });
	});

	test('requests refused together slow the key down once', async () => {
		const { clock } = instantClock();
		const budget = new RateBudget(10, 60_000, clock);
		const slots = [];
		for (let i = 0; i < 4; i++) slots.push(await budget.take());
		slots[0].answered();
		slots[1].answered();
		slots[2].refused(5000);
		slots[3].refused(5000); // sent before the first refusal: the slow-down already counts it
		expect(budget.slowedAt()).toEqual({ limit: 2, windowMs: 5000 });
	});

	test('a refused request holds no place in the window: after the pause the key goes on at once', async () => {
		const { state, clock } = instantClock();
		const budget = new RateBudget(1, 60_000, clock);
		(await budget.take()).refused(2000);
		await budget.take();
		expect(state.now).toBe(2000);
	});

	test('in the slowed window a refused request holds its place: the API may have counted it', async () => {
		const { state, clock } = instantClock();
		const budget = new RateBudget(10, 60_000, clock);
		(await budget.take()).answered();
		state.now = 1000;
		(await budget.take()).answered();
		(await budget.take()).refused(2000);
		expect(budget.slowedAt()).toEqual({ limit: 2, windowMs: 3000 });
		await budget.take(); // the pause ends at 3000; the requests of 1000 (one accepted, one refused) fill the window until 4000
		expect(state.now).toBe(4000);
	});

	test('after quiet windows the slowed limit grows back by one per two windows, up to the setting', async () => {
		const { state, clock } = instantClock();
		const budget = new RateBudget(10, 60_000, clock);
		for (let i = 0; i < 4; i++) (await budget.take()).answered();
		(await budget.take()).refused(4000);
		expect(budget.slowedAt()).toEqual({ limit: 4, windowMs: 4000 });
		state.now += 4000 + 2 * 4000 - 1; // the pause is not quiet
		expect(budget.slowedAt()?.limit).toBe(4);
		state.now += 1;
		expect(budget.slowedAt()?.limit).toBe(5);
		state.now += 5 * 2 * 4000;
		expect(budget.slowedAt()).toBeUndefined();
	});
});

describe('the budgets of the process', () => {
	afterEach(() => realClock());

	test('a budget idle for longer than the idle time starts anew, its window empty', async () => {
		const key = budgetKeyOf(`svc_${'i'.repeat(32)}`);
		const clock = manualClock();
		const first = budgetFor(key, 5);
		for (let i = 0; i < 5; i++) (await first.take()).answered();
		expect(budgetFor(key, 5)).toBe(first); // in use: kept, its window full
		expect(first.waitMs()).toBe(60_000);
		clock.advance(10 * 60_000);
		const fresh = budgetFor(key, 5);
		expect(fresh).not.toBe(first);
		expect(fresh.waitMs()).toBe(0);
	});

	test('at most 1,000 keys are kept, but never one whose requests wait', async () => {
		manualClock();
		const [busyKey, idleKey] = [budgetKeyOf('svc_busy'), budgetKeyOf('svc_idle')];
		const busy = budgetFor(busyKey, 1);
		const slot = await busy.take(); // its answer has not come yet
		const idle = budgetFor(idleKey, 1);
		(await idle.take()).answered();
		for (let i = 0; i < 1000; i++) budgetFor(`key ${i}`, 1);
		expect(budgetFor(busyKey, 1)).toBe(busy);
		expect(budgetFor(idleKey, 1)).not.toBe(idle);
		slot.answered();
	});
});

describe("a key's window on the harness's clock", () => {
	afterEach(() => realClock());
	const total = (clock: ManualClock) => clock.waits.reduce((a, b) => a + b, 0);

	test('after a 429 with Retry-After: 0, the next request on the key waits at least 1 s', async () => {
		const clock = manualClock();
		const budget = budgetFor(budgetKeyOf(`svc_${'z'.repeat(32)}`), 10);
		(await budget.take()).refused(0);
		(await budget.take()).answered(); // another workflow on the key
		expect(total(clock)).toBeGreaterThanOrEqual(1000);
	});

	test('requests answered 10 s after sending hold their places a window after the answers, not the sends', async () => {
		const clock = manualClock();
		const budget = budgetFor(budgetKeyOf(`svc_${'s'.repeat(32)}`), 2);
		const slots = [await budget.take(), await budget.take()];
		clock.advance(10_000);
		for (const slot of slots) slot.answered();
		clock.advance(50_001); // a window after the sends
		(await budget.take()).answered();
		expect(clock.elapsed()).toBe(70_000);
	});
});

describe('two credentials on one key, through the node', () => {
	const credential = (requestsPerMinute: number) => ({
		credentials: { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute },
	});
	const getContact = {
		resource: 'contact',
		operation: 'get',
		contactId: { __rl: true, mode: 'id', value: 'ctc_1' },
	};
	const getAll = { resource: 'contact', operation: 'getAll', returnAll: true };
	const PAGES = 30;

	function answerPages() {
		const scope = nock(API);
		for (let n = 1; n <= PAGES; n++) {
			const data = Array.from({ length: 100 }, (_, i) => ({ id: `c${(n - 1) * 100 + i}` }));
			const meta = { page: n, pageSize: 100, total: PAGES * 100, hasMore: n < PAGES };
			scope.get('/v1/contacts').query({ page: n, pageSize: 100 }).reply(200, { data, meta });
		}
		return scope;
	}

	/** B's Return All over 30 pages on the manual clock: its records, the time it took and its waits. */
	async function runB(clock: ManualClock) {
		const scope = answerPages();
		const [start, waited] = [clock.elapsed(), clock.waits.length];
		const { items } = await runDeclarativeNode(node, getAll, credential(120));
		expect(scope.isDone()).toBe(true);
		return { records: items.length, ms: clock.elapsed() - start, waits: clock.waits.slice(waited) };
	}

	afterEach(() => {
		realClock();
		nock.cleanAll();
	});

	test("A's 1 per minute holds B (120) back only until it has been unused for 10 minutes", async () => {
		forgetRateBudgets();
		const alone = await runB(manualClock()); // B's own pacing, on a budget nobody else uses

		forgetRateBudgets();
		const clock = manualClock();
		nock(API)
			.get('/v1/contacts/ctc_1')
			.reply(200, { data: { id: 'ctc_1' } });
		await runDeclarativeNode(node, getContact, credential(1));
		const afterA = await runB(clock);

		expect(afterA.records).toBe(PAGES * 100);
		expect(afterA.waits[0]).toBe(60_000); // while A's setting is in use, the lowest wins
		expect(afterA.ms).toBeLessThanOrEqual(10 * 60_000 + alone.ms);
	});

	test('a run longer than 10 minutes keeps its own setting: each waiting request holds it', async () => {
		forgetRateBudgets();
		const clock = manualClock();
		nock(API)
			.get('/v1/contacts/ctc_1')
			.times(13)
			.reply(200, { data: { id: 'ctc_1' } });
		const items = Array.from({ length: 12 }, () => ({ json: {} }));
		const slow = runDeclarativeNode(node, getContact, { ...credential(1), items });
		const fast = runDeclarativeNode(node, getContact, credential(120)); // starts last, behind the slow run's items
		await Promise.all([slow, fast]);
		expect(clock.waits).toEqual(Array.from({ length: 12 }, () => 60_000));
	});
});

describe('regression: the deadline timer outlived its slot', () => {
	/**
	 * Breaker b29d: "take({ maxWaitMs }): the deadline timer not kept alive after the slot is given".
	 *
	 * take() arms its deadline with clock.sleep(maxWaitMs, deadline.signal) and aborts that signal once
	 * the slot is given. The package's systemClock.sleep is unlessCancelled(sleep(ms), signal): it calls
	 * n8n's sleep WITHOUT the signal, so the abort only stops waiting for the promise; the setTimeout
	 * itself stays armed for the whole maxWaitMs (10 s per activation request), keeping the process
	 * busy after every request sent at once.
	 * Expected: once take() has handed out the slot, no timer of it is left.
	 */
	const { systemClock } = jest.requireActual<typeof ClockModule>('../../nodes/shared/api/clock');

	afterEach(() => {
		jest.useRealTimers();
	});

	test('a slot given at once leaves no deadline timer behind', async () => {
		jest.useFakeTimers();
		const budget = new RateBudget(5, 60_000, systemClock);
		const slot = await budget.take({ maxWaitMs: 10_000 });
		slot.answered();
		// not the 10 s deadline's setTimeout, aborted but still armed
		expect(jest.getTimerCount()).toBe(0);
	});

	test('without maxWaitMs no timer is left either (the control)', async () => {
		jest.useFakeTimers();
		const budget = new RateBudget(5, 60_000, systemClock);
		(await budget.take()).answered();
		expect(jest.getTimerCount()).toBe(0);
	});
});
