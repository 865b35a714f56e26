/** The client-side rate budget of each API key (pacing before the API refuses): see ARCHITECTURE.md. */
import { createHash } from 'node:crypto';

import { systemClock, WaitEnded } from './clock';

/** The API's documented limit (spec 8): 120 requests per minute per key, sliding window. */
export const DEFAULT_REQUESTS_PER_MINUTE = 120;
const API_WINDOW_MS = 60_000;
/** The longest Retry-After a request waits for; a longer one fails the item and names the wait. */
export const MAX_RETRY_AFTER_MS = 120_000;
/** A setting counts for its key until unused for this long; an unused budget is forgotten then too. */
const MEMORY_MS = 10 * 60_000;
/** Beyond this many keys, the least recently used budget that nothing waits for goes. */
const MAX_BUDGETS = 1000;

const LANES = { editor: 0, run: 1, poll: 2 };
export type Lane = keyof typeof LANES;

/** `limit`: the credential's Requests per Minute; `signal`: its execution's cancel; `maxWaitMs`: past it, WaitEnded(waitMs). */
type TakeOptions = { lane?: Lane; limit?: number; signal?: AbortSignal; maxWaitMs?: number };

/** A sent request's place in the window. Exactly one of its methods is called, once. */
export interface Slot {
	/** The API answered (anything but a 429 that is waited out), or the request failed without an answer. */
	answered(): void;
	/** The API refused it (429) and asked to wait `retryAfterMs` (at most MAX_RETRY_AFTER_MS). */
	refused(retryAfterMs: number): void;
}

type Waiter = TakeOptions & { give(slot: Slot): void };
/** `at`: when sent, then when answered; a refused request holds a place in the slowed window only. */
type Sent = { sentAt: number; at: number; pending: boolean; refused?: boolean };

/**
 * One key's budget: the lowest Requests per Minute in use per window; a request holds its place from
 * sending until a window after its answer. A 429 pauses and slows the key (see `refused`).
 */
export class RateBudget {
	private sent: Sent[] = [];
	private readonly waiters: Waiter[] = [];
	/** Each setting and when it was last used; the map's order is the order of last use. */
	private readonly settings = new Map<number, number>();
	/** After a 429: `limit` per `windowMs`, growing by one per two quiet windows from `since`; `even`: spread evenly. */
	private slowed:
		| { limit: number; windowMs: number; since: number; cutAt: number; even: boolean }
		| undefined;
	private pausedUntil = 0;
	lastUsed = systemClock.now();
	private pumping = false;
	private wake = () => {};

	constructor(
		limit: number,
		readonly windowMs = API_WINDOW_MS,
	) {
		this.useLimit(limit);
	}

	useLimit(limit: number): void {
		const now = systemClock.now();
		this.settings.delete(limit);
		this.settings.set(limit, now);
		for (const [value, seen] of this.settings)
			if (now - seen >= MEMORY_MS && value !== limit) this.settings.delete(value);
	}

	/** The setting in force: the lowest in use, or, when none is, the one used last. */
	limitAt(now = systemClock.now()): number {
		const inUse = [...this.settings]
			.filter(([, seen]) => now - seen < MEMORY_MS)
			.map(([value]) => value);
		const waiting = this.waiters.flatMap((w) => (w.limit === undefined ? [] : [w.limit]));
		return inUse.length + waiting.length > 0
			? Math.min(...inUse, ...waiting)
			: [...this.settings.keys()].at(-1)!;
	}

	/** What a 429 slowed the key to at `now`, or undefined once it has grown back to the setting. */
	slowedAt(
		now = systemClock.now(),
		setting = this.limitAt(now),
	): { limit: number; windowMs: number } | undefined {
		if (!this.slowed) return undefined;
		const limit =
			this.slowed.limit +
			Math.floor(Math.max(0, now - this.slowed.since) / (2 * this.slowed.windowMs));
		return limit < setting ? { limit, windowMs: this.slowed.windowMs } : undefined;
	}

	/** How long a request asking now would wait for room (0: at once; Infinity: until an answer comes). */
	waitMs(now = systemClock.now()): number {
		this.sent = this.sent.filter((s) => s.pending || s.at > now - this.windowMs);
		const room = (limit: number, windowMs: number, refused = true) => {
			const counted = this.sent.filter((s) => refused || !s.refused);
			const times = counted
				.map((s) => (s.pending ? Infinity : s.at))
				.filter((at) => at > now - windowMs)
				.sort((a, b) => a - b);
			return times.length < limit ? 0 : Math.max(1, times[times.length - limit] + windowMs - now);
		};
		const setting = this.limitAt(now);
		const slowed = this.slowedAt(now, setting);
		const even =
			slowed && this.slowed!.even
				? (this.sent.at(-1)?.sentAt ?? -Infinity) + slowed.windowMs / slowed.limit - now
				: 0;
		return Math.max(
			0,
			this.pausedUntil - now,
			room(setting, this.windowMs, false),
			slowed ? room(slowed.limit, slowed.windowMs) : 0,
			even,
		);
	}

	isBusy(): boolean {
		return this.waiters.length > 0 || this.sent.some((s) => s.pending);
	}

