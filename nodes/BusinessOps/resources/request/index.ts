import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { filtersField, getManyFields, simplifyField, statusFilter } from '../../shared/getMany';
import { idPath, recordPicker } from '../../shared/pickers';
import { listRouting, writeRouting } from '../../shared/requestHook';
import { requestCreated, requestCreateFields } from './create';

export const requestDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['request'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a customer request',
				description: 'Submit a customer request for processing by the matching agent',
				routing: writeRouting({ method: 'POST', url: '/requests' }, requestCreated),
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a customer request',
				description: 'Get a customer request, with the output of its agent run when there is one',
				routing: { request: { method: 'GET', url: `=/requests/${idPath('requestId')}` } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many customer requests',
				description: 'List customer requests',
				routing: listRouting('/requests'),
			},
		],
		default: 'getAll',
	},
	...requestCreateFields,
	...operationFields('request', 'get', [recordPicker('request')]),
	...operationFields('request', 'getAll', [
		...getManyFields(),
		filtersField([
			statusFilter(['new', 'processing', 'processed', 'failed', 'archived'], 'requests'),
		]),
		// a request carries the customer's text and the agent-run output
		simplifyField(['id', 'status', 'fromEmail', 'fromName', 'subject', 'externalRef', 'createdAt']),
	]),
];
