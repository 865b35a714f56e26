import type { INodeProperties } from 'n8n-workflow';

import { booleanField, operationFields, textField, updateFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';
import { eventsField, urlField } from './create';

/** PATCH /webhooks/{id}: only the fields the user adds. */
export const webhookUpdateFields: INodeProperties[] = operationFields('webhook', 'update', [
	recordPicker('webhook'),
	updateFields([
		booleanField({
			displayName: 'Active',
			name: 'active',
			default: true,
			description: 'Whether deliveries are sent: off pauses the subscription, on resumes it',
		}),
		eventsField(),
		textField({ displayName: 'Name', name: 'name', default: '', description: 'Name of the subscription' }),
		urlField(),
	]),
]);
