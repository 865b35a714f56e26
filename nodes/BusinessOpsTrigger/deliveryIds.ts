/**
 * Delivery ids accepted recently, for the "Ignore Repeated Deliveries" option. Kept in this n8n
 * process's memory only (not shared between n8n processes or kept across restarts), by a hash of
 * the trigger and the id, so an entry costs the same whatever the id's length. At most
 * MAX_REMEMBERED_IDS entries over all triggers; past the bound, the oldest go first.
 *
 * An id is remembered for as long as a repeat could still verify: twice the timestamp tolerance
 * when a timestamp is signed (a repeat later than that is refused by the replay window anyway),
 * and without an expiry when only the body is signed (such a signature never expires, so only
 * the bound makes this process forget it).
 */
import { createHash } from 'crypto';

export const MAX_REMEMBERED_IDS = 50_000;

/** Expiry (ms since the epoch) by hash. Insertion order is the order of acceptance. */
const accepted = new Map<string, number>();

function hashOf(trigger: string, id: string): string {
	return createHash('sha256').update(trigger).update('\u0000').update(id).digest('base64url').slice(0, 22);
}

/**
 * True when `id` was accepted by this trigger and is still remembered; otherwise records it
 * (until `nowMs + windowMs`; Infinity: until the bound) and answers false.
 */
export function seenBefore(trigger: string, id: string, nowMs: number, windowMs: number): boolean {
	const hash = hashOf(trigger, id);
	const expires = accepted.get(hash);
	if (expires !== undefined && expires > nowMs) return true;
	accepted.delete(hash);
	for (const [oldHash, oldExpires] of accepted) {
		if (oldExpires <= nowMs || accepted.size >= MAX_REMEMBERED_IDS) accepted.delete(oldHash);
		else break;
	}
	accepted.set(hash, nowMs + windowMs);
	return false;
}
