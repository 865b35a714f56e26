import type { INodeProperties } from 'n8n-workflow';

import { operationFields, statusField } from '../../shared/fields';
import { getManyFields, simplifyField } from '../../shared/getMany';
import { idPath, recordPicker } from '../../shared/pickers';
import { changes, creates, deletes } from '../../shared/itemOrder';
import { listRouting, writeRouting } from '../../shared/requestHook';
import { invoiceCreateFields } from './create';
import { INVOICE_STATUSES, invoiceUpdateFields } from './update';

const invoiceUrl = `=/invoices/${idPath('invoiceId')}`;

const INVOICE_SIMPLE_KEYS = [
	'id',
	'number',
	'status',
	'contactId',
	'total',
	'issueDate',
	'dueDate',
];

export const invoiceDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create an invoice',
				description: 'Create a draft invoice for a contact',
				routing: writeRouting({ method: 'POST', url: '/invoices' }, creates()),
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete an invoice',
				description: 'Delete a draft invoice',
				routing: writeRouting({ method: 'DELETE', url: invoiceUrl }, deletes()),
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get an invoice',
				description: 'Get an invoice by ID',
				routing: { request: { method: 'GET', url: invoiceUrl } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many invoices',
				description: 'List invoices',
				routing: listRouting('/invoices'),
			},
			{
				name: 'Mark as Paid',
				value: 'markAsPaid',
				action: 'Mark an invoice as paid',
				description: 'Set the status of an invoice to paid',
				routing: writeRouting(
					{ method: 'PATCH', url: invoiceUrl, body: { status: 'paid' } },
					changes(),
				),
			},
			{
				name: 'Send',
				value: 'send',
				action: 'Send an invoice',
				description: 'Set the status of an invoice to sent',
				routing: writeRouting(
					{ method: 'PATCH', url: invoiceUrl, body: { status: 'sent' } },
					// the customer may open or pay it before the proving read: sent back, it would leave paid
					changes({ shows: (invoice) => !['draft', 'finalized'].includes(String(invoice.status)) }),
				),
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update an invoice',
				description: 'Change the contact, items or due date of an invoice',
				routing: writeRouting({ method: 'PATCH', url: invoiceUrl }, changes()),
			},
			{
				name: 'Update Status',
				value: 'updateStatus',
				action: 'Update the status of an invoice',
				description: 'Set the status of an invoice to any status',
				routing: writeRouting({ method: 'PATCH', url: invoiceUrl }, changes()),
			},
		],
		default: 'getAll',
	},
	...invoiceCreateFields,
	...operationFields('invoice', 'delete', [recordPicker('invoice')]),
	...operationFields('invoice', 'get', [
		recordPicker('invoice'),
		simplifyField(INVOICE_SIMPLE_KEYS),
	]),
	...operationFields('invoice', 'getAll', [...getManyFields(), simplifyField(INVOICE_SIMPLE_KEYS)]),
	...operationFields('invoice', 'markAsPaid', [recordPicker('invoice')]),
	...operationFields('invoice', 'send', [recordPicker('invoice')]),
	...invoiceUpdateFields,
	// PATCH /invoices/{id} with `{ status }`
	...operationFields('invoice', 'updateStatus', [
		recordPicker('invoice'),
		statusField(INVOICE_STATUSES, {
			required: true,
			default: 'finalized',
			description:
				'The new status. The API refuses moves its rules do not allow (for example out of Paid or Written Off) with an error naming the move.',
		}),
	]),
];
