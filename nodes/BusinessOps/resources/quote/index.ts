import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { getManyFields, simplifyField } from '../../shared/getMany';
import { idPath, recordPicker } from '../../shared/pickers';
import { changes, creates, deletes } from '../../shared/itemOrder';
import { listRouting, writeRouting } from '../../shared/requestHook';
import { quoteCreateFields } from './create';
import { quoteUpdateFields } from './update';

const quoteUrl = `=/quotes/${idPath('quoteId')}`;

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
				routing: writeRouting(
					{ method: 'PATCH', url: quoteUrl, body: { status: 'approved' } },
					changes(),
				),
			},
			{
				name: 'Cancel',
				value: 'cancel',
				action: 'Cancel a quote',
				description: 'Set the status of a quote to canceled',
				routing: writeRouting(
					{ method: 'PATCH', url: quoteUrl, body: { status: 'canceled' } },
					changes(),
				),
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create a quote',
				description: 'Create a draft quote for a contact',
				routing: writeRouting({ method: 'POST', url: '/quotes' }, creates()),
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a quote',
				description: 'Delete a draft or canceled quote',
				routing: writeRouting({ method: 'DELETE', url: quoteUrl }, deletes()),
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
				routing: writeRouting(
					{ method: 'PATCH', url: quoteUrl, body: { status: 'sent' } },
					// the customer may approve it before the proving read: sent back, it would leave approved
					changes({ shows: (quote) => quote.status !== 'draft' }),
				),
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a quote',
				description: 'Change the contact, items or validity of a quote',
				routing: writeRouting({ method: 'PATCH', url: quoteUrl }, changes()),
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
