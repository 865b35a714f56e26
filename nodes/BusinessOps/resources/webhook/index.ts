import type { IExecuteSingleFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../../../shared/api/pages';
import {
	booleanField,
	operationFields,
	optionsField,
	textField,
	updateFields,
} from '../../shared/fields';
import { getManyFields } from '../../shared/getMany';
import { idPath, recordPicker } from '../../shared/pickers';
import { changes, creates, deletes } from '../../shared/itemOrder';
import { listRouting, writeRouting } from '../../shared/requestHook';
import { addSigningSecretNote, eventsField, urlField, webhookCreateFields } from './create';

const webhookUrl = `=/webhooks/${idPath('webhookId')}`;

async function toEventTypeItems(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return items.map((item) => {
		const entry: unknown = item.json;
		return typeof entry === 'string' ? { ...item, json: { type: entry } } : item;
	});
}

export const webhookDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a webhook',
				description:
					'Subscribe a URL to events; the answer holds the signing secret, shown only this once',
				routing: {
					...writeRouting({ method: 'POST', url: '/webhooks' }, creates()),
					output: { postReceive: [addSigningSecretNote] },
				},
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a webhook',
				description: 'Remove a webhook subscription',
				routing: writeRouting({ method: 'DELETE', url: webhookUrl }, deletes()),
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a webhook',
				description: 'Get a webhook subscription by ID',
				routing: { request: { method: 'GET', url: webhookUrl } },
			},
			{
				name: 'Get Event Types',
				value: 'getEventTypes',
				action: 'Get the webhook event types',
				description: 'List the event types a subscription can receive, one item per type',
				routing: {
					...listRouting('/webhooks/events', { qs: { pageSize: MAX_PAGE_SIZE } }),
					output: { postReceive: [toEventTypeItems] },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many webhooks',
				description: 'List the webhook subscriptions',
				routing: listRouting('/webhooks'),
			},
			{
				name: 'Send Test Event',
				value: 'sendTestEvent',
				action: 'Send a test event to a webhook',
				description: 'Send a test event of a chosen type to the subscription URL',
				routing: writeRouting(
					{ method: 'POST', url: `${webhookUrl}/test` },
					// a delivery shows nowhere the API can be asked: after an unknown outcome, not sent again
					{ again: 'a second test event is delivered', prove: async () => 'unfindable' },
				),
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a webhook',
				description: 'Change the name, URL or events of a subscription, or pause or resume it',
				routing: writeRouting({ method: 'PATCH', url: webhookUrl }, changes()),
			},
		],
		default: 'getAll',
	},
	...webhookCreateFields,
	...operationFields('webhook', 'delete', [recordPicker('webhook')]),
	...operationFields('webhook', 'get', [recordPicker('webhook')]),
	...operationFields('webhook', 'getAll', getManyFields()),
	// POST /webhooks/{id}/test with `{ eventType }`
	...operationFields('webhook', 'sendTestEvent', [
		recordPicker('webhook'),
		// The list is loaded from the API: any event type an expression gives is sent.
		optionsField(
			{
				displayName: 'Event Type Name or ID',
				name: 'eventType',
				// Loaded again once the webhook is picked: by then n8n has given a newly added node its credential.
				typeOptions: {
					loadOptionsMethod: 'getEventTypes',
					loadOptionsDependsOn: ['webhookId.value'],
				},
				required: true,
				default: '',
				description:
					'Type of the test event sent to the subscription URL. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{ others: true },
		),
	]),
	// PATCH /webhooks/{id}: only the fields the user adds
	...operationFields('webhook', 'update', [
		recordPicker('webhook'),
		updateFields([
			booleanField({
				displayName: 'Active',
				name: 'active',
				default: true,
				description: 'Whether deliveries are sent: off pauses the subscription, on resumes it',
			}),
			eventsField(),
			textField({
				displayName: 'Name',
				name: 'name',
				default: '',
				description: 'Name of the subscription',
			}),
			urlField(),
		]),
	]),
];
