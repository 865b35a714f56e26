/**
 * Item order is not applied to the node as an AI agent's tool: a failed call is worded for the model
 * alone, never with Stop Workflow's account of the run (what it wrote, what a new run does).
 */
import nock from 'nock';
import { SupplyDataContext } from 'n8n-core';
import type { IExecuteData, INode, ITaskDataConnections } from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes } from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { byId, createTestNode, loadNodeType, runRoutingNode } from '../harness/engine';

const nodeType = loadNodeType(new BusinessOps());

test('a tool call whose write the API refuses gets no Stop Workflow wording, after a call that wrote', async () => {
	nock('https://api.business-ops.test')
		.post('/v1/agents/agt_1/pause')
		.reply(200, { data: { id: 'agt_1', status: 'paused' } })
		.post('/v1/agents/agt_1/pause')
		.reply(422, { error: { code: 'invalid_state', message: 'The agent is already paused' } });
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
		data: { main: [[{ json: {} }]] },
		source: null,
	};
	const runExecutionData = createRunExecutionData();
	const { node, workflow, additionalData } = createTestNode(
		nodeType,
		{ resource: 'agent', operation: 'pause', agentId: byId('agt_1') },
		{ asTool: true, nodeName: 'Pause agent' },
	);
	let runIndex = 0;
	const call = async () => {
		const inputData: ITaskDataConnections = { [NodeConnectionTypes.AiTool]: [[{ json: {} }]] };
		const context = new SupplyDataContext(
			workflow,
			node,
			additionalData,
			'trigger',
			runExecutionData,
			runIndex++,
			[],
			inputData,
			NodeConnectionTypes.AiTool,
			agentExecuteData,
			[],
			undefined,
			agent,
		);
		return await runRoutingNode(context as never, nodeType);
	};
	await call();
	const error = (await call().catch((e: unknown) => e)) as Error & { description?: string };
	expect(error).toBeInstanceOf(Error);
	expect(error.message).toMatch(/already paused/);
	expect(`${error.message} ${error.description ?? ''}`).not.toMatch(
		/Stop Workflow|Already written by this run|run the workflow again/,
	);
});
