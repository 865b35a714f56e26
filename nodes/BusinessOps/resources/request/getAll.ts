import type { INodeProperties } from 'n8n-workflow';

import { filtersField, getManyFields, simplifyField, statusFilter } from '../../shared/descriptions';

export const requestGetAllDescription: INodeProperties[] = [
	...getManyFields('request'),
	filtersField('request', [statusFilter(['new', 'processing', 'processed', 'failed', 'archived'], 'requests')]),
	// a request carries the customer's text and the agent-run output
	simplifyField('request', ['getAll'], ['id', 'status', 'fromEmail', 'fromName', 'subject', 'externalRef', 'createdAt']),
];
