import { sleep } from 'n8n-workflow';

/** Replaced in tests to observe waits without spending them. */
export const timing = {
	now: () => Date.now(),
	sleep: async (ms: number) => await sleep(ms),
};

/** How long a key stays in one-at-a-time mode after its last 429: the spec's rate window. */
export const THROTTLE_WINDOW_MS = 60_000;

/**
 * Shares what one request learns from a 429 with the others made with the same credential
 * in this n8n process. After a 429, everyone waits out the Retry-After, and requests are sent
 * one at a time until a whole window passes without another 429; this way a burst of items
 * costs one refused request per window instead of one per item, and no request runs out of
 * attempts while it waits its turn. Outside that, requests are not held back at all.
 */
export class RateLimitGate {
	private pausedUntil = 0;
	private throttledUntil = 0;
	private queue: Promise<void> = Promise.resolve();

	async run<T>(send: () => Promise<T>): Promise<T> {
		if (timing.now() >= this.throttledUntil) {
			await this.waitForPause();
			return await send();
		}
		const turnBefore = this.queue;
		let endTurn!: () => void;
		this.queue = new Promise<void>((resolve) => (endTurn = resolve));
		try {
			await turnBefore;
			await this.waitForPause();
			return await send();
		} finally {
			endTurn();
		}
	}

	rateLimited(retryAfterMs: number): void {
		const now = timing.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
		this.throttledUntil = now + THROTTLE_WINDOW_MS;
	}

	private async waitForPause(): Promise<void> {
		// Another 429 may extend the pause while this one waits; a few rounds cover that.
		for (let round = 0; round < 10; round++) {
			const wait = this.pausedUntil - timing.now();
			if (wait <= 0) return;
			await timing.sleep(wait);
		}
	}
}

const gates = new Map<string, RateLimitGate>();

/** The gate of one credential (an API key has one rate limit, whichever node uses it). */
export function gateFor(key: string): RateLimitGate {
	let gate = gates.get(key);
	if (!gate) {
		gate = new RateLimitGate();
		gates.set(key, gate);
	}
	return gate;
}

/** Forgets what was learned about every credential's rate limit (used between tests). */
export function clearRateLimitGates(): void {
	gates.clear();
}
