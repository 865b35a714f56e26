/**
 * The API client's waits (retry backoff, Retry-After, the rate budget) on a clock the tests choose.
 * The package has no test hook: `apiClock.ts` (a jest setup file) puts `harnessClock` in place of
 * the package's `systemClock` for every test file, and it runs on the real clock until a test
 * switches it:
 * - `fastClock()`: for tests about outcomes rather than timing; each wait is recorded and skipped,
 *   while the order of events stays real (a wait still yields to the event loop, so servers in the
 *   test process answer);
 * - `manualClock()`: time moves only by the waits, which are recorded (exact pacing assertions);
 * - `scaledClock(factor)`: real time, `factor` times faster (a minute's window against a sandbox's second);
 * - `forgetRateBudgets()`: moves every clock past the time after which an unused budget is
 *   forgotten, so the next test starts with fresh budgets (as a long-idle n8n would).
 *
 * A test of test/node never waits on the real clock: there a wrong wait (a retry a mutation
 * caused, a budget that holds a request back) would fail by the 30-s test timeout instead of by an
 * assertion. On the real clock such a wait is skipped (time moves on as after it) and recorded,
 * and the test fails after it naming the waits (assertions.ts); those files turn on `fastClock()`
 * or `manualClock()` before each test.
 */
import type { Clock } from '../../nodes/shared/api/clock';
import { realWaitsRefused } from './realWaits';

type ClockModule = typeof import('../../nodes/shared/api/clock');
const real: Clock = jest.requireActual<ClockModule>('../../nodes/shared/api/clock').systemClock;

/** Added to every clock: forgetRateBudgets moves it on. */
let offset = 0;

const MUST_NOT_WAIT_FOR_REAL = /[\\/]test[\\/]node[\\/]/;

/** The real clock: its waits, except in a test of test/node (recorded and skipped). */
function realTime(): Clock {
	return {
		now: () => real.now() + offset,
		sleep: async (ms, signal) => {
			if (ms > 0 && MUST_NOT_WAIT_FOR_REAL.test(expect.getState().testPath ?? '')) {
				realWaitsRefused.push(ms);
				offset += ms;
				return await real.sleep(1, signal);
			}
			return await real.sleep(ms, signal);
		},
		timeout: real.timeout,
	};
}

let current: Clock = realTime();

/** What the package's transport and rate budget see as `systemClock` in tests. */
export const harnessClock: Clock = {
	now: () => current.now(),
	sleep: async (ms, signal) => await current.sleep(ms, signal),
	timeout: (ms) => current.timeout(ms),
};

/** The real sleep, for a test's own pauses while another clock is on. */
export const realSleep = async (ms: number): Promise<void> => await real.sleep(ms);

/** Turns the fast clock on; returns the list the waits asked for are recorded in. */
export function fastClock(): number[] {
	const waits: number[] = [];
	let skew = 0;
	current = {
		now: () => real.now() + offset + skew,
		sleep: async (ms, signal) => {
			waits.push(ms);
			skew += ms;
			await real.sleep(1, signal);
		},
		timeout: real.timeout,
	};
	return waits;
}

/**
 * Turns on a clock that runs `factor` times faster than real time, waits included: with 60, the
 * API's minute (a budget's window) passes in a real second, as a sandbox limit per second does.
 */
export function scaledClock(factor: number): void {
	const start = real.now();
	const base = start + offset;
	current = {
		now: () => base + (real.now() - start) * factor,
		sleep: async (ms, signal) => await real.sleep(Math.ceil(ms / factor), signal),
		timeout: (ms) => real.timeout(Math.ceil(ms / factor)),
	};
}

export interface ManualClock {
	/** Every wait asked for, in order. */
	waits: number[];
	/** Milliseconds since the manual clock was turned on. */
	elapsed(): number;
	/** Moves time on without a wait (an answer that takes time, a pause between runs). */
	advance(ms: number): void;
	/** Aborts every editor timeout signal handed out so far (an editor look-up running out of time). */
	expireTimeouts(): void;
}

/** Turns on a clock that moves only by the waits (each resolves at once) and by `advance`. */
export function manualClock(): ManualClock {
	const start = real.now() + offset;
	let now = start;
	const waits: number[] = [];
	const timeouts: AbortController[] = [];
	current = {
		now: () => now,
		sleep: async (ms, signal) => {
			if (signal?.aborted) return await real.sleep(0, signal);
			waits.push(ms);
			now += ms;
			await Promise.resolve();
		},
		timeout: () => {
			const controller = new AbortController();
			timeouts.push(controller);
			return controller.signal;
		},
	};
	return {
		waits,
		elapsed: () => now - start,
		advance: (ms) => {
			now += ms;
		},
		expireTimeouts: () => timeouts.forEach((c) => c.abort()),
	};
}

/** Turns on a clock of the test's own (a rate budget's unit tests step it by hand). */
export function useClock(clock: Clock): void {
	current = clock;
}

/** Back to real time (still past every forgotten budget). */
export function realClock(): void {
	const base = current.now();
	const realNow = real.now();
	offset = Math.max(offset, base - realNow);
	current = realTime();
}

/** Every rate budget of the process is forgotten by the next request (an hour passes for the package). */
export function forgetRateBudgets(): void {
	realClock();
	offset += 60 * 60_000;
	current = realTime();
}
