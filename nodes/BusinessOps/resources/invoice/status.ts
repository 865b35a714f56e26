import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';

/** The Status of Update Status: every invoice status, sent as `{ status }`. */
export const invoiceStatusField: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'options',
	required: true,
	options: [
		{ name: 'Draft', value: 'draft' },
		{ name: 'Finalized', value: 'finalized' },
		{ name: 'In Collection', value: 'in_collection' },
		{ name: 'Overdue', value: 'overdue' },
		{ name: 'Paid', value: 'paid' },
		{ name: 'Sent', value: 'sent' },
		{ name: 'Viewed', value: 'viewed' },
		{ name: 'Written Off', value: 'written_off' },
	],
	default: 'finalized',
	description:
		'The new status. The API refuses moves its rules do not allow (for example out of Paid or Written Off) with an error naming the move.',
	displayOptions: showFor('invoice', ['updateStatus']),
	routing: { send: { type: 'body', property: 'status' } },
};
