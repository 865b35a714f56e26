import { sleep } from 'n8n-workflow';

/** The time the API client's waits run on: the rate budget, Retry-After, retry backoff. */
export interface Clock {
	now(): number;
	/** Resolves after `ms`, or rejects as soon as `signal` aborts (the execution was cancelled). */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
	/** A signal that aborts after `ms`. */
	timeout(ms: number): AbortSignal;
}

/** The error a wait ends with when its execution is cancelled. */
export class CancelledWait extends Error {
	constructor() {
		super('The execution was cancelled while this request waited; it was not sent');
		this.name = 'CancelledWait';
	}
}

/**
 * Settles like `promise`, or rejects with CancelledWait as soon as `signal` aborts. The listener is
 * removed either way: one execution's signal sees many waits (every page of a list).
 */
export async function unlessCancelled<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
	if (!signal) return await promise;
	if (signal.aborted) throw new CancelledWait();
	let onAbort = () => {};
	const cancelled = new Promise<never>((_, reject) => {
		onAbort = () => reject(new CancelledWait());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise, cancelled]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

export const systemClock: Clock = {
	now: () => Date.now(),
	// n8n 2.x's sleep clears its timer when the signal aborts (its rejection is read as CancelledWait);
	// n8n 1.x's takes no signal, and unlessCancelled ends the wait there.
	sleep: async (ms, signal) => {
		if (signal?.aborted) throw new CancelledWait();
		try {
			await unlessCancelled(sleep(ms, signal), signal);
		} catch (error) {
			throw signal?.aborted ? new CancelledWait() : error;
		}
	},
	timeout: (ms) => AbortSignal.timeout(ms),
};
