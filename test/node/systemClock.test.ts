import { getEventListeners } from 'node:events';

import type * as ClockModule from '../../nodes/shared/api/clock';

const { WaitEnded, systemClock } = jest.requireActual<typeof ClockModule>(
	'../../nodes/shared/api/clock',
);

afterEach(() => {
	jest.useRealTimers();
});

describe('systemClock.sleep', () => {
	test('a wait cancelled midway rejects with WaitEnded and leaves no timer', async () => {
		jest.useFakeTimers();
		const cancel = new AbortController();
		const slept = systemClock.sleep(10_000, cancel.signal);
		cancel.abort();
		await expect(slept).rejects.toBeInstanceOf(WaitEnded);
		expect(jest.getTimerCount()).toBe(0);
	});

	test('a wait asked for after the cancellation rejects with WaitEnded at once', async () => {
		jest.useFakeTimers();
		const cancel = new AbortController();
		cancel.abort();
		await expect(systemClock.sleep(10_000, cancel.signal)).rejects.toBeInstanceOf(WaitEnded);
		expect(jest.getTimerCount()).toBe(0);
	});

	test('waits on one signal leave no abort listener behind', async () => {
		const signal = new AbortController().signal;
		for (let i = 0; i < 20; i++) await systemClock.sleep(0, signal);
		expect(getEventListeners(signal, 'abort')).toEqual([]);
	});

	test('a wait not cancelled resolves when its time has passed', async () => {
		jest.useFakeTimers();
		const slept = systemClock.sleep(10_000, new AbortController().signal);
		jest.advanceTimersByTime(10_000);
		await expect(slept).resolves.toBeUndefined();
	});
});
