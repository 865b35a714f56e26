/** The time the API client's waits run on (rate budget, Retry-After, backoff); see ARCHITECTURE.md. */
import { sleep } from 'n8n-workflow';

/** `sleep` rejects with WaitEnded as soon as `signal` aborts; `timeout(ms)` is a signal that aborts after `ms`. */
export interface Clock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
	timeout(ms: number): AbortSignal;
}

/** A request stopped waiting, not sent: cancelled, or (`waitMs`, Infinity: until answers come) its turn is too far off. */
export class WaitEnded extends Error {
	constructor(readonly waitMs?: number) {
		super('The request stopped waiting; it was not sent');
		this.name = 'WaitEnded';
	}
}

export const systemClock: Clock = {
	now: () => Date.now(),
	// n8n 2.x's sleep clears its timer when the signal aborts; n8n 1.x's takes no signal, and the
	// race below ends the wait there. The listener is removed either way: one execution's signal sees many waits.
	sleep: async (ms, signal) => {
		if (signal?.aborted) throw new WaitEnded();
		let onAbort = () => {};
		const cancelled = new Promise<never>((_, reject) => {
			onAbort = () => reject(new WaitEnded());
			signal?.addEventListener('abort', onAbort, { once: true });
		});
		try {
			await Promise.race([sleep(ms, signal), cancelled]);
		} catch (error) {
			throw signal?.aborted ? new WaitEnded() : error;
		} finally {
			signal?.removeEventListener('abort', onAbort);
		}
	},
	timeout: (ms) => AbortSignal.timeout(ms),
};
