/** Which list each event comes from, and what changed in one list since the last poll, as events. Pure. */
import type { IDataObject } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import { textOf, type BusinessOpsEvent } from '../shared/event';
import { recordKey, type ListState } from './pollState';

export interface WatchedList {
	/** Its list endpoint is `/<resource>s` (spec 4). */
	resource: 'quote' | 'invoice' | 'request' | 'contact';
	plural: string;
	createdEvent: string;
	/** Statuses whose arrival is an event (`<resource>.<status>`, spec 3); none: only new records are events. */
	statusEvents: readonly string[];
}

const WATCHED_LISTS: readonly WatchedList[] = [
	{
		resource: 'quote',
		plural: 'quotes',
		createdEvent: 'quote.created',
		statusEvents: ['sent', 'approved', 'canceled'],
	},
	{
		resource: 'invoice',
		plural: 'invoices',
		createdEvent: 'invoice.created',
		statusEvents: [
			'finalized',
			'sent',
			'viewed',
			'paid',
			'overdue',
			'in_collection',
			'written_off',
		],
	},
	{
		resource: 'request',
		plural: 'customer requests',
		createdEvent: 'request.received',
		statusEvents: [],
	},
	{ resource: 'contact', plural: 'contacts', createdEvent: 'contact.created', statusEvents: [] },
];

const statusEvent = (list: WatchedList, status: string) => `${list.resource}.${status}`;

export function pollableEvents(): string[] {
	return WATCHED_LISTS.flatMap((list) => [
		list.createdEvent,
		...list.statusEvents.map((status) => statusEvent(list, status)),
	]);
}

export function listsFor(events: readonly string[]): WatchedList[] {
	const chosen = new Set(events);
	return WATCHED_LISTS.filter(
		(list) =>
			chosen.has(list.createdEvent) ||
			list.statusEvents.some((status) => chosen.has(statusEvent(list, status))),
	);
}

const statusOf = (list: WatchedList, record: IDataObject) =>
	list.statusEvents.length > 0 ? (textOf(record.status) ?? undefined) : undefined;

/** The event item; its id is the same whenever the same change is seen: `<type>:<record id>[:from:<last status>]`. */
function polledEvent(
	type: string,
	record: IDataObject,
	timestamp: string,
	from?: string,
): BusinessOpsEvent {
	const id = `${type}:${String(record.id)}${from === undefined ? '' : `:from:${from}`}`;
	return { id, deliveryId: id, type, timestamp, data: record, source: 'polling' };
}

/** The records of one walk by `recordKey`, each once (a record read twice across pages: the later copy). */
export function uniqueRecords(list: WatchedList, records: IDataObject[]): Map<string, IDataObject> {
	const byKey = new Map<string, IDataObject>();
	for (const record of records) {
		const id = textOf(record.id);
		if (id === null) {
			throw new ApplicationError(
				`The API listed one of the ${list.plural} without an id, so the polling trigger cannot tell whether it changed`,
			);
		}
		const key = recordKey(id);
		const other = byKey.get(key);
		if (other && textOf(other.id) !== id) {
			throw new ApplicationError(
				`Two of the ${list.plural} (${String(other.id)} and ${id}) share the key the polling trigger remembers them by; please report this`,
			);
		}
		byKey.delete(key);
		byKey.set(key, record);
	}
	return byKey;
}

/** One walk of a list against the last polls' memory (ARCHITECTURE.md, "Polling trigger"); a first poll emits nothing. */
export function changesOf(
	list: WatchedList,
	walk: Map<string, IDataObject>,
	whole: boolean,
	previous: ListState | undefined,
	chosen: ReadonlySet<string>,
	now: string,
): { events: BusinessOpsEvent[]; next: ListState } {
	const events: BusinessOpsEvent[] = [];
	const next: ListState = new Map();
	for (const [key, record] of walk) {
		const status = statusOf(list, record);
		next.set(key, { status, missing: false });
		if (!previous) continue;
		const before = previous.get(key);
		if (!before && chosen.has(list.createdEvent)) {
			events.push(polledEvent(list.createdEvent, record, textOf(record.createdAt) ?? now));
		}
		// two changes between polls give one event: the status now
		const type = status === undefined ? undefined : statusEvent(list, status);
		if (type && (!before || before.status !== status) && chosen.has(type)) {
			events.push(
				polledEvent(
					type,
					record,
					textOf(record.updatedAt) ?? now,
					before ? (before.status ?? 'none') : 'new',
				),
			);
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
		if (!latest || rank > latest.at)
			latest = { at: rank, event: polledEvent(type, record, timestamp ?? now) };
	};
	for (const record of walk.values()) {
		if (chosen.has(list.createdEvent))
			consider(list.createdEvent, record, textOf(record.createdAt));
		const status = statusOf(list, record);
		if (status && list.statusEvents.includes(status) && chosen.has(statusEvent(list, status)))
			consider(statusEvent(list, status), record, textOf(record.updatedAt));
	}
	return latest?.event;
}
