import type { INodeProperties } from 'n8n-workflow';

import { filtersField, getManyFields, simplifyField, statusFilter } from '../../shared/descriptions';

export const agentRunGetAllDescription: INodeProperties[] = [
	...getManyFields('agentRun'),
	filtersField('agentRun', [statusFilter(['running', 'success', 'failed'], 'runs')]),
	// a run can carry large input and output JSON
	simplifyField('agentRun', ['getAll'], [
		'id',
		'agentId',
		'status',
		'requestId',
		'summary',
		'error',
		'startedAt',
		'finishedAt',
	]),
];
