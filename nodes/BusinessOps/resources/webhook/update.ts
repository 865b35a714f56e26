import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { eventsField, urlField } from './fields';

export const webhookUpdateDescription: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('webhook', ['update']),
		options: [
			{
				displayName: 'Active',
				name: 'active',
				type: 'boolean',
				default: true,
				description: 'Whether deliveries are sent: off pauses the subscription, on resumes it',
				routing: { send: { type: 'body', property: 'active' } },
			},
			eventsField,
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'Name of the subscription',
				routing: { send: { type: 'body', property: 'name' } },
			},
			urlField,
		],
	},
];
