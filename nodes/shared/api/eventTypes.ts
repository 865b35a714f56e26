import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { readList } from './pages';

/** Event types named in the spec, offered when the API has no event-type list endpoint. */
const KNOWN_EVENT_TYPES = [
	'invoice.sent',
	'invoice.paid',
	'quote.approved',
	'quote.created',
	'request.received',
];

function eventName(entry: unknown): { value: string; description?: string } {
	if (typeof entry === 'string') return { value: entry };
	const record = entry as IDataObject;
	const value = String(record.type ?? record.name ?? record.id ?? '');
	return { value, description: record.description ? String(record.description) : undefined };
}

/** loadOptions of the Events fields: GET /webhooks/events; the spec's list only when the API lacks the endpoint. */
export async function getEventTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const entries = await readList(this, '/webhooks/events', { call: { lane: 'editor' } }).then(
		({ records }) => records,
		(error: unknown) => {
			// the endpoint is missing (an older API); any other error is shown in the dropdown
			if (['404', '405', '501'].includes((error as { httpCode?: string }).httpCode ?? ''))
				return undefined;
			throw error;
		},
	);
	if (entries === undefined) return fallbackOptions('this API has no list of event types');
	const options = entries
		.map(eventName)
		.filter((event) => event.value !== '')
		.map((event) => ({ name: event.value, value: event.value, description: event.description }));
	return options.length > 0 ? options : fallbackOptions('the API listed no event types');
}

function fallbackOptions(why: string): INodePropertyOptions[] {
	return KNOWN_EVENT_TYPES.map((value) => ({
		name: value,
		value,
		description: `Named in the API documentation (${why})`,
	}));
}
