import type { INodeProperties } from 'n8n-workflow';

import { idPath } from '../../shared/descriptions';
import { listRouting } from '../../shared/routingSeam';
import { guarded } from '../../shared/stopOnError';
import { agentIdField } from './fields';
import { agentGetAllDescription } from './getAll';
import { agentUpdateDescription } from './update';
import { agentUpdateAutonomyDescription, buildAutonomyBody } from './updateAutonomy';

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
				routing: { request: { method: 'POST', url: `${agentUrl}/pause` } },
			},
			{
				name: 'Resume',
				value: 'resume',
				action: 'Resume an agent',
				description: 'Resume a paused agent',
				routing: { request: { method: 'POST', url: `${agentUrl}/resume` } },
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update an agent',
				description: 'Rename an agent',
				routing: { request: { method: 'PATCH', url: agentUrl } },
			},
			{
				name: 'Update Autonomy',
				value: 'updateAutonomy',
				action: 'Update the autonomy of an agent',
				description: 'Change which agent actions wait for user approval and which run automatically',
				routing: {
					request: { method: 'PATCH', url: `${agentUrl}/autonomy` },
					send: { preSend: [guarded(buildAutonomyBody)] },
				},
			},
		],
		default: 'getAll',
	},
	agentIdField('agent', ['get', 'getAutonomy', 'pause', 'resume', 'update', 'updateAutonomy']),
	...agentGetAllDescription,
	...agentUpdateDescription,
	...agentUpdateAutonomyDescription,
];
