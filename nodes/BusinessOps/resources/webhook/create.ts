import type { IExecuteSingleFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { textField } from '../../shared/fields';
import { eventsField, urlField } from './fields';

const showForCreate = showFor('webhook', ['create']);

export const SIGNING_SECRET_NOTE =
	'This signing secret is shown only this once: store it now (for example in an n8n credential). The API never returns it again, and it is needed to verify the deliveries.';

/** postReceive of Create: puts the one-time warning beside the signing secret. */
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

export const webhookCreateDescription: INodeProperties[] = [
	textField({
		displayName: 'Name',
		name: 'name',
		required: true,
		default: '',
		placeholder: 'e.g. Paid invoices to bookkeeping',
		description: 'Name of the subscription',
		displayOptions: showForCreate,
	}),
	urlField({ required: true, displayOptions: showForCreate }),
	eventsField({ required: true, displayOptions: showForCreate }),
];
