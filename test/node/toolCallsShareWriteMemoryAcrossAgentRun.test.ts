/**
 * Tool mode (an AI Agent calling the node in process, n8n-core 2.41 `makeHandleToolInvocation`):
 * every tool call of the agent's run gets a context over the *agent's* execute data, one object for
 * all calls of all its tools (each call has its own run index). The write memory is keyed by that
 * object alone, so a later call that repeats an earlier call's request is "answered from memory"
 * and never sent: Pause → Resume → Pause leaves the agent running while the model is told it paused.
 * These are separate calls the model made, not a retry (README: "does not send a write again that
 * the API already accepted in an earlier try of the same node run").
 */
import nock from 'nock';
import { SupplyDataContext } from 'n8n-core';
import type { IExecuteData, INode, ITaskDataConnections } from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes } from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { byId, createTestNode, loadNodeType, runRoutingNode } from '../harness/engine';
import { API } from '../harness/actionNode';

const nodeType = loadNodeType(new BusinessOps());

test('Agent calls Pause, Resume, Pause on one agent: all three are sent', async () => {
	const sent: string[] = [];
	let state = 'active';
	nock(API)
		.persist()
		.post(/\/v1\/agents\/agt_1\/(pause|resume)/)
		.reply((uri) => {
			const action = uri.split('/').pop()!;
			sent.push(action);
			state = action === 'pause' ? 'paused' : 'active';
			return [200, { data: { id: 'agt_1', status: state } }];
		});
	// the agent's run: one execute data for every tool call it makes
	const agent: INode = {
		id: 'agent',
		name: 'AI Agent',
		type: '@n8n/n8n-nodes-langchain.agent',
		typeVersion: 2,
		position: [0, 0],
		parameters: {},
	};
	const agentExecuteData: IExecuteData = {
		node: agent,
		data: { main: [[{ json: { chatInput: 'pause, resume, pause agt_1' } }]] },
		source: null,
	};
	const runExecutionData = createRunExecutionData();
	const tools = {
		pause: createTestNode(
			nodeType,
			{ resource: 'agent', operation: 'pause', agentId: byId('agt_1') },
			{ asTool: true, nodeName: 'Pause agent' },
		),
		resume: createTestNode(
			nodeType,
			{ resource: 'agent', operation: 'resume', agentId: byId('agt_1') },
			{ asTool: true, nodeName: 'Resume agent' },
		),
	};
	const runIndex = { pause: 0, resume: 0 };
	const call = async (which: 'pause' | 'resume') => {
		const { node, workflow, additionalData } = tools[which];
		const inputData: ITaskDataConnections = { [NodeConnectionTypes.AiTool]: [[{ json: {} }]] };
		const context = new SupplyDataContext(
			workflow,
			node,
			additionalData,
			'trigger',
			runExecutionData,
			runIndex[which]++,
			[],
			inputData,
			NodeConnectionTypes.AiTool,
			agentExecuteData,
			[],
			undefined,
			agent,
		);
		// what n8n's execute shim of a declarative node does
		return (await runRoutingNode(context as never, nodeType))?.[0] ?? [];
	};
	await call('pause');
	await call('resume');
	const last = await call('pause');
	expect(sent).toEqual(['pause', 'resume', 'pause']);
	expect(state).toBe('paused');
	expect(last[0]?.json.status).toBe('paused');
});
