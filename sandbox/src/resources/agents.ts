import { invalidRequest, invalidState, notFound } from '../errors';
import type { Route } from '../router';
import { readingsOf } from '../readings';
import { list, paginationQuery, single } from '../schemas';
import type { OrgData } from '../store';
import {
	AGENT_STATUSES,
	AGENT_TYPES,
	AUTONOMY_MODES,
	RUN_STATUSES,
	type AgentRecord,
	type Autonomy,
	type AutonomyMode,
} from '../types';
import { agentDetailView, agentView, runSummaryView } from '../views';
import { findOr404, now, objectBody, paginate } from './common';

const modeSchema = { type: 'string', enum: AUTONOMY_MODES } as const;

const autonomyBody = objectBody({
	defaultMode: modeSchema,
	autoAfterApprovalsCount: {
		type: ['integer', 'null'],
		minimum: 0,
		maximum: 1000,
		description:
			'Required when defaultMode or an override is auto_after_approvals; may be sent with any mode. 0 means after no approvals (strict mode: at least 1).',
	},
	actionOverrides: {
		type: 'object',
		description: 'Replaces the whole set of overrides. Keys are action names such as send_invoice.',
		propertyNames: {
			type: 'string',
			pattern: '^[a-z][a-z0-9_]{0,63}$',
			'x-error': 'lower-case letters, digits and _ (like send_invoice)',
		},
		additionalProperties: objectBody({ mode: modeSchema }, ['mode']),
	},
});

interface AutonomyInput {
	defaultMode?: AutonomyMode;
	autoAfterApprovalsCount?: number | null;
	actionOverrides?: Record<string, { mode: AutonomyMode }>;
}

function findAgent(org: OrgData, id: string): AgentRecord {
	return findOr404(org.agents, id, 'Agent');
}

function assertInstalled(agent: AgentRecord, action: string): void {
	if (agent.status === 'uninstalled') {
		throw invalidState(`Cannot ${action} agent ${agent.id}: it is uninstalled`);
	}
}

function move(
	agent: AgentRecord,
	from: 'active' | 'paused',
	to: 'active' | 'paused',
	verb: string,
): AgentRecord {
	assertInstalled(agent, verb);
	if (agent.status !== from) {
		throw invalidState(
			`Cannot ${verb} agent ${agent.id}: its status is "${agent.status}"; only ${from === 'active' ? 'an' : 'a'} "${from}" agent can be ${verb}d`,
		);
	}
	agent.status = to;
	agent.updatedAt = now();
	return agent;
}

