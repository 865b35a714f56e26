import type { INodeProperties } from 'n8n-workflow';

import { operationFields, optionsField } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

/** POST /webhooks/{id}/test with `{ eventType }`. */
export const webhookSendTestEventFields: INodeProperties[] = operationFields('webhook', 'sendTestEvent', [
	recordPicker('webhook'),
	// The list is loaded from the API: any event type an expression gives is sent.
	optionsField(
		{
			displayName: 'Event Type Name or ID',
			name: 'eventType',
			// Loaded again once the webhook is picked: by then n8n has given a newly added node its credential.
			typeOptions: { loadOptionsMethod: 'getEventTypes', loadOptionsDependsOn: ['webhookId.value'] },
			required: true,
			default: '',
			description:
				'Type of the test event sent to the subscription URL. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{ others: true },
	),
]);
