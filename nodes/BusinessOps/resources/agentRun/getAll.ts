import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { filtersField, getManyFields, simplifyField, statusFilter } from '../../shared/getMany';
import { recordPicker } from '../../shared/pickers';

export const agentRunGetAllFields: INodeProperties[] = operationFields('agentRun', 'getAll', [
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
]);
