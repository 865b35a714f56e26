import type { INodeProperties } from 'n8n-workflow';

import { additionalFields, dateField, operationFields } from '../../shared/fields';
import { lineItemsFields } from '../../shared/lineItems';
import { contactField } from '../../shared/pickers';

/** POST /quotes `{ contactId, items, validUntil? }`: a draft for a contact, with its line items. */
export const quoteCreateFields: INodeProperties[] = operationFields('quote', 'create', [
	contactField({ description: 'The contact the quote is for' }),
	...lineItemsFields(),
	additionalFields([
		dateField(
			{
				displayName: 'Valid Until',
				name: 'validUntil',
				description:
					"Until when the customer can accept the quote, sent as a UTC timestamp. A time without a zone is read in the workflow's time zone. Left out, the API sets its default.",
			},
			'utcTimestamp',
		),
	]),
]);
