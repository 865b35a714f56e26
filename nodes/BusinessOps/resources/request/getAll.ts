import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { filtersField, getManyFields, simplifyField, statusFilter } from '../../shared/getMany';

export const requestGetAllFields: INodeProperties[] = operationFields('request', 'getAll', [
	...getManyFields(),
	filtersField([statusFilter(['new', 'processing', 'processed', 'failed', 'archived'], 'requests')]),
	// a request carries the customer's text and the agent-run output
	simplifyField(['id', 'status', 'fromEmail', 'fromName', 'subject', 'externalRef', 'createdAt']),
]);
