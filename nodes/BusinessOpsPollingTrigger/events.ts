/** What changed in one list since the last poll, as events. Pure. */
import type { IDataObject } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import { eventItem, textOf, type BusinessOpsEvent } from '../shared/event';
import { recordKey, type ListMemory } from './pollState';
import { statusEvent, type WatchedList } from './watchedLists';

/** What the polling trigger adds to the webhook trigger's item: where the event came from. */
export const POLLED = { source: 'polling' } as const;


function idOf(list: WatchedList, record: IDataObject): string {
	const id = textOf(record.id);
	if (id === null) {
		throw new ApplicationError(`The API listed one of the ${list.plural} without an id, so the polling trigger cannot tell whether it changed`);
	}
	return id;
}

/** The status a record is remembered with: only for lists whose statuses give events. */
function statusOf(list: WatchedList, record: IDataObject): string | undefined {
	return list.statusEvents.length > 0 ? (textOf(record.status) ?? undefined) : undefined;
}

/**
 * The event item. Its id is the same whenever the same change is seen, and depends on nothing
 * else (no clock, no edit time): `<type>:<record id>`, and for a status event of a record seen
 * before `:from:<status at the last poll>`.
 */
export function polledEvent(type: string, record: IDataObject, timestamp: string, from?: string): BusinessOpsEvent {
	const id = `${type}:${String(record.id)}${from === undefined ? '' : `:from:${from}`}`;
	return eventItem({ id, deliveryId: id, type, timestamp, data: record, ...POLLED });
}

/**
 * The records of one walk by `recordKey`, each once (a record shifted across a page boundary during
 * the walk is read twice: the later copy wins). Two ids with one key fail loudly.
 */
export function uniqueRecords(list: WatchedList, records: IDataObject[]): Map<string, IDataObject> {
	const byId = new Map<string, IDataObject>();
	for (const record of records) {
		const id = idOf(list, record);
		byId.delete(id);
		byId.set(id, record);
	}
	const byKey = new Map<string, IDataObject>();
	for (const [id, record] of byId) {
		const key = recordKey(id);
		const other = byKey.get(key);
		if (other) {
			throw new ApplicationError(`Two of the ${list.plural} (${String(other.id)} and ${id}) share the key the polling trigger remembers them by; please report this`);
		}
		byKey.set(key, record);
	}
	return byKey;
}

export interface ListChanges {
	events: BusinessOpsEvent[];
	next: ListMemory;
}

/**
 * Compares one walk of a list with what the last polls remembered. Without a memory (the list's
 * first poll, always a whole walk) everything is remembered and nothing is an event. A record not
 * remembered gives the `created` event and, when its status is one of the chosen, that status's
 * event; a remembered record whose status differs gives the event of its status now (two changes
 * between polls give one event). A remembered record absent from a whole walk is kept, marked
 * missing, for one more whole walk; absent twice, it is forgotten (a deleted record is never an
 * event). A walk that was not whole (records created or deleted during it) forgets nothing and marks
 * nothing missing, since it may have skipped a record: the memory stays a superset of the list, so a
 * record it does not hold is new.
 */
export function changesOf(
	list: WatchedList,
	walk: Map<string, IDataObject>,
	whole: boolean,
	previous: ListMemory | undefined,
	chosen: ReadonlySet<string>,
	now: string,
): ListChanges {
	const events: BusinessOpsEvent[] = [];
	const next: ListMemory = new Map();
	for (const [key, record] of walk) {
		const status = statusOf(list, record);
		next.set(key, { status, missing: false });
		if (!previous) continue;
		const before = previous.get(key);
		if (!before && chosen.has(list.createdEvent)) {
			events.push(polledEvent(list.createdEvent, record, textOf(record.createdAt) ?? now));
		}
		const type = status === undefined ? undefined : statusEvent(list, status);
		if (type && (!before || before.status !== status) && chosen.has(type)) {
			events.push(polledEvent(type, record, textOf(record.updatedAt) ?? now, before ? (before.status ?? 'none') : 'new'));
		}
	}
	for (const [key, remembered] of previous ?? []) {
		if (walk.has(key)) continue;
		if (!whole) next.set(key, remembered);
		else if (!remembered.missing) next.set(key, { status: remembered.status, missing: true });
	}
	return { events, next };
}

/** The most recent record of a walk that matches a chosen event, as that event ("Fetch Test Event"). */
export function latestEvent(
	list: WatchedList,
	walk: Map<string, IDataObject>,
	chosen: ReadonlySet<string>,
	now: string,
): BusinessOpsEvent | undefined {
	let latest: { at: number; event: BusinessOpsEvent } | undefined;
	const consider = (type: string, record: IDataObject, timestamp: string | null) => {
		const at = Date.parse(timestamp ?? '');
		const rank = Number.isNaN(at) ? -Infinity : at;
		if (!latest || rank > latest.at) latest = { at: rank, event: polledEvent(type, record, timestamp ?? now) };
	};
	for (const record of walk.values()) {
		if (chosen.has(list.createdEvent)) consider(list.createdEvent, record, textOf(record.createdAt));
		const status = statusOf(list, record);
		if (status !== undefined && chosen.has(statusEvent(list, status)) && list.statusEvents.includes(status)) {
			consider(statusEvent(list, status), record, textOf(record.updatedAt));
		}
	}
	return latest?.event;
}
