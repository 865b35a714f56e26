/**
 * Delivery ids accepted, for the "Ignore Repeated Deliveries" option. Kept in this n8n process's
 * memory only (not shared between n8n processes or kept across restarts), by a hash of the id,
 * so an entry costs the same whatever the id's length. Each trigger has its own bound of
 * MAX_REMEMBERED_IDS (past it, that trigger's oldest go first), so one trigger's traffic (a
 * trigger under None accepts whatever a stranger sends) never makes another forget what it
 * accepted; at most MAX_REMEMBERED_TRIGGERS triggers are kept, the one least recently used goes
 * first. Only accepted deliveries are remembered.
 *
 * An id has no expiry: the API retries a message for days (Standard Webhooks and Svix: 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, ...), each retry signed anew with a fresh timestamp under the
 * same id, so only the bound makes this process forget an id.
 */
import { createHash } from 'crypto';

import { BoundedMap } from '../shared/boundedMap';

export const MAX_REMEMBERED_IDS = 10_000;
export const MAX_REMEMBERED_TRIGGERS = 100;

/** Hashes of the accepted ids, by trigger. */
const accepted = new BoundedMap<string, BoundedMap<string, true>>(MAX_REMEMBERED_TRIGGERS);

const hashOf = (id: string): string => createHash('sha256').update(id).digest('base64url').slice(0, 22);

/** True when `id` was accepted by this trigger and is still remembered; otherwise records it and answers false. */
export function seenBefore(trigger: string, id: string): boolean {
	const ids = accepted.get(trigger) ?? new BoundedMap<string, true>(MAX_REMEMBERED_IDS);
	accepted.set(trigger, ids);
	const hash = hashOf(id);
	if (ids.has(hash)) return true;
	ids.set(hash, true);
	return false;
}

/** How many ids are remembered over all triggers (for tests of the bound). */
export function rememberedIds(): number {
	let count = 0;
	for (const ids of accepted.values()) count += ids.size;
	return count;
}
