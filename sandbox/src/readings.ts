/**
 * Readings of what the spec leaves open ("not shown"). By default the sandbox takes the most
 * permissive reasonable reading; each switch here turns on another one, so that the node is
 * tested against more than one API and never agrees with the sandbox by construction.
 */
import { invalidRequest } from './errors';

export interface SpecReadings {
	/**
	 * Narrow readings: a line's quantity must be more than 0 and its unit price 0 or more; the
	 * approvals count at least 1; a contact's type `business` or `individual`; an invoice's
	 * dueDate a bare date; and no quote moves to `canceled` (the spec shows no such move).
	 */
	strict: boolean;
	/** GET /webhooks and GET /webhooks/events answer every record as `{ data: [...] }`, without `meta`. */
	webhookListsWithoutMeta: boolean;
	/**
	 * The order of the contact, quote, invoice and request lists (the spec gives none): oldest
	 * first, newest first, or by id (stable between requests, unrelated to creation or change).
	 */
	listOrder: ListOrder;
	/**
	 * Contacts may share an e-mail address: no 409 for it (the spec does not say which conflicts
	 * give 409 `duplicate_resource`). Off: a second contact with an e-mail in use (any case) is 409.
	 */
	duplicateContactEmails: boolean;
	/**
	 * The API keeps text in a form of its own (the spec shows no rule for it): a contact's name
	 * trimmed with its inner spaces collapsed, its e-mail lower-case, its phone without spaces,
	 * dashes, dots or brackets; a request's externalRef trimmed.
	 */
	storesTidiedText: boolean;
	/**
	 * The contact, quote, invoice and request lists leave fields out: every null one, and the
	 * details a list of summaries would not show (a contact's phone and kvkNumber). The record
	 * read alone shows them all.
	 */
	listsShowLess: boolean;
}

export const LIST_ORDERS = ['oldest', 'newest', 'byId'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

const PERMISSIVE: SpecReadings = {
	strict: false,
	webhookListsWithoutMeta: false,
	listOrder: 'oldest',
	duplicateContactEmails: false,
	storesTidiedText: false,
	listsShowLess: false,
};

const byApp = new WeakMap<object, SpecReadings>();

/** The readings a sandbox (its app object) currently takes. */
export function readingsOf(app: object): SpecReadings {
	return byApp.get(app) ?? PERMISSIVE;
}

export function setReadings(app: object, change: Partial<SpecReadings>): SpecReadings {
	const next = { ...readingsOf(app), ...change };
	byApp.set(app, next);
	return { ...next };
}

export function resetReadings(app: object): void {
	byApp.delete(app);
}

/** Strict mode: 400 naming the first line whose quantity is 0 or less or whose unit price is negative. */
export function assertStrictItems(
	app: object,
	items: Array<{ quantity: number; unitPrice: number }> | undefined,
): void {
	if (!readingsOf(app).strict || !items) return;
	for (const [i, item] of items.entries()) {
		if (item.quantity <= 0)
			throw invalidRequest(
				`items[${i}].quantity must be a number greater than 0`,
				`items[${i}].quantity`,
			);
		if (item.unitPrice < 0)
			throw invalidRequest(
				`items[${i}].unitPrice must be a number of at least 0`,
				`items[${i}].unitPrice`,
			);
	}
}

/**
 * A list's records (kept in creation order) as listed: in the order the listOrder switch asks for;
 * under listsShowLess without their null fields and their `details`.
 */
export function asListed<T extends { id: string }>(
	app: object,
	records: T[],
	details: string[] = [],
): T[] {
	const { listOrder, listsShowLess } = readingsOf(app);
	let listed = records;
	if (listOrder === 'newest') listed = [...records].reverse();
	if (listOrder === 'byId')
		listed = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	if (!listsShowLess) return listed;
	return listed.map(
		(record) =>
			Object.fromEntries(
				Object.entries(record).filter(([key, value]) => value !== null && !details.includes(key)),
			) as T,
	);
}

/** Text as the API keeps it under storesTidiedText (`kind` says which rule), else as sent. */
export function asStored<V extends string | null | undefined>(
	app: object,
	kind: 'name' | 'email' | 'phone' | 'ref',
	value: V,
): V {
	if (!readingsOf(app).storesTidiedText || typeof value !== 'string') return value;
	if (kind === 'name') return value.trim().replace(/\s+/g, ' ') as V;
	if (kind === 'email') return value.toLowerCase() as V;
	if (kind === 'phone') return value.replace(/[\s().-]/g, '') as V;
	return value.trim() as V;
}
