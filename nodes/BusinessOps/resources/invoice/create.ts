import type { INodeProperties } from 'n8n-workflow';

import { additionalFields, dateField, operationFields } from '../../shared/fields';
import { lineItemsFields } from '../../shared/lineItems';
import { contactField } from '../../shared/pickers';

/**
 * POST /invoices `{ contactId, items, dueDate? }`. The spec does not show its body fields: the
 * contact and line items as for a quote, and `dueDate` as a calendar date, are this package's reading.
 */
export const invoiceCreateFields: INodeProperties[] = operationFields('invoice', 'create', [
	contactField({ description: 'The contact the invoice is for' }),
	...lineItemsFields(),
	additionalFields([
		dateField(
			{
				displayName: 'Due Date',
				name: 'dueDate',
				description:
					'Date by which the invoice must be paid, sent as dueDate with only the date (a field the API documentation does not list). Left out, the API uses its default.',
			},
			'calendarDate',
		),
	]),
]);
