import type { INodeProperties } from 'n8n-workflow';

import { idPath } from '../../shared/pickers';
import { listRouting } from '../../shared/routingSeam';
import { agentRunGetFields } from './get';
import { agentRunGetAllFields } from './getAll';

const runsUrl = `=/agents/${idPath('agentId')}/runs`;

export const agentRunDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agentRun'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get an agent run',
				description: 'Get the full details of a run, with its input and output',
				routing: { request: { method: 'GET', url: `${runsUrl}/${idPath('runId')}` } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many agent runs',
				description: 'List the run history of an agent',
				routing: listRouting(runsUrl),
			},
		],
		default: 'getAll',
	},
	...agentRunGetFields,
	...agentRunGetAllFields,
];
