import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
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
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				routing: { send: { type: 'body', property: 'name' } },
			},
			...optionalContactFields,
		],
	},
];
