import { createHash } from 'node:crypto';

import { CancelledWait, systemClock, type Clock } from './clock';
import { paceAfterRefusal, paceNow, type Pace, type Sent } from './pace';

/** The API's documented limit (spec 8): 120 requests per minute per key, sliding window. */
export const DEFAULT_REQUESTS_PER_MINUTE = 120;
export const API_WINDOW_MS = 60_000;

/** The longest Retry-After a request waits for; a longer one fails the item and names the wait. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** A Requests per Minute setting counts for its key until it has not been used for this long. */
const SETTING_MEMORY_MS = 10 * 60_000;
/** A budget with nothing waiting, sent or learned for this long is forgotten. */
const IDLE_MS = 10 * 60_000;
/** At most this many keys' budgets are kept; beyond it the least recently used idle one goes. */
const MAX_BUDGETS = 1000;

/**
 * `editor`: a look-up of the editor (list search, load options): it goes before every waiting
 * production request, within the same window. `run`: workflow runs, first come first served.
 * `poll`: the polling trigger's list reads: after every waiting `editor` and `run` request, so a
 * poll never holds up a workflow run on the same key.
 */
export type Lane = 'run' | 'editor' | 'poll';

export interface TakeOptions {
	lane?: Lane;
	/** The Requests per Minute of the credential asking: it counts while the request waits, and from when it is sent. */
	limit?: number;
	/** The execution's cancel signal: when it aborts, the request leaves the queue at once. */
	signal?: AbortSignal;
	/**
	 * The longest it may wait for its turn (the trigger's activation, which n8n gives a deadline):
	 * when room is further off, or its turn has not come by then, take() fails with TooLongWait.
	 */
	maxWaitMs?: number;
}

/** A request that would have waited longer than its `maxWaitMs`; it was not sent. */
export class TooLongWait extends Error {
	constructor(
		/** How long it would still have had to wait for room, as far as known now (0: behind others). */
		/** Infinity: until requests already sent are answered. */
		readonly waitMs: number,
	) {
		const wait = Number.isFinite(waitMs) ? `${Math.ceil(waitMs / 1000)} s` : 'until requests already sent are answered';
		super(`The request would have waited ${wait} for room in the rate budget; it was not sent`);
		this.name = 'TooLongWait';
	}
}

/** A sent request's place in the window. Exactly one of its methods is called, once. */
export interface Slot {
	/** The API answered (anything but 429), or the request failed without an answer. */
	answered(accepted: boolean): void;
	/** The API refused it (429) and asked to wait `retryAfterMs`. */
	refused(retryAfterMs: number): void;
}

interface Waiter {
	lane: Lane;
	limit?: number;
	give(slot: Slot): void;
}

/**
 * Room for one more request among `slots` under `limit` per `windowMs`: 0 now, the ms until then,
 * or Infinity while it depends on a request not answered yet (it leaves a window after its answer).
 */
function roomIn(slots: Sent[], limit: number, windowMs: number, now: number): number {
	const inWindow = slots.filter((s) => s.state === 'pending' || s.at > now - windowMs);
	if (inWindow.length < limit) return 0;
	const times = inWindow.map((s) => (s.state === 'pending' ? Infinity : s.at)).sort((a, b) => a - b);
	return Math.max(1, times[inWindow.length - limit] + windowMs - now);
}

/**
 * The client-side rate budget of one API key: at most the credential's Requests per Minute in any
 * window (the API's sliding minute), counted on this side so that requests wait for room instead
 * of being sent and refused. Every request counts, refused ones too, so the budget holds whether
 * or not the API counts refusals (once pacing has learned a shorter window, a refused request
 * counts for that window only: a burst refused at once must not hold the minute). A request
 * occupies its place from when it is sent until a window after its answer arrived (the API saw it
 * somewhere in between), so network delays never make the next window start early.
 *
 * Two credentials with the same key and different settings: the lowest setting in use wins. A
 * setting is in use while a request of its credential waits, and until SETTING_MEMORY_MS after one
 * was last sent (or its credential last started a run); the limit is worked out from those times
 * at each decision, and a waiting request is looked at again when the setting holding it expires.
 *
 * Turns: editor look-ups first, then production requests in the order they asked; a turn waits
 * only for room in the window (or a Retry-After pause), never for another request's exchange. A
 * cancelled request leaves the queue at once and takes nothing; the next in line moves up.
 *
 * A 429 pauses everyone for its Retry-After, and teaches a pace (pace.ts): a second, tighter
 * window that then holds beside the setting's until pacing has grown back to the setting.
 */
