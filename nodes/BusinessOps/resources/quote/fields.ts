import { toUtcTimestamp } from '../../shared/dates';
import { documentDateField, documentStatusField } from '../../shared/documentFields';

/** What Simplify keeps of a quote. */
export const QUOTE_SIMPLE_KEYS = ['id', 'number', 'status', 'contactId', 'total', 'validUntil', 'createdAt'];

/** The spec's known quote statuses (section 3). */
const QUOTE_STATUSES = ['draft', 'sent', 'approved', 'canceled'];

/** Valid Until, for Create's Additional Fields and for Update Fields; the API takes a UTC timestamp. */
export const validUntilField = documentDateField(
	{
		displayName: 'Valid Until',
		name: 'validUntil',
		description:
			"Until when the customer can accept the quote. A time without a zone is read in the workflow's time zone. Left out on Create, the API sets its default.",
	},
	toUtcTimestamp,
);

/** Status in Update Fields: content and a status in one PATCH. */
export const quoteStatusField = documentStatusField('quote', QUOTE_STATUSES);
