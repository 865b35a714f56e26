import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { textField } from '../../shared/fields';

/** The API lets only the name of an agent change here; the status changes through Pause and Resume. */
export const agentUpdateDescription: INodeProperties[] = [
	textField({
		displayName: 'Name',
		name: 'name',
		required: true,
		default: '',
		placeholder: 'e.g. Quotes for painting jobs',
		description: 'New name of the agent',
		displayOptions: showFor('agent', ['update']),
	}),
];
