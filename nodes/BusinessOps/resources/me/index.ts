import type { INodeProperties } from 'n8n-workflow';

export const meDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['me'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get the current API key',
				description: 'Get the organization, scopes and display prefix of the API key in use',
				routing: { request: { method: 'GET', url: '/me' } },
			},
		],
		default: 'get',
	},
];
