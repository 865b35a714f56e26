export interface RateLimitConfig {
	limit: number;
	windowMs: number;
}

export type RateDecision =
	| { allowed: true; limit: number; remaining: number }
	| { allowed: false; limit: number; retryAfterSeconds: number };

/** Request times of one key, oldest first; a head index avoids O(n) shifts. */
class TimeQueue {
	private times: number[] = [];
	private head = 0;

	get size(): number {
		return this.times.length - this.head;
	}

	oldest(): number {
		return this.times[this.head];
	}

	push(time: number): void {
		this.times.push(time);
	}

	dropBefore(cutoff: number): void {
		while (this.head < this.times.length && this.times[this.head] <= cutoff) this.head++;
		if (this.head > 1024 && this.head * 2 > this.times.length) {
			this.times = this.times.slice(this.head);
			this.head = 0;
		}
	}
}

/**
 * Sliding-window log per API key: a request is allowed when fewer than `limit` counted requests
 * fall in the last `windowMs`. Whether refused requests count is a switch (`countRefused`): the spec
 * does not say, and an API that counts them punishes a client that retries too early.
 */
export class SlidingWindowRateLimiter {
	private readonly windows = new Map<string, TimeQueue>();
	/** Refused (429) requests are recorded in the window too. */
	countRefused = false;

	constructor(private config: RateLimitConfig) {}

	get current(): RateLimitConfig {
		return { ...this.config };
	}

	configure(config: RateLimitConfig): void {
		this.config = { ...config };
	}

	clear(): void {
		this.windows.clear();
	}

	take(keyId: string, now = Date.now()): RateDecision {
		const { limit, windowMs } = this.config;
		let queue = this.windows.get(keyId);
		if (!queue) {
			queue = new TimeQueue();
			this.windows.set(keyId, queue);
		}
		queue.dropBefore(now - windowMs);
		if (queue.size >= limit) {
			const waitMs = queue.oldest() + windowMs - now;
			if (this.countRefused) queue.push(now);
			return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
		}
		queue.push(now);
		return { allowed: true, limit, remaining: limit - queue.size };
	}
}
