/**
 * The item order (nodes/BusinessOps/shared/itemOrder.ts) against every way n8n may hand it items:
 * together, out of order, never, twice (a new try), one by one. The worst case is n8n's own
 * behaviour (items sent as they come), never a wait without end: each test ends.
 */
import type {
	IExecuteData,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
	INodeParameters,
	INodeType,
	ITaskDataConnections,
} from 'n8n-workflow';
import nock from 'nock';
import { SupplyDataContext } from 'n8n-core';
import { createRunExecutionData, NodeConnectionTypes } from 'n8n-workflow';

import { writeInOrder, type WriteRule } from '../../nodes/BusinessOps/shared/itemOrder';
import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { byId, createTestNode, loadNodeType, runRoutingNode } from '../harness/engine';
import { API } from '../harness/actionNode';

const POST: IHttpRequestOptions = { method: 'POST', url: '/contacts' };

/** A write sent by `send` as its rule's own sender (as Create or Update's): in item order under every On Error. */
const sentInOrder = (
	ctx: IExecuteSingleFunctions,
	send: (thisTry: object) => Promise<unknown>,
): Promise<unknown> => {
	const rule: WriteRule = {
		again: 'the same change is made again',
		prove: async () => await Promise.reject(new Error('unused')),
		send: async (_ctx, _options, _item, thisTry) => (await send(thisTry)) as never,
	};
	return writeInOrder(ctx, POST, rule);
};

/** n8n's `helpers.createDeferredPromise`. */
function createDeferredPromise() {
	let resolve!: () => void;
	const promise = new Promise<void>((done) => (resolve = done));
	return { promise, resolve };
}

/** A node run over one execute data; `item(i)` is item i's context. */
function nodeRun(
	onError: 'stopWorkflow' | 'continueRegularOutput' = 'stopWorkflow',
	executeData = {} as IExecuteData,
) {
	const node = {
		name: 'Business Ops',
		type: 'n8n-nodes-business-ops.businessOps',
		onError,
	} as INode;
	return {
		executeData,
		item: (itemIndex: number) =>
			({
				getExecuteData: () => executeData,
				getItemIndex: () => itemIndex,
				continueOnFail: () => onError !== 'stopWorkflow',
				getNode: () => node,
				getNodeParameter: (_name: string, fallback: unknown) => fallback,
				helpers: { createDeferredPromise },
			}) as unknown as IExecuteSingleFunctions,
	};
}

/** Records what was sent, in order, and how many were in flight at once. */
function wire() {
	const seen = { sent: [] as number[], inFlight: 0, most: 0 };
	const send =
		(item: number, fail = false) =>
		async () => {
			seen.sent.push(item);
			seen.most = Math.max(seen.most, ++seen.inFlight);
			await new Promise((resolve) => setTimeout(resolve, 5));
			seen.inFlight--;
			if (fail) throw new Error(`item ${item} failed`);
			return item;
		};
	return { seen, send };
}

const settle = async (promises: Array<Promise<unknown>>) =>
	(await Promise.allSettled(promises)).map((r) =>
		r.status === 'fulfilled' ? r.value : (r.reason as Error).message,
	);

test('Stop Workflow: writes that arrive together go one at a time, in item order', async () => {
	const run = nodeRun();
	const { seen, send } = wire();
	const outcomes = await settle([2, 0, 1].map((i) => sentInOrder(run.item(i), send(i))));
	expect(outcomes).toEqual([2, 0, 1]);
	expect(seen).toEqual({ sent: [0, 1, 2], inFlight: 0, most: 1 });
});

