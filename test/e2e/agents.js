// Agents and agent runs through the Business Ops node in real n8n.
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

/** The Action Overrides parameter with one override. */
const override = (action, mode) => ({ override: [{ action, mode }] });

module.exports = {
	area: 'agents',
	steps: [
		{
			name: 'Get Many agents and Get Autonomy',
			async run(ctx) {
				ctx.requireOperation('agent', 'getAll');
				ctx.requireOperation('agent', 'getAutonomy');
				const agents = h.expectSuccess(
					await h.runOperation(ctx, { resource: 'agent', operation: 'getAll', returnAll: true }),
				);
				assert.ok(agents.length >= 1 && agents.every((a) => /^agt_/.test(a.id)));
				const [autonomy] = h.expectSuccess(
					await h.runOnRecord(ctx, 'agent', 'getAutonomy', agents[0].id),
				);
				assert.ok(autonomy.defaultMode, JSON.stringify(autonomy));
				return `${agents.length} agents; ${agents[0].name}: ${autonomy.defaultMode}`;
			},
		},
		{
			name: 'Pause and Resume an agent; pausing twice shows the API message (422)',
			async run(ctx) {
				for (const op of ['pause', 'resume']) ctx.requireOperation('agent', op);
				const active = (await h.sandboxGet(ctx, '/agents?status=active&pageSize=100'))[0];
				assert.ok(active, 'the sandbox has no active agent');
				const [paused] = h.expectSuccess(await h.runOnRecord(ctx, 'agent', 'pause', active.id));
				assert.equal(paused.status, 'paused');
				const again = await h.runOnRecord(ctx, 'agent', 'pause', active.id);
				const e = h.expectFailure(again, /422|invalid_state/i, /paused/);
				const [resumed] = h.expectSuccess(await h.runOnRecord(ctx, 'agent', 'resume', active.id));
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
				for (const a of await h.sandboxGet(ctx, '/agents?pageSize=100')) {
					runs = h.expectSuccess(
						await h.runOperation(ctx, {
							resource: 'agentRun',
							operation: 'getAll',
							agentId: h.byId(a.id),
							returnAll: true,
						}),
					);
					if (runs.length) {
						agentId = a.id;
						break;
					}
				}
				assert.ok(agentId, 'no agent has runs');
				const [run] = h.expectSuccess(
					await h.runOperation(ctx, {
						resource: 'agentRun',
						operation: 'get',
						agentId: h.byId(agentId),
						runId: h.byId(runs[0].id),
					}),
				);
				assert.equal(run.id, runs[0].id);
				assert.ok('input' in run || 'output' in run, `run fields: ${Object.keys(run).join(', ')}`);
				return `${runs.length} runs of ${agentId}`;
			},
		},
		{
			name: 'Update Autonomy: a manual default with an auto_after_approvals override carries the count; 0 is sent; Clear Action Overrides empties them',
			async run(ctx) {
				ctx.requireOperation('agent', 'updateAutonomy');
				const agent = (await h.sandboxGet(ctx, '/agents?status=active&pageSize=1'))[0];
				const update = (params) =>
					h.runOperation(ctx, {
						resource: 'agent',
						operation: 'updateAutonomy',
						agentId: h.byId(agent.id),
						...params,
					});
				const [withOverride] = h.expectSuccess(
					await update({
						defaultMode: 'manual',
						autoAfterApprovalsCount: 4,
						actionOverrides: override('send_invoice', 'auto_after_approvals'),
					}),
				);
				assert.deepEqual(
					{
						defaultMode: withOverride.defaultMode,
						count: withOverride.autoAfterApprovalsCount,
						overrides: withOverride.actionOverrides,
					},
					{
						defaultMode: 'manual',
						count: 4,
						overrides: { send_invoice: { mode: 'auto_after_approvals' } },
					},
				);
				const [zero] = h.expectSuccess(
					await update({ defaultMode: 'auto_after_approvals', autoAfterApprovalsCount: 0 }),
				);
				assert.equal(zero.autoAfterApprovalsCount, 0);
				const [cleared] = h.expectSuccess(await update({ clearActionOverrides: true }));
				assert.deepEqual(cleared.actionOverrides, {});
				return `${agent.name}: manual + override with count 4, count 0, overrides cleared`;
			},
		},
		{
			name: 'strict sandbox: an approvals count of 0 is refused by the API, and the node shows its message',
			async run(ctx) {
				ctx.requireOperation('agent', 'updateAutonomy');
				const agent = (await h.sandboxGet(ctx, '/agents?status=active&pageSize=1'))[0];
				ctx.sandbox.control.setReadings({ strict: true });
				try {
					const r = await h.runOperation(ctx, {
						resource: 'agent',
						operation: 'updateAutonomy',
						agentId: h.byId(agent.id),
						defaultMode: 'auto_after_approvals',
						autoAfterApprovalsCount: 0,
					});
					return h.refusal(r, /400|invalid_request/i, /autoAfterApprovalsCount/);
				} finally {
					ctx.sandbox.control.setReadings({ strict: false });
				}
			},
		},
	],
};
