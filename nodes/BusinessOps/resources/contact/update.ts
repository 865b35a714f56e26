import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { textField } from '../../shared/fields';
import { optionalContactFields } from './fields';

export const contactUpdateDescription: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('contact', ['update']),
		options: [
			textField({ displayName: 'Name', name: 'name', default: '' }),
			...optionalContactFields,
		],
	},
];
