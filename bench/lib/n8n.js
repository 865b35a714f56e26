// Workflow builders and execution readers for the benchmarks that run in real n8n (the pinned
// runtime of scripts/n8n). Plain CommonJS, standard library only.
'use strict';

const crypto = require('node:crypto');

// The benchmarks load dist/ through N8N_CUSTOM_EXTENSIONS (bench/run.js), where n8n names the nodes CUSTOM.*.
const rt = {
	...require('../../scripts/n8n'),
	NODE_TYPES: require('../../scripts/n8n').CUSTOM_NODE_TYPES,
};
const { sleep } = require('./stats');

const MANUAL = 'Start';

/** A workflow node object as the editor exports it. */
function node(name, type, parameters = {}, extra = {}) {
	return {
		id: crypto.randomUUID(),
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		...extra,
	};
}

/** Connections for a straight chain of node names. */
function chain(...names) {
	const connections = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

/** A workflow: the nodes in a chain, positioned left to right. */
function workflow(name, nodes) {
	nodes.forEach((n, i) => (n.position = [i * 220, 0]));
	return {
		name,
		nodes,
		connections: chain(...nodes.map((n) => n.name)),
		settings: { executionOrder: 'v1' },
	};
}

const manualTrigger = () => node(MANUAL, 'n8n-nodes-base.manualTrigger');

/** `{ businessOpsApi: { id, name } }` for an n8n credential of this package. */
const businessOpsCredential = (cred) => ({
	[rt.CREDENTIAL_TYPE]: { id: cred.id, name: cred.name },
});

/** A Code node that outputs `count` items `{ name: "<prefix> <i>" }`. */
function namesNode(name, prefix, count) {
	return node(
		name,
		'n8n-nodes-base.code',
		{
			jsCode: `return Array.from({ length: ${count} }, (_, i) => ({ json: { name: ${JSON.stringify(prefix)} + ' ' + i } }));`,
		},
		{ typeVersion: 2 },
	);
}

/** Creates an n8n credential of this package for a sandbox key. */
async function createBusinessOpsCredential(client, sandbox, key, name) {
	return client.createCredential({
		name,
		type: rt.CREDENTIAL_TYPE,
		data: rt.credentialData(sandbox, key),
	});
}

/** Creates a Header Auth credential ("Authorization: Bearer <key>") for the HTTP Request node. */
async function createHeaderAuthCredential(client, key, name) {
	return client.createCredential({
		name,
		type: 'httpHeaderAuth',
		data: { name: 'Authorization', value: `Bearer ${key}` },
	});
}

/** Starts a Manual Trigger workflow like the editor's Execute button; returns the execution id. */
async function startManualRun(client, workflowId) {
	const wf = await client.rest('GET', `/workflows/${workflowId}`);
	const trigger = wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`workflow ${workflowId} has no Manual Trigger`);
	const started = await client.rest('POST', `/workflows/${workflowId}/run`, {
		triggerToStartFrom: { name: trigger.name },
	});
	if (!started.executionId)
		throw new Error(`workflow ${workflowId} did not start: ${JSON.stringify(started)}`);
	return started.executionId;
}

/**
 * Runs a Manual Trigger workflow and returns the finished execution with its data.
 *
 * Polling n8n costs n8n CPU time, and n8n runs the node on the same thread, so a poll during the
 * run would slow the very node being measured. This first awaits `quietUntil` (a promise that
 * needs nothing from n8n, e.g. "the sandbox has answered every expected request"), then polls
 * without execution data every `intervalMs`, and reads the data once, after the run.
 */
async function runWorkflow(
	client,
	workflowId,
	{ timeoutMs = 300_000, quietUntil, intervalMs = 100 } = {},
) {
	const executionId = await startManualRun(client, workflowId);
	const deadline = Date.now() + timeoutMs;
	if (quietUntil) await Promise.race([quietUntil(), sleep(timeoutMs)]);
	for (;;) {
		let ex;
		try {
			ex = await client.api('GET', `/executions/${executionId}`, undefined, {
				query: { includeData: false },
			});
		} catch (e) {
			if (e.status !== 404) throw e;
		}
		if (ex && ex.status && !['new', 'running', 'waiting'].includes(ex.status) && ex.stoppedAt)
			break;
		if (Date.now() > deadline)
			throw new Error(
				`execution ${executionId} did not finish in ${timeoutMs / 1000} s (status ${ex?.status})`,
			);
		await sleep(intervalMs);
	}
	return client.api('GET', `/executions/${executionId}`, undefined, {
		query: { includeData: true },
		timeoutMs: 120_000,
	});
}

/** The first run of a node in an execution: { startTime, executionTime, items, error }. */
function nodeRun(execution, nodeName) {
	const run = execution?.data?.resultData?.runData?.[nodeName]?.[0];
	if (!run) return undefined;
	return {
		startTime: run.startTime,
		executionTime: run.executionTime,
		items: (run.data?.main?.[0] || []).map((i) => i.json),
		error: run.error
			? `${run.error.message || ''} ${run.error.description || ''}`.trim()
			: undefined,
	};
}

/** Every try of a node (Retry On Fail re-runs the node inside one run entry; this returns runs). */
function nodeRuns(execution, nodeName) {
	return execution?.data?.resultData?.runData?.[nodeName] || [];
}

/** Polls `fn` until it returns a truthy value; returns it. */
async function waitFor(fn, { timeoutMs = 30_000, intervalMs = 200, what = 'condition' } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await fn();
		if (value) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await sleep(intervalMs);
	}
}

/** All executions of a workflow with data (newest first), following the public API's cursor. */
async function allExecutions(client, workflowId, { includeData = true } = {}) {
	const out = [];
	let cursor;
	for (let page = 0; page < 50; page++) {
		const res = await client.api('GET', '/executions', undefined, {
			query: { workflowId, limit: 250, includeData, cursor },
			timeoutMs: 120_000,
		});
		out.push(...(res.data || []));
		cursor = res.nextCursor;
		if (!cursor) break;
	}
	return out;
}

module.exports = {
	rt,
	MANUAL,
	node,
	chain,
	workflow,
	manualTrigger,
	businessOpsCredential,
	namesNode,
	createBusinessOpsCredential,
	createHeaderAuthCredential,
	startManualRun,
	runWorkflow,
	nodeRun,
	nodeRuns,
	waitFor,
	allExecutions,
};
