import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { checkedField, TRIMMED_VALUE } from '../../shared/validation';

const showForCreate = showFor('request', ['create']);

export const requestCreateDescription: INodeProperties[] = [
	checkedField(
		{
			displayName: 'From Email',
			name: 'fromEmail',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'name@email.com',
			description: 'E-mail address of the customer who sent the request',
			displayOptions: showForCreate,
			routing: { send: { type: 'body', property: 'fromEmail', value: TRIMMED_VALUE } },
		},
		'email',
	),
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Quote for painting the front of our shop',
		displayOptions: showForCreate,
		routing: { send: { type: 'body', property: 'subject' } },
	},
	{
		displayName: 'Body Text',
		name: 'bodyText',
		type: 'string',
		typeOptions: { rows: 5 },
		required: true,
		default: '',
		description: 'The message of the customer, as plain text',
		displayOptions: showForCreate,
		routing: { send: { type: 'body', property: 'bodyText' } },
	},
	{
		displayName: 'Process Immediately',
		name: 'processImmediately',
		type: 'boolean',
		default: true,
		description:
			'Whether the matching agent processes the request at once. When off, the request stays "new" until it is triggered manually later.',
		displayOptions: showForCreate,
		routing: { send: { type: 'body', property: 'processImmediately' } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showForCreate,
		options: [
			{
				displayName: 'External Reference',
				name: 'externalRef',
				type: 'string',
				default: '',
				placeholder: 'e.g. TICKET-1042',
				description: 'Reference of the request in your own system',
				routing: { send: { type: 'body', property: 'externalRef' } },
			},
			{
				displayName: 'From Name',
				name: 'fromName',
				type: 'string',
				default: '',
				placeholder: 'e.g. Anna de Vries',
				description: 'Name of the customer who sent the request',
				routing: { send: { type: 'body', property: 'fromName' } },
			},
		],
	},
];
