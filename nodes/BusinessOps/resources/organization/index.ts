import type { INodeProperties } from 'n8n-workflow';

import { changes } from '../../shared/itemOrder';
import { writeRouting } from '../../shared/requestHook';
import { organizationUpdateFields } from './update';

export const organizationDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['organization'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get the organization settings',
				description: 'Get all settings of the organization the API key belongs to',
				routing: { request: { method: 'GET', url: '/organization' } },
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update the organization settings',
				description: 'Change settings such as VAT, payment terms and number prefixes',
				routing: writeRouting({ method: 'PATCH', url: '/organization' }, changes()),
			},
		],
		default: 'get',
	},
	...organizationUpdateFields,
];
