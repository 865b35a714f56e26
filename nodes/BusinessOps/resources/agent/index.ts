import type { INodeProperties } from 'n8n-workflow';

import { operationFields, textField } from '../../shared/fields';
import { filtersField, getManyFields, queryOptionFilter, statusFilter } from '../../shared/getMany';
import { idPath, recordPicker } from '../../shared/pickers';
import { changes, parentUrl } from '../../shared/itemOrder';
import { listRouting, writeRouting } from '../../shared/requestHook';
import { agentUpdateAutonomyFields } from './updateAutonomy';

const agentUrl = `=/agents/${idPath('agentId')}`;

export const agentDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agent'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get an agent',
				description: 'Get an agent with the counts of its runs, connectors and examples',
				routing: { request: { method: 'GET', url: agentUrl } },
			},
			{
				name: 'Get Autonomy',
				value: 'getAutonomy',
				action: 'Get the autonomy of an agent',
				description: 'Get the default mode and the per-action overrides of an agent',
				routing: { request: { method: 'GET', url: `${agentUrl}/autonomy` } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many agents',
				description: 'List the installed agents',
				routing: listRouting('/agents'),
			},
			{
				name: 'Pause',
				value: 'pause',
				action: 'Pause an agent',
				description: 'Pause an active agent',
				routing: writeRouting(
					{ method: 'POST', url: `${agentUrl}/pause` },
					changes({ read: parentUrl, shows: (agent) => agent.status === 'paused' }),
				),
			},
			{
				name: 'Resume',
				value: 'resume',
				action: 'Resume an agent',
				description: 'Resume a paused agent',
				routing: writeRouting(
					{ method: 'POST', url: `${agentUrl}/resume` },
					changes({ read: parentUrl, shows: (agent) => agent.status === 'active' }),
				),
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update an agent',
				description: 'Rename an agent',
				routing: writeRouting({ method: 'PATCH', url: agentUrl }, changes()),
			},
			{
				name: 'Update Autonomy',
				value: 'updateAutonomy',
				action: 'Update the autonomy of an agent',
				description:
					'Change which agent actions wait for user approval and which run automatically',
				routing: writeRouting({ method: 'PATCH', url: `${agentUrl}/autonomy` }, changes()),
			},
		],
		default: 'getAll',
	},
	...operationFields('agent', 'get', [recordPicker('agent')]),
	...operationFields('agent', 'getAll', [
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
	]),
	...operationFields('agent', 'getAutonomy', [recordPicker('agent')]),
	...operationFields('agent', 'pause', [recordPicker('agent')]),
	...operationFields('agent', 'resume', [recordPicker('agent')]),
	// the API lets only the name of an agent change here; the status changes through Pause and Resume
	...operationFields('agent', 'update', [
		recordPicker('agent'),
		textField({
			displayName: 'Name',
			name: 'name',
			required: true,
			default: '',
			placeholder: 'e.g. Quotes for painting jobs',
			description: 'New name of the agent',
		}),
	]),
	...agentUpdateAutonomyFields,
];
