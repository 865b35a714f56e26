import { sleep } from 'n8n-workflow';

/** Replaced in tests to observe waits without spending them. */
export const timing = {
	now: () => Date.now(),
	sleep: async (ms: number) => await sleep(ms),
};

/** The API's documented limit (spec 8): 120 requests per minute per key, sliding window. */
export const DEFAULT_REQUESTS_PER_MINUTE = 120;
export const DEFAULT_WINDOW_MS = 60_000;

/** The longest Retry-After a request waits for; a longer one fails the item and names the wait. */
export const MAX_RETRY_AFTER_MS = 120_000;

export interface BudgetSettings {
	limit: number;
	windowMs: number;
}

/** A sent request's place in the window; `answered` moves it to when the answer came back. */
export interface Slot {
	answered(): void;
}

/**
 * The client-side rate budget of one API key: at most `limit` requests in any `windowMs`
 * (the API's sliding window), counted on this side so that requests wait for room instead of
 * being sent and refused. Every request counts, refused ones too, so the budget holds whether
 * or not the API counts refusals. A request occupies its place from when it is sent until a
 * window after its answer arrived (the API saw it somewhere in between), so network delays
 * never make the next window start early.
 *
 * Requests take their turn in the order they asked; a turn only waits for room in the window
 * (or a Retry-After pause), never for another request's network exchange.
 *
 * After a 429 (someone else uses the key too: another n8n worker or tool, or the API's limit is
 * lower than the credential says), everyone waits out the Retry-After, and until a whole window
 * passes without a refusal the budget takes half its share and sends one request at a time, so
 * that each answer (and each Retry-After) is known before the next request goes.
 */
export class RateBudget {
	private settings: BudgetSettings;
	private sent: Array<{ at: number }> = [];
	private pausedUntil = 0;
	private sharedUntil = 0;
	private queue: Promise<void> = Promise.resolve();
	private inFlight = 0;
	private answer: { promise: Promise<void>; resolve: () => void } = RateBudget.nextAnswer();

	private static nextAnswer() {
		let resolve!: () => void;
		const promise = new Promise<void>((r) => (resolve = r));
		return { promise, resolve };
	}

	constructor(settings: BudgetSettings) {
		this.settings = { ...settings };
	}

	configure(settings: BudgetSettings): void {
		this.settings = { ...settings };
	}

	/** Waits for room in the window, then counts one request as sent now. */
	async take(): Promise<Slot> {
		const turn = this.queue.then(async () => await this.waitForRoom());
		this.queue = turn.then(
			() => undefined,
			() => undefined,
		);
		return await turn;
	}

	/** The API refused a request: pause everyone for Retry-After and halve the share for a window. */
	refused(retryAfterMs: number): void {
		const now = timing.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
		this.sharedUntil = Math.max(this.pausedUntil, now) + this.settings.windowMs;
	}

	/** How long a request asking now would wait (0: it could go at once). */
	waitMs(now = timing.now()): number {
		const { windowMs } = this.settings;
		this.sent = this.sent.filter((slot) => slot.at > now - windowMs);
		const limit = now < this.sharedUntil ? Math.max(1, Math.floor(this.settings.limit / 2)) : this.settings.limit;
		let wait = Math.max(0, this.pausedUntil - now);
		if (this.sent.length >= limit) {
			const times = this.sent.map((slot) => slot.at).sort((a, b) => a - b);
			wait = Math.max(wait, times[this.sent.length - limit] + windowMs - now);
		}
		return wait;
	}

	private async waitForRoom(): Promise<Slot> {
		// Each round either finds room or waits until the earliest moment room can appear.
		for (;;) {
			const now = timing.now();
			if (now < this.sharedUntil && this.inFlight > 0) {
				await this.answer.promise;
				continue;
			}
			const wait = this.waitMs(now);
			if (wait <= 0) return this.send(now);
			await timing.sleep(wait);
		}
	}

	private send(now: number): Slot {
		const slot = { at: now };
		this.sent.push(slot);
		this.inFlight++;
		let open = true;
		return {
			answered: () => {
				if (!open) return;
				open = false;
				slot.at = Math.max(slot.at, timing.now());
				this.inFlight--;
				const answer = this.answer;
				this.answer = RateBudget.nextAnswer();
				answer.resolve();
			},
		};
	}
}

const budgets = new Map<string, RateBudget>();

/** The budget of one API key in this process, with the credential's current settings. */
export function budgetFor(key: string, settings: BudgetSettings): RateBudget {
	let budget = budgets.get(key);
	if (budget) {
		budget.configure(settings);
	} else {
		budget = new RateBudget(settings);
		budgets.set(key, budget);
	}
	return budget;
}

/** Forgets every key's budget (used between tests). */
export function clearRateBudgets(): void {
	budgets.clear();
}
