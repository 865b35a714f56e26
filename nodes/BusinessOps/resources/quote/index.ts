import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { getManyFields, simplifyField } from '../../shared/getMany';
import { idPath, recordPicker } from '../../shared/pickers';
import { listRouting } from '../../shared/routingSeam';
import { quoteCreateFields } from './create';
import { quoteUpdateFields } from './update';

const quoteUrl = `=/quotes/${idPath('quoteId')}`;

/** What Simplify keeps of a quote (Get and Get Many). */
const QUOTE_SIMPLE_KEYS = [
	'id',
	'number',
	'status',
	'contactId',
	'total',
	'validUntil',
	'createdAt',
];

export const quoteDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['quote'] } },
		options: [
			{
				name: 'Approve',
				value: 'approve',
				action: 'Approve a quote',
				description: 'Set the status of a sent quote to approved',
				routing: { request: { method: 'PATCH', url: quoteUrl, body: { status: 'approved' } } },
			},
			{
				name: 'Cancel',
				value: 'cancel',
				action: 'Cancel a quote',
				description: 'Set the status of a quote to canceled',
				routing: { request: { method: 'PATCH', url: quoteUrl, body: { status: 'canceled' } } },
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create a quote',
				description: 'Create a draft quote for a contact',
				routing: { request: { method: 'POST', url: '/quotes' } },
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a quote',
				description: 'Delete a draft or canceled quote',
				routing: { request: { method: 'DELETE', url: quoteUrl } },
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a quote',
				description: 'Get a quote by ID',
				routing: { request: { method: 'GET', url: quoteUrl } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many quotes',
				description: 'List quotes',
				routing: listRouting('/quotes'),
			},
			{
				name: 'Send',
				value: 'send',
				action: 'Send a quote',
				description: 'Set the status of a draft quote to sent',
				routing: { request: { method: 'PATCH', url: quoteUrl, body: { status: 'sent' } } },
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a quote',
				description: 'Change the contact, items or validity of a quote',
				routing: { request: { method: 'PATCH', url: quoteUrl } },
			},
		],
		default: 'getAll',
	},
	...operationFields('quote', 'approve', [recordPicker('quote')]),
	...operationFields('quote', 'cancel', [recordPicker('quote')]),
	...quoteCreateFields,
	...operationFields('quote', 'delete', [recordPicker('quote')]),
	...operationFields('quote', 'get', [recordPicker('quote'), simplifyField(QUOTE_SIMPLE_KEYS)]),
	...operationFields('quote', 'getAll', [...getManyFields(), simplifyField(QUOTE_SIMPLE_KEYS)]),
	...operationFields('quote', 'send', [recordPicker('quote')]),
	...quoteUpdateFields,
];
