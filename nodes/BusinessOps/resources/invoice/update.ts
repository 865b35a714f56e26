import type { INodeProperties } from 'n8n-workflow';

import { dateField, operationFields, statusField, updateFields } from '../../shared/fields';
import { lineItemsUpdateFields } from '../../shared/lineItems';
import { contactField, recordPicker } from '../../shared/pickers';

/** The spec's invoice statuses (section 3), for Update Status and Update's Status. */
export const INVOICE_STATUSES = [
	'draft',
	'finalized',
	'sent',
	'viewed',
	'paid',
	'overdue',
	'in_collection',
	'written_off',
];

/** PATCH /invoices/{id}: only the fields the user adds, content and/or a status in one request. */
export const invoiceUpdateFields: INodeProperties[] = operationFields('invoice', 'update', [
	recordPicker('invoice'),
	updateFields([
		contactField({ required: false }),
		...lineItemsUpdateFields('invoice'),
		dateField(
			{
				displayName: 'Due Date',
				name: 'dueDate',
				description:
					'Date by which the invoice must be paid, sent as dueDate with only the date (a field the API documentation does not list)',
			},
			'calendarDate',
		),
		statusField(INVOICE_STATUSES, {
			default: 'draft',
			description:
				'The new status of the invoice, sent in the same request as the other changes. The API refuses moves its rules do not allow, with an error naming the move.',
		}),
	]),
]);
