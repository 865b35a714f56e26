import type { INodeProperties } from 'n8n-workflow';

import { additionalFields, booleanField, operationFields, textField } from '../../shared/fields';

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