test('Stop Workflow: nothing is sent after a failed item, and the failure names the items not sent', async () => {
	const run = nodeRun();
	const { seen, send } = wire();
	const outcomes = await Promise.allSettled(
		[0, 1, 2, 3].map((i) => sentInOrder(run.item(i), send(i, i === 1))),
	);
	expect(seen.sent).toEqual([0, 1]);
	const [, failed, second, third] = outcomes.map((r) =>
		r.status === 'rejected' ? (r.reason as Error & { description?: string }) : undefined,
	);
	expect(failed?.message).toBe('item 1 failed');
	expect(failed?.description).toMatch(
		/^Items 2, 3 were not sent: with On Error set to "Stop Workflow"/,
	);
	expect([second?.message, third?.message]).toEqual([
		'Not sent because item 1 failed before it [item 2]',
		'Not sent because item 1 failed before it [item 3]',
	]);
	expect(second?.description).toBe(
		'Item 2 was not sent: with On Error set to "Stop Workflow", no later item is sent once one fails.',
	);
});

test('an item that never arrives (n8n did not build it) holds back nothing: the later ones go once the event loop turns', async () => {
	const run = nodeRun();
	const { seen, send } = wire();
	expect(await settle([0, 2, 3].map((i) => sentInOrder(run.item(i), send(i))))).toEqual([0, 2, 3]);
	expect(seen.sent).toEqual([0, 2, 3]);
});

test('an item that arrives a few promise turns after a later one (its steps awaited) is still waited for: the order holds', async () => {
	const run = nodeRun();
	const { seen, send } = wire();
	const first = [0, 2].map((i) => sentInOrder(run.item(i), send(i)));
	for (let turn = 0; turn < 5; turn++) await Promise.resolve();
	const late = sentInOrder(run.item(1), send(1));
	expect(await settle([...first, late])).toEqual([0, 2, 1]);
	expect(seen).toEqual({ sent: [0, 1, 2], inFlight: 0, most: 1 });
});

test('an item that arrives after it was taken for absent is sent as n8n would send it, and nothing waits without end', async () => {
	const run = nodeRun();
	const { seen, send } = wire();
	const early = [0, 2].map((i) => sentInOrder(run.item(i), send(i)));
	await new Promise((resolve) => setTimeout(resolve, 20));
	const late = sentInOrder(run.item(1), send(1));
	expect(await settle([...early, late])).toEqual([0, 2, 1]);
	expect(seen.sent).toEqual([0, 2, 1]);
});

test('an item that arrives a second time starts a new run (Retry On Fail): the failure of the last try stops nothing', async () => {
	const run = nodeRun();
	const first = wire();
	await settle([0, 1].map((i) => sentInOrder(run.item(i), first.send(i, i === 0))));
	expect(first.seen.sent).toEqual([0]);
	const second = wire();
	expect(await settle([0, 1].map((i) => sentInOrder(run.item(i), second.send(i))))).toEqual([0, 1]);
	expect(second.seen.sent).toEqual([0, 1]);
});

test('items handed over one by one (each after the previous ended) are each sent at once', async () => {
	const run = nodeRun();
	const { seen, send } = wire();
	for (const i of [0, 1, 2]) expect(await sentInOrder(run.item(i), send(i))).toBe(i);
	expect(seen).toEqual({ sent: [0, 1, 2], inFlight: 0, most: 1 });
});

test('a write with its own sender is in item order under Continue too, and a failure stops nothing', async () => {
	const ordered = nodeRun('continueRegularOutput');
	const always = wire();
	const outcomes = await settle(
		[2, 1, 0].map((i) => sentInOrder(ordered.item(i), always.send(i, i === 0))),
	);
	expect(always.seen).toEqual({ sent: [0, 1, 2], inFlight: 0, most: 1 });
	expect(outcomes).toEqual([2, 1, 'item 0 failed']);
});

test('the try an ordered operation is given is shared by its items, new at the next try', async () => {
	const run = nodeRun('continueRegularOutput');
	const memos: object[] = [];
	const keep = async (thisTry: object) => memos.push(thisTry);
	await settle([0, 1].map((i) => sentInOrder(run.item(i), keep)));
	await settle([0].map((i) => sentInOrder(run.item(i), keep)));
	expect(memos[0]).toBe(memos[1]);
	expect(memos[2]).not.toBe(memos[0]);
});

