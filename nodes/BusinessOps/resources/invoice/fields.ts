import { toCalendarDate } from '../../shared/dates';
import { showFor } from '../../shared/descriptions';
import { documentDateField, documentStatusField } from '../../shared/documentFields';

/** What Simplify keeps of an invoice. */
export const INVOICE_SIMPLE_KEYS = ['id', 'number', 'status', 'contactId', 'total', 'issueDate', 'dueDate'];

/** The spec's invoice statuses (section 3). */
const INVOICE_STATUSES = ['draft', 'finalized', 'sent', 'viewed', 'paid', 'overdue', 'in_collection', 'written_off'];

/**
 * Due Date, for Create's Additional Fields and for Update Fields. The spec does not show the body
 * fields of an invoice: `dueDate` as a calendar date is this package's reading, sent only when added.
 */
export const dueDateField = documentDateField(
	{
		displayName: 'Due Date',
		name: 'dueDate',
		description:
			"Date by which the invoice must be paid, sent as dueDate with only the date (a field the API documentation does not list). Left out on Create, the API uses its default.",
	},
	toCalendarDate,
);

/** Status in Update Fields: content and a status in one PATCH. */
export const invoiceStatusInUpdate = documentStatusField('invoice', INVOICE_STATUSES);

/** The Status of Update Status: every invoice status, sent as `{ status }`. */
export const invoiceStatusField = documentStatusField('invoice', INVOICE_STATUSES, {
	required: true,
	default: 'finalized',
	description:
		'The new status. The API refuses moves its rules do not allow (for example out of Paid or Written Off) with an error naming the move.',
	displayOptions: showFor('invoice', ['updateStatus']),
});
