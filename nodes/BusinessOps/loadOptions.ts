import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { KNOWN_EVENT_TYPES } from './shared/events';
import { apiRequest } from './shared/transport';

function eventName(entry: unknown): { value: string; description?: string } {
	if (typeof entry === 'string') return { value: entry };
	const record = entry as IDataObject;
	const value = String(record.type ?? record.name ?? record.id ?? '');
	return { value, description: record.description ? String(record.description) : undefined };
}

/** The event types of GET /webhooks/events, or the spec's list when that call fails. */
export async function getEventTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	let entries: unknown[];
	try {
		const body = await apiRequest<{ data: unknown[] }>(this, 'GET', '/webhooks/events');
		entries = Array.isArray(body.data) ? body.data : [];
	} catch {
		entries = [];
	}
	if (entries.length === 0) entries = KNOWN_EVENT_TYPES;
	return entries
		.map(eventName)
		.filter((event) => event.value !== '')
		.map((event) => ({ name: event.value, value: event.value, description: event.description }));
}