/**
 * One AI Agent run calling the node's tools in process (n8n-core 2.41 `makeHandleToolInvocation`):
 * every call gets a SupplyDataContext over the agent's execute data, its own run index per tool.
 */
function agentRun(nodeType: INodeType, chatInput: string) {
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
		data: { main: [[{ json: chatInput ? { chatInput } : {} }]] },
		source: null,
	};
	const runExecutionData = createRunExecutionData();
	const runIndex = new Map<string, number>();
	/** A tool of the agent: the node with these parameters, named `nodeName`. */
	const tool = (parameters: INodeParameters, nodeName: string) => {
		const { node, workflow, additionalData } = createTestNode(nodeType, parameters, {
			asTool: true,
			nodeName,
		});
		/** One call of the tool; what n8n's execute shim of a declarative node returns. */
		return async () => {
			const index = runIndex.get(nodeName) ?? 0;
			runIndex.set(nodeName, index + 1);
			const inputData: ITaskDataConnections = { [NodeConnectionTypes.AiTool]: [[{ json: {} }]] };
			const context = new SupplyDataContext(
				workflow,
				node,
				additionalData,
				'trigger',
				runExecutionData,
				index,
				[],
				inputData,
				NodeConnectionTypes.AiTool,
				agentExecuteData,
				[],
				undefined,
				agent,
			);
			return (await runRoutingNode(context as never, nodeType))?.[0] ?? [];
		};
	};
	return { tool };
}

describe('tool mode', () => {
	/**
	 * Item order is not applied to the node as an AI agent's tool: a failed call is worded for the model
	 * alone, never with Stop Workflow's account of the run (what it wrote, what a new run does).
	 */
	const nodeType = loadNodeType(new BusinessOps());

	test('a tool call whose write the API refuses gets no Stop Workflow wording, after a call that wrote', async () => {
		nock('https://api.business-ops.test')
			.post('/v1/agents/agt_1/pause')
			.reply(200, { data: { id: 'agt_1', status: 'paused' } })
			.post('/v1/agents/agt_1/pause')
			.reply(422, { error: { code: 'invalid_state', message: 'The agent is already paused' } });
		const call = agentRun(nodeType, '').tool(
			{ resource: 'agent', operation: 'pause', agentId: byId('agt_1') },
			'Pause agent',
		);
		await call();
		const error = (await call().catch((e: unknown) => e)) as Error & { description?: string };
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toMatch(/already paused/);
		expect(`${error.message} ${error.description ?? ''}`).not.toMatch(
			/Stop Workflow|Already written by this run|run the workflow again/,
		);
	});
});

describe("regression: tool calls share the write memory across the agent's run", () => {
	/**
	 * Tool mode (an AI Agent calling the node in process, n8n-core 2.41 `makeHandleToolInvocation`):
	 * every tool call of the agent's run gets a context over the *agent's* execute data, one object for
	 * all calls of all its tools (each call has its own run index). The write memory is keyed by that
	 * object alone, so a later call that repeats an earlier call's request is "answered from memory"
	 * and never sent: Pause → Resume → Pause leaves the agent running while the model is told it paused.
	 * These are separate calls the model made, not a retry (README: "does not send a write again that
	 * the API already accepted in an earlier try of the same node run").
	 */
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
		const run = agentRun(nodeType, 'pause, resume, pause agt_1');
		const pause = run.tool(
			{ resource: 'agent', operation: 'pause', agentId: byId('agt_1') },
			'Pause agent',
		);
		const resume = run.tool(
			{ resource: 'agent', operation: 'resume', agentId: byId('agt_1') },
			'Resume agent',
		);
		await pause();
		await resume();
		const last = await pause();
		expect(sent).toEqual(['pause', 'resume', 'pause']);
		expect(state).toBe('paused');
		expect(last[0]?.json.status).toBe('paused');
	});
});
