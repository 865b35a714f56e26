/**
 * Delivery ids accepted recently, kept in this n8n process's memory only (not shared between
 * n8n processes or kept across restarts), for the "Ignore Repeated Deliveries" option.
 */
const MAX_IDS_PER_TRIGGER = 10_000;

const acceptedByTrigger = new Map<string, Map<string, number>>();

/**
 * True when `id` was accepted by this trigger within the window; otherwise records it and
 * answers false. Expired ids are dropped; past the bound, the oldest go first.
 */
export function seenBefore(trigger: string, id: string, nowMs: number, windowMs: number): boolean {
	let accepted = acceptedByTrigger.get(trigger);
	if (!accepted) {
		accepted = new Map();
		acceptedByTrigger.set(trigger, accepted);
	}
	const expires = accepted.get(id);
	if (expires !== undefined && expires > nowMs) return true;
	accepted.delete(id);
	if (accepted.size >= MAX_IDS_PER_TRIGGER) {
		for (const [oldId, oldExpires] of accepted) {
			if (oldExpires <= nowMs || accepted.size >= MAX_IDS_PER_TRIGGER) accepted.delete(oldId);
			else break;
		}
	}
	accepted.set(id, nowMs + windowMs);
	return false;
}
