import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { idLocatorFor } from '../../shared/descriptions';
import { checkedField, invalidInput, TRIMMED_VALUE } from '../../shared/validation';

export const webhookIdField: INodeProperties = idLocatorFor('webhook', ['delete', 'get', 'sendTestEvent', 'update'], {
	displayName: 'Webhook',
	name: 'webhookId',
	searchListMethod: 'searchWebhooks',
	placeholder: 'e.g. whk_9pR4d',
});

const EVENTS_LABEL = 'Event Names or IDs';

/** preSend of the events field: a list from an expression may come as "a, b" text; at least one is needed. */
async function checkEvents(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = requestOptions.body as IDataObject;
	if (body.events === undefined) return requestOptions;
	const given = typeof body.events === 'string' ? body.events.split(',') : body.events;
	const events = Array.isArray(given) ? given.map((event) => String(event).trim()).filter((event) => event !== '') : [];
	if (events.length === 0) {
		throw invalidInput(this, EVENTS_LABEL, 'choose at least one event type', '', 'events');
	}
	body.events = events;
	return requestOptions;
}

/** The event types a subscription receives, from GET /webhooks/events. */
export const eventsField: INodeProperties = {
	displayName: EVENTS_LABEL,
	name: 'events',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getEventTypes' },
	default: [],
	description:
		'Event types delivered to the URL. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	routing: { send: { type: 'body', property: 'events', preSend: [checkEvents] } },
};

/** The target URL of the deliveries, checked as an http(s) URL. */
export const urlField: INodeProperties = checkedField(
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/hooks/business-ops',
		description: 'Address that receives the deliveries (http or https)',
		routing: { send: { type: 'body', property: 'url', value: TRIMMED_VALUE } },
	},
	'httpUrl',
);
