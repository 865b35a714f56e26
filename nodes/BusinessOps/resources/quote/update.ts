import type { INodeProperties } from 'n8n-workflow';

import { dateField, operationFields, statusField, updateFields } from '../../shared/fields';
import { lineItemsUpdateFields } from '../../shared/lineItems';
import { contactField, recordPicker } from '../../shared/pickers';

/** PATCH /quotes/{id}: only the fields the user adds, content and/or a status in one request. */
export const quoteUpdateFields: INodeProperties[] = operationFields('quote', 'update', [
	recordPicker('quote'),
	updateFields([
		contactField({ required: false }),
		...lineItemsUpdateFields('quote'),
		dateField(
			{
				displayName: 'Valid Until',
				name: 'validUntil',
				description:
					"Until when the customer can accept the quote, sent as a UTC timestamp. A time without a zone is read in the workflow's time zone.",
			},
			'utcTimestamp',
		),
		// The spec's known quote statuses (section 3)
		statusField(['draft', 'sent', 'approved', 'canceled'], {
			default: 'draft',
			description:
				'The new status of the quote, sent in the same request as the other changes. The API refuses moves its rules do not allow, with an error naming the move.',
		}),
	]),
]);