export const agentRoutes: Route[] = [
	{
		method: 'GET',
		path: '/agents',
		operationId: 'listAgents',
		summary: 'List installed agents',
		tag: 'Agents',
		scope: 'agents.read',
		query: {
			...paginationQuery,
			status: { type: 'string', enum: AGENT_STATUSES },
			agentType: { type: 'string', enum: AGENT_TYPES },
		},
		response: { status: 200, description: 'A page of agents.', schema: list('Agent') },
		errors: [400],
		handler: ({ org, query }) =>
			paginate(
				org.agents
					.all()
					.filter(
						(a) =>
							(!query.status || a.status === query.status) &&
							(!query.agentType || a.agentType === query.agentType),
					),
				query,
				agentView,
			),
	},
	{
		method: 'GET',
		path: '/agents/{id}',
		operationId: 'getAgent',
		summary: 'Get an agent with counts of runs, connectors and examples',
		tag: 'Agents',
		scope: 'agents.read',
		response: {
			status: 200,
			description: 'The agent and its counts.',
			schema: single('AgentDetail'),
		},
		errors: [404],
		handler: ({ org, params }) => ({ data: agentDetailView(org, findAgent(org, params.id)) }),
	},
	{
		method: 'PATCH',
		path: '/agents/{id}',
		operationId: 'updateAgent',
		summary: 'Rename an agent',
		description:
			'Only name can change here; use /pause and /resume for the status. An uninstalled agent cannot be renamed (422).',
		tag: 'Agents',
		scope: 'agents.write',
		body: objectBody({ name: { type: 'string', minLength: 1, maxLength: 100 } }),
		response: {
			status: 200,
			description: 'The agent and its counts.',
			schema: single('AgentDetail'),
		},
		errors: [400, 404, 422],
		handler: ({ org, params, body }) => {
			const agent = findAgent(org, params.id);
			if (body.name !== undefined) {
				assertInstalled(agent, 'rename');
				agent.name = body.name as string;
				agent.updatedAt = now();
			}
			return { data: agentDetailView(org, agent) };
		},
	},
	{
		method: 'POST',
		path: '/agents/{id}/pause',
		operationId: 'pauseAgent',
		summary: 'Pause an active agent',
		tag: 'Agents',
		scope: 'agents.write',
		body: objectBody({}, [], 'No fields; the body may be empty.'),
		response: {
			status: 200,
			description: 'The paused agent and its counts.',
			schema: single('AgentDetail'),
		},
		errors: [400, 404, 422],
		handler: ({ app, org, params }) => {
			const agent = move(findAgent(org, params.id), 'active', 'paused', 'pause');
			app.emit(org, 'agent.paused', agentView(agent));
			return { data: agentDetailView(org, agent) };
		},
	},
	{
		method: 'POST',
		path: '/agents/{id}/resume',
		operationId: 'resumeAgent',
		summary: 'Resume a paused agent',
		tag: 'Agents',
		scope: 'agents.write',
		body: objectBody({}, [], 'No fields; the body may be empty.'),
		response: {
			status: 200,
			description: 'The active agent and its counts.',
			schema: single('AgentDetail'),
		},
		errors: [400, 404, 422],
		handler: ({ app, org, params }) => {
			const agent = move(findAgent(org, params.id), 'paused', 'active', 'resume');
			app.emit(org, 'agent.resumed', agentView(agent));
			return { data: agentDetailView(org, agent) };
		},
	},
	{
		method: 'GET',
		path: '/agents/{id}/autonomy',
		operationId: 'getAgentAutonomy',
		summary: 'Autonomy configuration of an agent',
		tag: 'Agents',
		scope: 'agents.read',
		response: {
			status: 200,
			description: 'Default mode and per-action overrides.',
			schema: single('Autonomy'),
		},
		errors: [404],
		handler: ({ org, params }) => ({ data: findAgent(org, params.id).autonomy }),
	},
	{
		method: 'PATCH',
		path: '/agents/{id}/autonomy',
		operationId: 'updateAgentAutonomy',
		summary: 'Change the autonomy configuration of an agent',
		description:
			'Any subset of defaultMode, autoAfterApprovalsCount, actionOverrides (which replaces all overrides).',
		tag: 'Agents',
		scope: 'agents.write',
		body: autonomyBody,
		response: {
			status: 200,
			description: 'The configuration after the change.',
			schema: single('Autonomy'),
		},
		errors: [400, 404, 422],
		handler: ({ app, org, params, body }) => {
			const agent = findAgent(org, params.id);
			const input = body as AutonomyInput;
			const next: Autonomy = {
				...agent.autonomy,
				...(input.defaultMode !== undefined ? { defaultMode: input.defaultMode } : {}),
				...(input.autoAfterApprovalsCount !== undefined
					? { autoAfterApprovalsCount: input.autoAfterApprovalsCount }
					: {}),
				...(input.actionOverrides !== undefined ? { actionOverrides: input.actionOverrides } : {}),
			};
			const usesCount =
				next.defaultMode === 'auto_after_approvals' ||
				Object.values(next.actionOverrides).some((o) => o.mode === 'auto_after_approvals');
			if (usesCount && next.autoAfterApprovalsCount === null) {
				throw invalidRequest(
					'"autoAfterApprovalsCount" is required (an integer of at least 0) when a mode is auto_after_approvals',
					'autoAfterApprovalsCount',
				);
			}
			if (readingsOf(app).strict && input.autoAfterApprovalsCount === 0) {
				throw invalidRequest(
					'"autoAfterApprovalsCount" must be an integer from 1 to 1000',
					'autoAfterApprovalsCount',
				);
			}
			assertInstalled(agent, 'configure');
			agent.autonomy = { ...next, actionOverrides: { ...next.actionOverrides }, updatedAt: now() };
			return { data: agent.autonomy };
		},
	},
	{
		method: 'GET',
		path: '/agents/{id}/runs',
		operationId: 'listAgentRuns',
		summary: 'Run history of an agent',
		description: 'Runs oldest first, without input and output (read one run for those).',
		tag: 'Agents',
		scope: 'agents.read',
		query: { ...paginationQuery, status: { type: 'string', enum: RUN_STATUSES } },
		response: { status: 200, description: 'A page of runs.', schema: list('AgentRun') },
		errors: [400, 404],
		handler: ({ org, params, query }) => {
			const agent = findAgent(org, params.id);
			const runs = org.runs
				.all()
				.filter((r) => r.agentId === agent.id && (!query.status || r.status === query.status));
			return paginate(runs, query, runSummaryView);
		},
	},
	{
		method: 'GET',
		path: '/agents/{id}/runs/{runId}',
		operationId: 'getAgentRun',
		summary: 'One run with its input and output JSON',
		tag: 'Agents',
		scope: 'agents.read',
		response: { status: 200, description: 'The run.', schema: single('AgentRunDetail') },
		errors: [404],
		handler: ({ org, params }) => {
			const agent = findAgent(org, params.id);
			const run = org.runs.get(params.runId);
			if (!run || run.agentId !== agent.id) throw notFound('Run', params.runId);
			return { data: run };
		},
	},
];
