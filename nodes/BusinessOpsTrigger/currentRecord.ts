/**
 * Which subscription record is the current one, as far as this n8n process knows.
 *
 * n8n loads a workflow's static data when a request arrives and, when a delivery changed it,
 * writes the whole of it back when the request ends. A request that started before a republish
 * would then write the old subscription record over the new one, and the genuine deliveries
 * that follow would be refused. So the delivery path writes (the pinned form, the throttled
 * refusal count) only when the record it read is the newest this process knows: the lifecycle
 * notes every record it writes (subscription.ts), and a record first seen by a delivery becomes
 * the newest unless it was seen and replaced before, or this process's lifecycle wrote a record
 * less than LIFECYCLE_TRUST_MS ago (then an unknown record can only be one read before that
 * write; after that time, an unknown record is taken as written by another n8n process).
 *
 * Kept per trigger and slot, at most MAX_TRIGGERS of them (the oldest go first), each with at
 * most MAX_RETIRED replaced records. A record is named by its id and sealed secret, which a new
 * subscription always changes; nothing secret is kept (the sealed form only).
 */
import type { IDataObject } from 'n8n-workflow';

export const MAX_TRIGGERS = 1000;
const MAX_RETIRED = 8;
const LIFECYCLE_TRUST_MS = 10 * 60_000;

interface Known {
	current: string;
	retired: string[];
	/** When this process's lifecycle wrote `current`; 0 when a delivery first saw it. */
	writtenAt: number;
}

const known = new Map<string, Known>();

/** The trigger a delivery or lifecycle call is about: workflow, node and slot. */
export function triggerKey(workflowId: string | undefined, node: string, slot: string): string {
	return `${workflowId ?? ''}\u0000${node}\u0000${slot}`;
}

/** A record's name: its id and sealed secret; '' when there is no record. */
function nameOf(record: IDataObject | undefined): string {
	if (!record) return '';
	return `${String(record.id ?? '')}\u0000${String(record.sealedSecret ?? '')}`;
}

function remember(key: string, entry: Known): void {
	known.delete(key);
	known.set(key, entry);
	if (known.size > MAX_TRIGGERS) known.delete(known.keys().next().value as string);
}

function replace(key: string, previous: Known | undefined, name: string, writtenAt: number): void {
	const retired = previous ? [previous.current, ...previous.retired.filter((old) => old !== name)] : [];
	remember(key, { current: name, retired: retired.slice(0, MAX_RETIRED), writtenAt });
}

/** The lifecycle wrote this record (undefined: it removed the record). */
export function noteWrittenRecord(key: string, record: IDataObject | undefined): void {
	const previous = known.get(key);
	const name = nameOf(record);
	if (previous?.current !== name) replace(key, previous, name, Date.now());
}

/** True when a delivery that read this record may write the static data back. */
export function isCurrentRecord(key: string, record: IDataObject | undefined): boolean {
	if (!record) return false;
	const name = nameOf(record);
	const previous = known.get(key);
	if (previous?.current === name) return true;
	if (previous?.retired.includes(name)) return false;
	if (previous && Date.now() - previous.writtenAt < LIFECYCLE_TRUST_MS) return false;
	replace(key, previous, name, 0);
	return true;
}
