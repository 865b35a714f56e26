import { invalidRequest, notFound } from '../errors';
import { DEFAULT_PAGE_SIZE } from '../schemas';
import type { Collection, OrgData } from '../store';
import type { Schema } from '../validation';

export interface ListEnvelope<T> {
	data: T[];
	meta: { page: number; pageSize: number; total: number; hasMore: boolean };
}

/** Cuts one page out of `items` (already in creation order, already filtered). */
export function paginate<T, V = T>(
	items: T[],
	query: Record<string, unknown>,
	view?: (item: T) => V,
): ListEnvelope<V> {
	const page = (query.page as number | undefined) ?? 1;
	const pageSize = (query.pageSize as number | undefined) ?? DEFAULT_PAGE_SIZE;
	const start = (page - 1) * pageSize;
	const slice = items.slice(start, start + pageSize);
	return {
		data: view ? slice.map(view) : (slice as unknown as V[]),
		meta: { page, pageSize, total: items.length, hasMore: start + pageSize < items.length },
	};
}

export function findOr404<T extends { id: string }>(
	collection: Collection<T>,
	id: string,
	what: string,
): T {
	const record = collection.get(id);
	if (!record) throw notFound(what, id);
	return record;
}

export function deleted(id: string): { data: { id: string; deleted: true } } {
	return { data: { id, deleted: true } };
}

export function now(): string {
	return new Date().toISOString();
}

/** Accepts what the date-time schema accepted (a timestamp with zone, or a bare date) and stores UTC ISO. */
export function toIsoTimestamp(value: string): string {
	return new Date(value.length === 10 ? `${value}T00:00:00Z` : value).toISOString();
}

/** The calendar date as written: "2026-12-31" from "2026-12-31" or "2026-12-31T10:00:00+02:00". */
export function toIsoDate(value: string): string {
	return value.slice(0, 10);
}

export function addDays(iso: string, days: number): string {
	return new Date(Date.parse(iso) + days * 86_400_000).toISOString();
}

export function nullable(schema: Schema): Schema {
	const type =
		schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
	return { ...schema, type: [...type, 'null'] };
}

export function objectBody(
	properties: Record<string, Schema>,
	required: string[] = [],
	description?: string,
): Schema {
	return {
		type: 'object',
		additionalProperties: false,
		required,
		properties,
		...(description ? { description } : {}),
	};
}

/** 400 naming `contactId` when it is not a contact of this organization. */
export function requireContact(org: OrgData, contactId: string): void {
	if (!org.contacts.get(contactId)) {
		throw invalidRequest(
			`"contactId" must be the id of a contact of this organization; "${contactId}" is not`,
			'contactId',
		);
	}
}
