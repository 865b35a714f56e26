// Agents and agent runs through the Business Ops node in real n8n.
'use strict';

const { assert, byId, runOperation, expectSuccess, expectFailure, sandboxGet } = require('./harness');

module.exports = {
	area: 'agents',
	steps: [
		{
			name: 'Get Many agents and Get Autonomy',
			async run(ctx) {
				ctx.requireOperation('agent', 'getAll');
				ctx.requireOperation('agent', 'getAutonomy');
				const agents = expectSuccess(await runOperation(ctx, { resource: 'agent', operation: 'getAll', returnAll: true }));
				assert.ok(agents.length >= 1 && agents.every((a) => /^agt_/.test(a.id)));
				const [autonomy] = expectSuccess(await runOperation(ctx, { resource: 'agent', operation: 'getAutonomy', agentId: byId(agents[0].id) }));
				assert.ok(autonomy.defaultMode, JSON.stringify(autonomy));
				return `${agents.length} agents; ${agents[0].name}: ${autonomy.defaultMode}`;
			},
		},
		{
			name: 'Pause and Resume an agent; pausing twice shows the API message (422)',
			async run(ctx) {
				for (const op of ['pause', 'resume']) ctx.requireOperation('agent', op);
				const active = (await sandboxGet(ctx, '/agents?status=active&pageSize=100'))[0];
				assert.ok(active, 'the sandbox has no active agent');
				const [paused] = expectSuccess(await runOperation(ctx, { resource: 'agent', operation: 'pause', agentId: byId(active.id) }));
				assert.equal(paused.status, 'paused');
				const again = await runOperation(ctx, { resource: 'agent', operation: 'pause', agentId: byId(active.id) });
				const e = expectFailure(again, /422|invalid_state/i, /paused/);
				const [resumed] = expectSuccess(await runOperation(ctx, { resource: 'agent', operation: 'resume', agentId: byId(active.id) }));
				assert.equal(resumed.status, 'active');
				return `${active.name}: active → paused → active; second pause: "${e.message}"`;
			},
		},
		{
			name: 'Agent Run: Get Many and Get with input and output',
			async run(ctx) {
				ctx.requireOperation('agentRun', 'getAll');
				ctx.requireOperation('agentRun', 'get');
				let agentId;
				let runs = [];
				for (const a of await sandboxGet(ctx, '/agents?pageSize=100')) {
					runs = expectSuccess(await runOperation(ctx, { resource: 'agentRun', operation: 'getAll', agentId: byId(a.id), returnAll: true }));
					if (runs.length) {
						agentId = a.id;
						break;
					}
				}
				assert.ok(agentId, 'no agent has runs');
				const [run] = expectSuccess(
					await runOperation(ctx, { resource: 'agentRun', operation: 'get', agentId: byId(agentId), runId: byId(runs[0].id) }),
				);
				assert.equal(run.id, runs[0].id);
				assert.ok('input' in run || 'output' in run, `run fields: ${Object.keys(run).join(', ')}`);
				return `${runs.length} runs of ${agentId}`;
			},
		},
	],
};