export class RateBudget {
	private readonly limits = new Map<number, number>();
	private sent: Sent[] = [];
	private readonly waiters: Waiter[] = [];
	private pumping = false;
	private pausedUntil = 0;
	private learned: Pace | undefined;
	private lessonAt = -Infinity;
	private lastSentAt = -Infinity;
	private lastUsed: number;
	private answer = RateBudget.nextAnswer();

	private static nextAnswer() {
		let resolve!: () => void;
		const promise = new Promise<void>((r) => (resolve = r));
		return { promise, resolve };
	}

	constructor(
		limit: number,
		private readonly windowMs = API_WINDOW_MS,
		private readonly clock: Clock = systemClock,
	) {
		this.lastUsed = clock.now();
		this.useLimit(limit);
	}

	/** A credential with this Requests per Minute uses the key now. */
	useLimit(limit: number): void {
		const now = this.clock.now();
		this.limits.delete(limit); // re-inserted below: the map's order is the order of last use
		this.limits.set(limit, now);
		for (const [value, seen] of this.limits) if (!this.counts(seen, now) && value !== limit) this.limits.delete(value);
	}

	/** The limit per window in force: the lowest setting in use. */
	get limit(): number {
		return this.limitAt(this.clock.now());
	}

	/** A setting last used at `seen` still counts at `now`. */
	private counts(seen: number, now: number): boolean {
		return now - seen < SETTING_MEMORY_MS;
	}

	/** The lowest setting in use at `now`; if none is, the one used last (the map keeps it). */
	private limitAt(now: number): number {
		let lowest = Infinity;
		for (const [value, seen] of this.limits) if (this.counts(seen, now)) lowest = Math.min(lowest, value);
		for (const waiter of this.waiters) if (waiter.limit !== undefined) lowest = Math.min(lowest, waiter.limit);
		return lowest < Infinity ? lowest : [...this.limits.keys()].at(-1)!;
	}

	/** The ms until the setting that sets the limit stops counting, or Infinity (a waiting request holds it, or none will). */
	private limitChangesIn(now: number): number {
		const limit = this.limitAt(now);
		if (this.waiters.some((w) => w.limit === limit)) return Infinity;
		const seen = this.limits.get(limit);
		return seen !== undefined && this.counts(seen, now) ? seen + SETTING_MEMORY_MS - now : Infinity;
	}

	/** What pacing has learned, if anything: `{ limit, windowMs }`. */
	get learnedPace(): { limit: number; windowMs: number } | undefined {
		return this.learned && { limit: this.learned.limit, windowMs: this.learned.windowMs };
	}

