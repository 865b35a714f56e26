import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { invoiceStatusInUpdate } from './fields';

/** The Status of Update Status: every invoice status, sent as `{ status }`. */
export const invoiceStatusField: INodeProperties = {
	...invoiceStatusInUpdate,
	required: true,
	default: 'finalized',
	description:
		'The new status. The API refuses moves its rules do not allow (for example out of Paid or Written Off) with an error naming the move.',
	displayOptions: showFor('invoice', ['updateStatus']),
};
