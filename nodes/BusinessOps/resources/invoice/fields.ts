import { documentDateField } from '../../shared/lineItems';

/** What Simplify keeps of an invoice. */
export const INVOICE_SIMPLE_KEYS = ['id', 'number', 'status', 'contactId', 'total', 'issueDate', 'dueDate'];

/** Due Date, for Create's Additional Fields and for Update Fields; the API takes a calendar date. */
export const dueDateField = documentDateField(
	{
		displayName: 'Due Date',
		name: 'dueDate',
		description:
			"Date by which the invoice must be paid; only the date is sent. Left out on Create, the API uses the organization's payment terms.",
	},
	(value) => value.trim().slice(0, 10),
);
