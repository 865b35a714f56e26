import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { filtersField, getManyFields, simplifyField, statusFilter } from '../../shared/getMany';
import { idPath, recordPicker } from '../../shared/pickers';
import { listRouting } from '../../shared/requestHook';

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
	// the agent, then one of its runs: the run picker lists the runs of the agent chosen here
	...operationFields('agentRun', 'get', [
		recordPicker('agent'),
		recordPicker('agentRun', {
			description: 'Run of the chosen agent; the list shows the runs of that agent',
		}),
	]),
	...operationFields('agentRun', 'getAll', [
		recordPicker('agent'),
		...getManyFields(),
		filtersField([statusFilter(['running', 'success', 'failed'], 'runs')]),
		// a run can carry large input and output JSON
		simplifyField([
			'id',
			'agentId',
			'status',
			'requestId',
			'summary',
			'error',
			'startedAt',
			'finishedAt',
		]),
	]),
];
