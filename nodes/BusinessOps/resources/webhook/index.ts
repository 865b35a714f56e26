import type { INodeProperties } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../../../shared/api/pages';
import { operationFields } from '../../shared/fields';
import { getManyFields } from '../../shared/getMany';
import { idPath, recordPicker } from '../../shared/pickers';
import { listRouting } from '../../shared/routingSeam';
import { addSigningSecretNote, webhookCreateFields } from './create';
import { toEventTypeItems } from './getEventTypes';
import { webhookSendTestEventFields } from './sendTestEvent';
import { webhookUpdateFields } from './update';

const webhookUrl = `=/webhooks/${idPath('webhookId')}`;

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
				description: 'Subscribe a URL to events; the answer holds the signing secret, shown only this once',
				routing: {
					request: { method: 'POST', url: '/webhooks' },
					output: { postReceive: [addSigningSecretNote] },
				},
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a webhook',
				description: 'Remove a webhook subscription',
				routing: { request: { method: 'DELETE', url: webhookUrl } },
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
				routing: { request: { method: 'POST', url: `${webhookUrl}/test` } },
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a webhook',
				description: 'Change the name, URL or events of a subscription, or pause or resume it',
				routing: { request: { method: 'PATCH', url: webhookUrl } },
			},
		],
		default: 'getAll',
	},
	...webhookCreateFields,
	...operationFields('webhook', 'delete', [recordPicker('webhook')]),
	...operationFields('webhook', 'get', [recordPicker('webhook')]),
	...operationFields('webhook', 'getAll', getManyFields()),
	...webhookSendTestEventFields,
	...webhookUpdateFields,
];
