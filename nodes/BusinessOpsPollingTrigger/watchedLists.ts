/**
 * Which list each event comes from. A list is read only when one of its events is chosen; a
 * record not seen before gives the list's `created` event, a record whose status changed gives
 * `<resource>.<status>` for the statuses in `statusEvents` (spec 3).
 */
export interface WatchedList {
	resource: 'quote' | 'invoice' | 'request' | 'contact';
	/** The list endpoint (spec 4). */
	path: string;
	/** The plural the docs and errors use. */
	plural: string;
	createdEvent: string;
	/** Statuses whose arrival is an event; none: only new records are events. */
	statusEvents: readonly string[];
}

export const WATCHED_LISTS: readonly WatchedList[] = [
	{
		resource: 'quote',
		path: '/quotes',
		plural: 'quotes',
		createdEvent: 'quote.created',
		statusEvents: ['sent', 'approved', 'canceled'],
	},
	{
		resource: 'invoice',
		path: '/invoices',
		plural: 'invoices',
		createdEvent: 'invoice.created',
		statusEvents: ['finalized', 'sent', 'viewed', 'paid', 'overdue', 'in_collection', 'written_off'],
	},
	{ resource: 'request', path: '/requests', plural: 'customer requests', createdEvent: 'request.received', statusEvents: [] },
	{ resource: 'contact', path: '/contacts', plural: 'contacts', createdEvent: 'contact.created', statusEvents: [] },
];

export function statusEvent(list: WatchedList, status: string): string {
	return `${list.resource}.${status}`;
}

/** Every event the trigger can emit, in the order of WATCHED_LISTS. */
export function pollableEvents(): string[] {
	return WATCHED_LISTS.flatMap((list) => [list.createdEvent, ...list.statusEvents.map((status) => statusEvent(list, status))]);
}

/** The lists to read for the chosen events. */
export function listsFor(events: readonly string[]): WatchedList[] {
	const chosen = new Set(events);
	return WATCHED_LISTS.filter(
		(list) => chosen.has(list.createdEvent) || list.statusEvents.some((status) => chosen.has(statusEvent(list, status))),
	);
}
