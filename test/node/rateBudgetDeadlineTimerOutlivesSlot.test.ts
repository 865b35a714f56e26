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
import type * as ClockModule from '../../nodes/shared/api/clock';
import { RateBudget } from '../../nodes/shared/api/rateBudget';
import { useClock } from '../harness/clock';

const { systemClock } = jest.requireActual<typeof ClockModule>('../../nodes/shared/api/clock');

beforeEach(() => useClock(systemClock));

afterEach(() => {
	jest.useRealTimers();
});

test('a slot given at once leaves no deadline timer behind', async () => {
	jest.useFakeTimers();
	const budget = new RateBudget(5, 60_000);
	const slot = await budget.take({ maxWaitMs: 10_000 });
	slot.answered();
	// not the 10 s deadline's setTimeout, aborted but still armed
	expect(jest.getTimerCount()).toBe(0);
});

test('without maxWaitMs no timer is left either (the control)', async () => {
	jest.useFakeTimers();
	const budget = new RateBudget(5, 60_000);
	(await budget.take()).answered();
	expect(jest.getTimerCount()).toBe(0);
});
