import type { INodeProperties } from 'n8n-workflow';

import { idLocatorFor } from '../../shared/descriptions';
import { sendingField, textField, type Declaration, type Rule } from '../../shared/fields';
import { eventNamesOf } from '../../../shared/eventNames';

export const webhookIdField: INodeProperties = idLocatorFor('webhook', ['delete', 'get', 'sendTestEvent', 'update'], {
	displayName: 'Webhook',
	name: 'webhookId',
	searchListMethod: 'searchWebhooks',
	placeholder: 'e.g. whk_9pR4d',
});

/** At least one event type is needed (eventNamesOf reads the field). */
const eventsRule: Rule = (_ctx, value) => {
	const read = eventNamesOf(value);
	if ('problem' in read) return read;
	return read.events.length === 0 ? { problem: 'choose at least one event type' } : { value: read.events };
};

/** The event types a subscription receives, from GET /webhooks/events. */
export function eventsField(own: Partial<Declaration> = {}): INodeProperties {
	return sendingField(
		{
			displayName: 'Event Names or IDs',
			name: 'events',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getEventTypes' },
			default: [],
			description:
				'Event types delivered to the URL. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			...own,
		},
		eventsRule,
	);
}

/** The target URL of the deliveries, sent trimmed and checked as an http(s) URL. */
export function urlField(own: Partial<Declaration> = {}): INodeProperties {
	return textField(
		{
			displayName: 'URL',
			name: 'url',
			default: '',
			placeholder: 'e.g. https://example.com/hooks/business-ops',
			description: 'Address that receives the deliveries (http or https)',
			...own,
		},
		{ trim: true, check: 'httpUrl' },
	);
}
