/** Turns a verified delivery into the trigger's output item. Pure. */
import type { IDataObject } from 'n8n-workflow';

import { textOf, type BusinessOpsEvent } from '../shared/event';
import { isRecord } from '../shared/typing';
import { headerValues, type HeaderBag } from './signatures/hmac';

/** Headers that may carry credentials of the caller or of n8n; never copied to the output. */
const WITHHELD_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

const TYPE_FIELDS = ['type', 'event', 'eventType', 'event_type'];

/** Where the event type was read; `unsignedHeader`: no signing form covers a header that names the type. */
interface EventTypeReading {
	type: string | null;
	from: string;
	unsignedHeader?: string;
}

export function parseEventBody(rawBody: Buffer | string | undefined): IDataObject | undefined {
	if (rawBody === undefined || rawBody === null) return undefined;
	try {
		const text = Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody;
		const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
		return isRecord(parsed) ? parsed : undefined;
	} catch {
		return undefined;
	}
}

/** The value at a dot path (`meta.event.name`); a key that itself holds dots is tried whole first. */
function atPath(body: IDataObject, path: string): unknown {
	if (path in body) return body[path];
	let value: unknown = body;
	for (const key of path.split('.')) {
		if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

/** A header that names the event type: `X-Business-Ops-Event`, `X-Event-Type`, `X-GitHub-Event`, `webhook-event-type`. */
const isEventTypeHeader = (name: string) => /(^|-)event(-?type)?$/.test(name);

export function eventTypeOf(body: IDataObject, headers: HeaderBag, field = ''): EventTypeReading {
	const path = field.trim();
	if (path !== '') {
		const value = textOf(atPath(body, path));
		if (value !== null) return { type: value, from: `field ${path}` };
	}
	for (const name of TYPE_FIELDS) {
		const value = textOf(body[name]);
		if (value !== null) return { type: value, from: `field ${name}` };
	}
	for (const [name, value] of headerValues(headers, isEventTypeHeader)) {
		if (textOf(value.trim()) !== null) {
			return {
				type: value.trim(),
				from: `header ${name} (not signed)`,
				unsignedHeader: name.toLowerCase(),
			};
		}
	}
	return { type: null, from: 'nowhere' };
}

/** The output item (README.md, "Trigger"); `test: true` only for the JSON boolean `true`, not for text. */
export function toEvent(
	body: IDataObject,
	reading: EventTypeReading,
	deliveryId: string | null,
	signedTimestamp: number | undefined,
): BusinessOpsEvent {
	const type = reading.type;
	const timestamp =
		textOf(body.timestamp) ??
		(signedTimestamp !== undefined ? new Date(signedTimestamp * 1000).toISOString() : null);
	const data = isRecord(body.data) ? body.data : isRecord(body.payload) ? body.payload : body;
	const event: BusinessOpsEvent = {
		id: textOf(body.id) ?? deliveryId,
		deliveryId,
		type,
		timestamp,
		data,
	};
	if (type === null) event.typeUnknown = true;
	if (reading.unsignedHeader) event.typeFromUnsignedHeader = reading.unsignedHeader;
	if (body.test === true) event.test = true;
	return event;
}

export function outputHeaders(headers: HeaderBag): IDataObject {
	const kept = Object.entries(headers).filter(
		([name, value]) => value !== undefined && !WITHHELD_HEADERS.has(name.toLowerCase()),
	);
	return Object.fromEntries(kept.map(([name, value]) => [name.toLowerCase(), value]));
}
