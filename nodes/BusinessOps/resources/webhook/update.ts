import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { booleanField, textField } from '../../shared/fields';
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
			booleanField({
				displayName: 'Active',
				name: 'active',
				default: true,
				description: 'Whether deliveries are sent: off pauses the subscription, on resumes it',
			}),
			eventsField(),
			textField({ displayName: 'Name', name: 'name', default: '', description: 'Name of the subscription' }),
			urlField(),
		],
	},
];
