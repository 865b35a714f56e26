import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

/** The agent, then one of its runs: the run picker lists the runs of the agent chosen here. */
export const agentRunGetFields: INodeProperties[] = operationFields('agentRun', 'get', [
	recordPicker('agent'),
	recordPicker('agentRun', { description: 'Run of the chosen agent; the list shows the runs of that agent' }),
]);
