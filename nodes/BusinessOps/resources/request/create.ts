import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { MAX_PAGE_SIZE, readList } from '../../../shared/api/pages';
import { additionalFields, booleanField, operationFields, textField } from '../../shared/fields';
import { creates } from '../../shared/itemOrder';

/** Request → Create: found again by its External Reference (compared as the proof compares every field sent), read from the whole list; none without one. */
export const requestCreated = creates(async (ctx, options, itemIndex) => {
	const { externalRef } = options.body as IDataObject;
	if (typeof externalRef !== 'string' || externalRef === '') return undefined;
	const read = {
		...options,
		method: 'GET' as const,
		body: undefined,
		qs: { pageSize: MAX_PAGE_SIZE },
	};
	const { records } = await readList(ctx, read, { itemIndex });
	return records.filter((request) => typeof request.externalRef === 'string');
});

/** POST /requests. */
export const requestCreateFields: INodeProperties[] = operationFields('request', 'create', [
	textField(
		{
			displayName: 'From Email',
			name: 'fromEmail',
			required: true,
			default: '',
			placeholder: 'name@email.com',
			description: 'E-mail address of the customer who sent the request',
		},
		{ trim: true, check: 'email' },
	),
	textField({
		displayName: 'Subject',
		name: 'subject',
		required: true,
		default: '',
		placeholder: 'e.g. Quote for painting the front of our shop',
	}),
	textField({
		displayName: 'Body Text',
		name: 'bodyText',
		typeOptions: { rows: 5 },
		required: true,
		default: '',
		description: 'The message of the customer, as plain text',
	}),
	booleanField({
		displayName: 'Process Immediately',
		name: 'processImmediately',
		default: true,
		description:
			'Whether the matching agent processes the request at once. When off, the request stays "new" until it is triggered manually later.',
	}),
	additionalFields([
		textField({
			displayName: 'External Reference',
			name: 'externalRef',
			default: '',
			placeholder: 'e.g. TICKET-1042',
			description: 'Reference of the request in your own system',
		}),
		textField({
			displayName: 'From Name',
			name: 'fromName',
			default: '',
			placeholder: 'e.g. Anna de Vries',
			description: 'Name of the customer who sent the request',
		}),
	]),
]);
