import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { filtersField, getManyFields, queryOptionFilter, statusFilter } from '../../shared/getMany';

export const agentGetAllFields: INodeProperties[] = operationFields('agent', 'getAll', [
	...getManyFields(),
	filtersField([
		queryOptionFilter(
			'Agent Type',
			'agentType',
			[
				{ name: 'Customer Care Agent', value: 'CustomerCareAgent' },
				{ name: 'Invoice Agent', value: 'InvoiceAgent' },
				{ name: 'Planning Agent', value: 'PlanningAgent' },
				{ name: 'Quote Agent', value: 'QuoteAgent' },
			],
			'Only agents of this type',
		),
		statusFilter(['active', 'paused', 'uninstalled'], 'agents'),
	]),
]);
