import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { textField } from '../../shared/fields';
import { optionalContactFields } from './fields';

const showForCreate = showFor('contact', ['create']);

export const contactCreateDescription: INodeProperties[] = [
	textField({
		displayName: 'Name',
		name: 'name',
		required: true,
		default: '',
		placeholder: 'e.g. Bakkerij de Vries B.V.',
		description: 'Name of the business or person',
		displayOptions: showForCreate,
	}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showForCreate,
		options: optionalContactFields,
	},
];
