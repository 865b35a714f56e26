/** Public shapes of records whose stored form holds more than the API shows. */
import type { OrgData } from './store';
import type { Agent, AgentRecord, AgentRun, Webhook, WebhookRecord } from './types';

export function agentView(agent: AgentRecord): Agent {
	const { id, name, agentType, status, description, createdAt, updatedAt } = agent;
	return { id, name, agentType, status, description, createdAt, updatedAt };
}

export function agentDetailView(org: OrgData, agent: AgentRecord) {
	let runs = 0;
	for (const run of org.runs.all()) if (run.agentId === agent.id) runs++;
	return {
		...agentView(agent),
		counts: { runs, connectors: agent.connectors, examples: agent.examples },
	};
}

/** A run as listed: without its input and output. */
export function runSummaryView(run: AgentRun): Omit<AgentRun, 'input' | 'output'> {
	const summary: Partial<AgentRun> = { ...run };
	delete summary.input;
	delete summary.output;
	return summary as Omit<AgentRun, 'input' | 'output'>;
}

/** Never includes the signing secret. */
export function webhookView(webhook: WebhookRecord): Webhook {
	const { id, name, url, events, active, createdAt, updatedAt } = webhook;
	return { id, name, url, events: [...events], active, createdAt, updatedAt };
}
