import type { INodeProperties } from 'n8n-workflow';

import { idLocatorFor } from '../../shared/descriptions';
import { sendingField, textField, type Declaration, type Rule } from '../../shared/fields';
import { asText, givenAs } from '../../shared/typing';

export const webhookIdField: INodeProperties = idLocatorFor('webhook', ['delete', 'get', 'sendTestEvent', 'update'], {
	displayName: 'Webhook',
	name: 'webhookId',
	searchListMethod: 'searchWebhooks',
	placeholder: 'e.g. whk_9pR4d',
});

/**
 * A list of event types from an expression may come as "a, b" text; at least one is needed. Each
 * entry is text (a number is read as its text); anything else is refused rather than sent as
 * "null", "undefined" or "[object Object]".
 */
const eventsRule: Rule = (_ctx, value) => {
	const given: unknown[] = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
	const events: string[] = [];
	for (const [index, entry] of given.entries()) {
		const typed = entry === null || entry === undefined ? undefined : asText(entry);
		if (typed === undefined || !('value' in typed)) {
			return { problem: `entry ${index + 1} of the list must be an event type (text); the expression gave ${givenAs(entry)}` };
		}
		const event = String(typed.value).trim();
		if (event !== '') events.push(event);
	}
	return events.length === 0 ? { problem: 'choose at least one event type' } : { value: events };
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
