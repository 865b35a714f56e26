/**
 * The API client's waits (retry backoff, Retry-After, the rate budget) on a clock of their own,
 * for tests about outcomes rather than timing: each wait is recorded and skipped, while the
 * order of events stays real (a wait still yields to the event loop, so servers in the test
 * process answer).
 */
import { timing } from '../../nodes/shared/api/rateBudget';

const real = { ...timing };

/** The real sleep, for a test's own pauses while the fast clock is on. */
export const realSleep = real.sleep;

/** Turns the fast clock on; returns the list the waits asked for are recorded in. */
export function fastClock(): number[] {
	const waits: number[] = [];
	let skew = 0;
	timing.now = () => Date.now() + skew;
	timing.sleep = async (ms: number) => {
		waits.push(ms);
		skew += ms;
		await real.sleep(1);
	};
	return waits;
}

/** Back to real time. */
export function realClock(): void {
	Object.assign(timing, real);
}
