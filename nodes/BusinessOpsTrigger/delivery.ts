/** Turns a verified delivery into the trigger's output item. Pure. */
import type { IDataObject } from 'n8n-workflow';

import { headerValue, type HeaderBag } from './signature';

/** Headers that may carry credentials of the caller or of n8n; never copied to the output. */
const WITHHELD_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

export interface DeliveredEvent extends IDataObject {
	id: string | null;
	type: string | null;
	timestamp: string | null;
	data: IDataObject | null;
}

/** Parses the delivery body exactly as received; undefined when it is not a JSON object. */
export function parseEventBody(rawBody: Buffer | string | undefined): IDataObject | undefined {
	if (rawBody === undefined || rawBody === null) return undefined;
	try {
		const text = Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody;
		const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
			? (parsed as IDataObject)
			: undefined;
	} catch {
		return undefined;
	}
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;
}

/** The event type of a delivery: the body's `type`. */
export function eventTypeOf(body: IDataObject): string | null {
	return text(body.type);
}

/**
 * `{ id, type, timestamp, data }` of the event. The id falls back to the `webhook-id` header
 * (then `X-Business-Ops-Delivery`), the timestamp to the signed timestamp; a test event sent
 * by POST /webhooks/{id}/test also carries `test: true`.
 */
export function toEvent(
	body: IDataObject,
	headers: HeaderBag,
	signedTimestamp: number | undefined,
): DeliveredEvent {
	const id =
		text(body.id) ?? text(headerValue(headers, 'webhook-id')) ?? text(headerValue(headers, 'x-business-ops-delivery'));
	const timestamp =
		text(body.timestamp) ??
		(signedTimestamp !== undefined ? new Date(signedTimestamp * 1000).toISOString() : null);
	const data = body.data && typeof body.data === 'object' ? (body.data as IDataObject) : null;
	const event: DeliveredEvent = { id, type: eventTypeOf(body), timestamp, data };
	if (body.test === true) event.test = true;
	return event;
}

/** The request headers (lower-cased names) without credential-bearing ones. */
export function outputHeaders(headers: HeaderBag): IDataObject {
	const result: IDataObject = {};
	for (const [name, value] of Object.entries(headers)) {
		const key = name.toLowerCase();
		if (WITHHELD_HEADERS.has(key) || value === undefined) continue;
		result[key] = value;
	}
	return result;
}
