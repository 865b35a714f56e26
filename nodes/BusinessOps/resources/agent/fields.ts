import type { INodeProperties } from 'n8n-workflow';

import { idLocatorFor } from '../../shared/descriptions';

/**
 * The agent picker. Agent Run uses it too, under the same parameter name `agentId`, since
 * its run picker (searchAgentRuns) lists the runs of the agent chosen here.
 */
export function agentIdField(resource: 'agent' | 'agentRun', operations: string[]): INodeProperties {
	return idLocatorFor(resource, operations, {
		displayName: 'Agent',
		name: 'agentId',
		searchListMethod: 'searchAgents',
		placeholder: 'e.g. agt_4hQ9x',
	});
}
