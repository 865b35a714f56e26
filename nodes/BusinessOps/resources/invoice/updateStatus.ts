import type { INodeProperties } from 'n8n-workflow';

import { operationFields, statusField } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

/** The spec's invoice statuses (section 3), for Update Status and Update's Status. */
export const INVOICE_STATUSES = ['draft', 'finalized', 'sent', 'viewed', 'paid', 'overdue', 'in_collection', 'written_off'];

/** PATCH /invoices/{id} with `{ status }`. */
export const invoiceUpdateStatusFields: INodeProperties[] = operationFields('invoice', 'updateStatus', [
	recordPicker('invoice'),
	statusField(INVOICE_STATUSES, {
		required: true,
		default: 'finalized',
		description:
			'The new status. The API refuses moves its rules do not allow (for example out of Paid or Written Off) with an error naming the move.',
	}),
]);
