import type { IExecuteSingleFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { operationFields, sendingField, textField, type Declaration } from '../../shared/fields';
import { eventNamesOf } from '../../../shared/eventNames';

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
		// at least one event type is needed (eventNamesOf reads the field)
		(_ctx, value) => {
			const read = eventNamesOf(value);
			if ('problem' in read) return read;
			return read.events.length === 0
				? { problem: 'choose at least one event type' }
				: { value: read.events };
		},
	);
}

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

const SIGNING_SECRET_NOTE =
	'This signing secret is shown only this once: store it now (for example in an n8n credential). The API never returns it again, and it is needed to verify the deliveries.';

export async function addSigningSecretNote(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return items.map((item) =>
		item.json.signingSecret === undefined
			? item
			: { ...item, json: { ...item.json, signingSecretNote: SIGNING_SECRET_NOTE } },
	);
}

/** POST /webhooks: the answer holds the signing secret, shown only this once. */
export const webhookCreateFields: INodeProperties[] = operationFields('webhook', 'create', [
	textField({
		displayName: 'Name',
		name: 'name',
		required: true,
		default: '',
		placeholder: 'e.g. Paid invoices to bookkeeping',
		description: 'Name of the subscription',
	}),
	urlField({ required: true }),
	eventsField({ required: true }),
]);
