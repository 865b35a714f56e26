/**
 * Pacing that learns, for a key whose real limit is lower than its setting (another tool uses the
 * key, or the API enforces bursts more strictly). A 429 teaches a second, tighter window beside the
 * setting's: the requests the API accepted just before refusing, over the time from the first of
 * them to when Retry-After says room appears. After QUIET_WINDOWS learned windows without a
 * refusal the learned limit grows by one (additive increase); a refusal takes it back to what was
 * accepted, at most halving it (multiplicative decrease). Once it reaches the setting, only the
 * setting holds again. A refusal that comes before this key used its learned limit shows that
 * someone else uses the key: the learned window may then be shorter than the API's (Retry-After
 * counts from the oldest request in the API's window, which may be another client's), so a burst
 * that fits it may not fit the API's; from then on the learned pace is spread evenly. Pure.
 */

/** A sent request's place in a window. */
export interface Sent {
	sentAt: number;
	/** When it was sent; once answered, when the answer came (the API saw it in between). */
	at: number;
	state: 'pending' | 'accepted' | 'refused' | 'failed';
}

/** What refusals taught: the API lets about `limit` requests through per `windowMs` for this key. */
export interface Pace {
	limit: number;
	windowMs: number;
	quietSince: number;
	/** Requests go evenly spaced, `windowMs / limit` apart, not in bursts. */
	spaced: boolean;
}

/** The shortest window pacing learns (Retry-After comes in whole seconds). */
const MIN_LEARNED_WINDOW_MS = 1000;
/** Learned windows without a refusal before the learned limit grows by one. */
const QUIET_WINDOWS = 2;

/** The pace a refusal of `refused` (Retry-After `retryAfterMs`) teaches, given what was sent and learned before. */
export function paceAfterRefusal(lesson: {
	previous: Pace | undefined;
	/** The limit of the setting in force. */
	setting: number;
	/** The API's own window, the longest a learned one may be. */
	apiWindowMs: number;
	sent: Sent[];
	refused: Sent;
	retryAfterMs: number;
	now: number;
}): Pace {
	const { previous, setting, apiWindowMs, sent, refused, retryAfterMs, now } = lesson;
	const accepted = sent.filter((s) => s.state === 'accepted');
	const justBefore = accepted.filter((s) => s.at > now - retryAfterMs).map((s) => s.at);
	const span = justBefore.length > 0 ? now - Math.min(...justBefore) : 0;
	const windowMs = Math.min(apiWindowMs, Math.max(MIN_LEARNED_WINDOW_MS, retryAfterMs + span, previous?.windowMs ?? 0));
	const acceptedInWindow = accepted.filter((s) => s.at > now - windowMs).length;
	const limitBefore = previous?.limit ?? setting;
	const floor = previous ? Math.floor(limitBefore / 2) : 1;
	const limit = Math.max(1, floor, Math.min(limitBefore - 1, acceptedInWindow));
	// Refused before this key had sent its learned limit in the learned window: another client.
	const ownBefore = previous ? sent.filter((s) => s !== refused && s.sentAt > now - previous.windowMs).length : 0;
	const spaced = previous !== undefined && (previous.spaced || ownBefore + 1 < previous.limit);
	return { limit, windowMs, quietSince: now, spaced };
}

/**
 * The learned pace at `now`, after additive increase for the quiet windows since the last refusal
 * (a Retry-After pause is not quiet); undefined once it reached the setting.
 */
export function paceNow(pace: Pace | undefined, now: number, pausedUntil: number, setting: number): Pace | undefined {
	if (!pace) return undefined;
	const period = pace.windowMs * QUIET_WINDOWS;
	const since = Math.max(pace.quietSince, pausedUntil);
	const quiet = Math.floor((now - since) / period);
	if (quiet > 0) {
		pace.limit += quiet;
		pace.quietSince = since + quiet * period;
	}
	return pace.limit >= setting ? undefined : pace;
}
