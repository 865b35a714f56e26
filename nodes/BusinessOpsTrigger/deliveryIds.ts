/**
 * Delivery ids accepted recently, for the "Ignore Repeated Deliveries" option. Kept in this n8n
 * process's memory only (not shared between n8n processes or kept across restarts), by a hash of
 * the id, so an entry costs the same whatever the id's length. Each trigger has its own bound of
 * MAX_REMEMBERED_IDS (past it, that trigger's oldest go first), so one trigger's traffic (a
 * trigger under None accepts whatever a stranger sends) never makes another forget what it
 * accepted; at most MAX_REMEMBERED_TRIGGERS triggers are kept, the one least recently used goes
 * first. Only accepted deliveries are remembered.
 *
 * An id is remembered for as long as a repeat could still verify: until its signed timestamp
 * leaves the window (repeatExpiry), and without an expiry when only the body is signed (such a
 * signature never expires, so only the bound makes this process forget it).
 */
import { createHash } from 'crypto';

import { BoundedMap } from '../shared/boundedMap';

export const MAX_REMEMBERED_IDS = 10_000;
export const MAX_REMEMBERED_TRIGGERS = 100;

/** Expiry (ms since the epoch) by hash of the id, by trigger. */
const accepted = new BoundedMap<string, BoundedMap<string, number>>(MAX_REMEMBERED_TRIGGERS);

const hashOf = (id: string): string => createHash('sha256').update(id).digest('base64url').slice(0, 22);

/**
 * Until when (ms) a repeat of a delivery signed at `timestamp` (whole seconds) can still pass
 * the window of `toleranceSeconds`: the window compares whole seconds, so a repeat verifies
 * until the end of second `timestamp + tolerance`, whatever the tolerance, 0 included.
 * Infinity when no timestamp is signed.
 */
export function repeatExpiry(timestamp: number | undefined, toleranceSeconds: number): number {
	return timestamp === undefined ? Infinity : (timestamp + toleranceSeconds + 1) * 1000;
}

/**
 * True when `id` was accepted by this trigger and is still remembered at `nowMs`; otherwise
 * records it until `expiresMs` and answers false.
 */
export function seenBefore(trigger: string, id: string, nowMs: number, expiresMs: number): boolean {
	const ids = accepted.get(trigger) ?? new BoundedMap<string, number>(MAX_REMEMBERED_IDS);
	accepted.set(trigger, ids);
	const hash = hashOf(id);
	const expires = ids.get(hash);
	if (expires !== undefined && expires > nowMs) return true;
	ids.set(hash, expiresMs);
	return false;
}

/** How many ids are remembered over all triggers (for tests of the bound). */
export function rememberedIds(): number {
	let count = 0;
	for (const ids of accepted.values()) count += ids.size;
	return count;
}