	async take(options: TakeOptions = {}): Promise<Slot> {
		const { lane = 'run', signal, limit, maxWaitMs } = options;
		if (signal?.aborted) throw new WaitEnded();
		this.lastUsed = systemClock.now();
		const wait = this.waitMs();
		if (maxWaitMs !== undefined && wait !== Infinity && wait > maxWaitMs) throw new WaitEnded(wait);
		return await new Promise<Slot>((resolve, reject) => {
			const deadline = new AbortController();
			const done = () => (signal?.removeEventListener('abort', onAbort), deadline.abort());
			const leave = (error: Error) => {
				const index = this.waiters.indexOf(waiter);
				if (index < 0) return;
				this.waiters.splice(index, 1);
				done();
				reject(error);
				this.wake();
			};
			const onAbort = () => leave(new WaitEnded());
			const waiter: Waiter = { lane, limit, give: (slot: Slot) => (done(), resolve(slot)) };
			signal?.addEventListener('abort', onAbort, { once: true });
			this.waiters.push(waiter);
			void this.pump();
			if (maxWaitMs !== undefined) {
				systemClock.sleep(maxWaitMs, deadline.signal).then(
					() => leave(new WaitEnded(this.waitMs())),
					() => undefined,
				);
			}
		});
	}

	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			while (this.waiters.length > 0) {
				const now = systemClock.now();
				const wait = this.waitMs(now);
				if (wait === Infinity) {
					await new Promise<void>((resolve) => (this.wake = resolve)); // until an answer comes
				} else if (wait > 0) {
					// A lower setting that stops counting first may make room sooner: look again then.
					const expiries = [...this.settings.values()]
						.map((seen) => seen + MEMORY_MS - now)
						.filter((ms) => ms > 0);
					await systemClock.sleep(Math.min(wait, ...expiries));
				}
				if (wait > 0) continue;
				const first = Math.min(...this.waiters.map((w) => LANES[w.lane!]));
				const [waiter] = this.waiters.splice(
					this.waiters.findIndex((w) => LANES[w.lane!] === first),
					1,
				);
				if (waiter.limit !== undefined) this.useLimit(waiter.limit);
				waiter.give(this.send(now));
			}
		} finally {
			this.pumping = false;
		}
	}

	private send(sentAt: number): Slot {
		const entry: Sent = { sentAt, at: sentAt, pending: true };
		this.sent.push(entry);
		const close = () => {
			const first = entry.pending;
			entry.pending = false;
			entry.at = this.lastUsed = systemClock.now();
			this.wake();
			return first;
		};
		return {
			answered: () => void close(),
			refused: (retryAfterMs) => {
				if (!close()) return;
				const now = systemClock.now();
				const waitMs = Math.max(1000, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
				this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
				// The pause stands for a refused request in the setting's window, whether or not the API counted it.
				entry.refused = true;
				// Requests sent before the last slow-down were refused at the pace it already corrected.
				if (!this.slowed || sentAt > this.slowed.cutAt) {
					const setting = this.limitAt(now);
					const before = this.slowedAt(now, setting);
					const accepted = (windowMs: number) =>
						this.sent.filter((s) => !s.pending && !s.refused && s.at > now - windowMs);
					// The API's window: Retry-After plus the span of what it accepted just before (never shorter than learned).
					const span = Math.max(0, ...accepted(waitMs).map((s) => now - s.at));
					const windowMs = Math.min(this.windowMs, Math.max(waitMs + span, before?.windowMs ?? 0));
					// What the API accepted over it, below the limit it refused; a slowed limit at most halves.
					const limit = Math.max(
						1,
						before ? Math.floor(before.limit / 2) : 0,
						Math.min((before?.limit ?? setting) - 1, accepted(windowMs).length),
					);
					// Refused before this key sent its slowed limit in the slowed window: another client uses the key,
					// so Retry-After (from the oldest request in the API's window) undercounts the window; spread evenly.
					const own = before
						? this.sent.filter((s) => s !== entry && s.sentAt > now - before.windowMs).length
						: 0;
					const even = before !== undefined && (this.slowed!.even || own + 1 < before.limit);
					this.slowed = { limit, windowMs, since: 0, cutAt: now, even };
				}
				this.slowed.since = this.pausedUntil; // a pause is not quiet
			},
		};
	}
}

/** The name a key's budget is kept under: a hash, never the key itself. */
export function budgetKeyOf(apiKey: string): string {
	return createHash('sha256').update(`business-ops rate budget\n${apiKey.trim()}`).digest('hex');
}

/** Every key's budget in this process, by `budgetKeyOf`; the order is the order of last use. */
const budgets = new Map<string, RateBudget>();

export function budgetFor(key: string, limit: number): RateBudget {
	let budget = budgets.get(key);
	if (budget && (budget.isBusy() || systemClock.now() - budget.lastUsed < MEMORY_MS))
		budget.useLimit(limit);
	else budget = new RateBudget(limit);
	budgets.delete(key);
	budgets.set(key, budget);
	for (const [k, b] of budgets) if (budgets.size > MAX_BUDGETS && !b.isBusy()) budgets.delete(k);
	return budget;
}
