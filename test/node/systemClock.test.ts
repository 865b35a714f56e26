import type * as ClockModule from '../../nodes/shared/api/clock';

const { CancelledWait, systemClock } = jest.requireActual<typeof ClockModule>('../../nodes/shared/api/clock');

afterEach(() => {
	jest.useRealTimers();
});

describe('systemClock.sleep', () => {
	test('a wait cancelled midway rejects with CancelledWait and leaves no timer', async () => {
		jest.useFakeTimers();
		const cancel = new AbortController();
		const slept = systemClock.sleep(10_000, cancel.signal);
		cancel.abort();
		await expect(slept).rejects.toBeInstanceOf(CancelledWait);
		expect(jest.getTimerCount()).toBe(0);
	});

	test('a wait asked for after the cancellation rejects with CancelledWait at once', async () => {
		jest.useFakeTimers();
		const cancel = new AbortController();
		cancel.abort();
		await expect(systemClock.sleep(10_000, cancel.signal)).rejects.toBeInstanceOf(CancelledWait);
		expect(jest.getTimerCount()).toBe(0);
	});

	test('a wait not cancelled resolves when its time has passed', async () => {
		jest.useFakeTimers();
		const slept = systemClock.sleep(10_000, new AbortController().signal);
		jest.advanceTimersByTime(10_000);
		await expect(slept).resolves.toBeUndefined();
	});
});
