import type { IDataObject } from 'n8n-workflow';

/** `{ data }` for one record, `{ data: [...], meta }` for a list (spec 2); pages.ts reads `meta`. */
type Envelope = { data?: unknown } | undefined;

/** The records of an answer: a list's entries, or the one record (none for an empty body). */
export function recordsOf(body: unknown): IDataObject[] {
	const data = (body as Envelope)?.data;
	if (Array.isArray(data)) return data as IDataObject[];
	if (data && typeof data === 'object') return [data as IDataObject];
	return [];
}

/** The one record of an answer; a body without `data` is taken as the record itself. */
export function recordOf(body: unknown): IDataObject {
	const data = (body as Envelope)?.data;
	if (data && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
	return body && typeof body === 'object' && !Array.isArray(body) ? (body as IDataObject) : {};
}
