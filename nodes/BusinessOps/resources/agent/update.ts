import type { INodeProperties } from 'n8n-workflow';

import { operationFields, textField } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

/** The API lets only the name of an agent change here; the status changes through Pause and Resume. */
export const agentUpdateFields: INodeProperties[] = operationFields('agent', 'update', [
	recordPicker('agent'),
	textField({
		displayName: 'Name',
		name: 'name',
		required: true,
		default: '',
		placeholder: 'e.g. Quotes for painting jobs',
		description: 'New name of the agent',
	}),
]);
