import type { INodeProperties } from 'n8n-workflow';

import { idLocatorFor } from '../../shared/descriptions';

/** The run picker: its list holds the runs of the agent chosen in the Agent field. */
export const runIdField: INodeProperties = idLocatorFor('agentRun', ['get'], {
	displayName: 'Run',
	name: 'runId',
	searchListMethod: 'searchAgentRuns',
	placeholder: 'e.g. run_7Tz2c',
	description: 'Run of the chosen agent; the list shows the runs of that agent',
});