	/** Waits for its turn and room in the window, then counts one request as sent now. */
	async take(options: TakeOptions = {}): Promise<Slot> {
		const { lane = 'run', signal, limit, maxWaitMs } = options;
		if (signal?.aborted) throw new CancelledWait();
		this.lastUsed = this.clock.now();
		if (maxWaitMs !== undefined) {
			const wait = this.waitMs();
			if (wait !== Infinity && wait > maxWaitMs) throw new TooLongWait(wait);
		}
		const deadline = maxWaitMs === undefined ? undefined : new AbortController();
		return await new Promise<Slot>((resolve, reject) => {
			const leave = (error: Error) => {
				const index = this.waiters.indexOf(waiter);
				if (index < 0) return;
				this.waiters.splice(index, 1);
				signal?.removeEventListener('abort', onAbort);
				deadline?.abort();
				reject(error);
			};
			const onAbort = () => leave(new CancelledWait());
			const waiter: Waiter = {
				lane,
				limit,
				give: (slot) => {
					signal?.removeEventListener('abort', onAbort);
					deadline?.abort();
					resolve(slot);
				},
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			if (deadline) {
				this.clock.sleep(maxWaitMs!, deadline.signal).then(
					() => leave(new TooLongWait(this.waitMs())),
					() => undefined,
				);
			}
			this.waiters.push(waiter);
			void this.pump();
		});
	}

	/** How long a request asking now would wait for room (0: at once; Infinity: until an answer comes). */
	waitMs(now = this.clock.now()): number {
		this.sent = this.sent.filter((s) => s.state === 'pending' || s.at > now - this.windowMs);
		const learned = (this.learned = paceNow(this.learned, now, this.pausedUntil, this.limitAt(now)));
		// Once the API's own window is learned, a refused request holds a place for that window only.
		const forSetting = learned ? this.sent.filter((s) => s.state !== 'refused' || s.at > now - learned.windowMs) : this.sent;
		let wait = Math.max(0, this.pausedUntil - now, roomIn(forSetting, this.limitAt(now), this.windowMs, now));
		if (learned) wait = Math.max(wait, roomIn(this.sent, learned.limit, learned.windowMs, now));
		if (learned?.spaced) wait = Math.max(wait, this.lastSentAt + learned.windowMs / learned.limit - now);
		return wait;
	}

	/** Nothing waits, nothing is in the window or learned, and it has not been used for IDLE_MS. */
	isIdle(now = this.clock.now()): boolean {
		return !this.isBusy() && this.waitMs(now) === 0 && now - this.lastUsed > IDLE_MS;
	}

	/** Something waits for its turn or for its answer. */
	isBusy(): boolean {
		return this.waiters.length > 0 || this.sent.some((s) => s.state === 'pending');
	}

	/** Serves the queue: one runs at a time; it stops when the queue is empty. */
	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			while (this.waiters.length > 0) {
				const now = this.clock.now();
				const wait = this.waitMs(now);
				if (wait === Infinity) {
					await this.answer.promise;
					continue;
				}
				if (wait > 0) {
					// A lower setting that stops counting first may make room sooner: look again then.
					await this.clock.sleep(Math.min(wait, this.limitChangesIn(now)));
					continue;
				}
				const editor = this.waiters.findIndex((w) => w.lane === 'editor');
				const run = this.waiters.findIndex((w) => w.lane !== 'poll');
				const [waiter] = this.waiters.splice(editor >= 0 ? editor : Math.max(0, run), 1);
				if (waiter.limit !== undefined) this.useLimit(waiter.limit);
				waiter.give(this.send(now));
			}
		} finally {
			this.pumping = false;
		}
	}

	private send(now: number): Slot {
		const entry: Sent = { sentAt: now, at: now, state: 'pending' };
		this.sent.push(entry);
		this.lastSentAt = now;
		const close = (state: Sent['state']) => {
			if (entry.state !== 'pending') return false;
			entry.state = state;
			entry.at = Math.max(entry.at, this.clock.now());
			this.lastUsed = entry.at;
			const answer = this.answer;
			this.answer = RateBudget.nextAnswer();
			answer.resolve();
			return true;
		};
		return {
			answered: (accepted) => {
				close(accepted ? 'accepted' : 'failed');
			},
			refused: (retryAfterMs) => {
				if (close('refused')) this.learn(entry, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
			},
		};
	}

	/** A refusal: pause everyone for Retry-After; unless the request predates the last lesson, learn. */
	private learn(refused: Sent, retryAfterMs: number): void {
		const now = this.clock.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
		if (refused.sentAt < this.lessonAt) return;
		this.lessonAt = now;
		const lesson = { previous: this.learned, setting: this.limitAt(now), apiWindowMs: this.windowMs, sent: this.sent, refused, retryAfterMs, now };
		this.learned = paceAfterRefusal(lesson);
	}
}

/** The name a key's budget is kept under: a hash, never the key itself. */
export function budgetKeyOf(apiKey: string): string {
	return createHash('sha256').update(`business-ops rate budget\n${apiKey.trim()}`).digest('hex');
}

/**
 * Every key's budget in this process, by `budgetKeyOf`. Bounded: idle budgets are forgotten, and
 * beyond MAX_BUDGETS the least recently used idle budget goes.
 */
const budgets = new Map<string, RateBudget>();
let lastSweep = 0;

/**
 * The budget of one API key, with this credential's Requests per Minute in use. The window is the
 * API's minute; a harness may pass another (the budget keeps the one it was created with).
 */
export function budgetFor(key: string, limit: number, windowMs = API_WINDOW_MS): RateBudget {
	const now = systemClock.now();
	let budget = budgets.get(key);
	// An idle budget is forgotten as if the sweep had taken it: it starts anew, with this window.
	if (budget?.isIdle(now)) budget = undefined;
	if (budget) {
		budgets.delete(key); // re-inserted below: the map's order is the order of last use
		budget.useLimit(limit);
	} else {
		budget = new RateBudget(limit, windowMs);
	}
	budgets.set(key, budget);
	if (now - lastSweep > IDLE_MS / 10 || budgets.size > MAX_BUDGETS) {
		lastSweep = now;
		for (const [k, b] of budgets) if (b !== budget && b.isIdle(now)) budgets.delete(k);
		// Still too many keys in use: the least recently used that nothing waits for goes first.
		for (const [k, b] of budgets) {
			if (budgets.size <= MAX_BUDGETS) break;
			if (b !== budget && !b.isBusy()) budgets.delete(k);
		}
	}
	return budget;
}
