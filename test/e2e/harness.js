// Helpers shared by the e2e step modules: workflow builders, running a node operation in real
// n8n, reading what an execution produced, and small assertions. Plain Node.js.
// `rt.NODE_TYPES` holds the node type names of the installed package (`n8n-nodes-business-ops.…`).
'use strict';

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');

const rt = require('../../scripts/n8n');
const outputSchemas = require('../../scripts/output-schemas');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The option value n8n adds to the resource and operation lists of nodes whose credential it can proxy. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** Create Contact with the name and e-mail of each item. */
const CREATE_CONTACT = {
	resource: 'contact',
	operation: 'create',
	name: '={{ $json.name }}',
	additionalFields: { email: '={{ $json.email }}' },
};

/** A workflow node object as the editor exports it. */
function node(name, type, parameters = {}, extra = {}) {
	return {
		id: crypto.randomUUID(),
		name,
		type,
		typeVersion: 1,
		position: extra.position || [0, 0],
		parameters,
		...extra,
	};
}

/** connections for a straight chain of node names. */
function chain(...names) {
	const connections = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

/** `{ businessOpsApi: { id, name } }` for one of the credentials the runner created. */
function credentialRef(cred) {
	return { [rt.CREDENTIAL_TYPE]: { id: cred.id, name: cred.name } };
}

/**
 * Manual Trigger → Business Ops (one operation). `parameters` are the node's parameters as the
 * editor saves them (resource, operation, …).
 */
function operationWorkflow(name, parameters, cred, { nodeName = 'Business Ops', settings } = {}) {
	return {
		name,
		nodes: [
			node(
				'When clicking ‘Execute workflow’',
				'n8n-nodes-base.manualTrigger',
				{},
				{ position: [0, 0] },
			),
			node(nodeName, rt.NODE_TYPES.action, parameters, {
				position: [220, 0],
				credentials: credentialRef(cred),
			}),
		],
		connections: chain('When clicking ‘Execute workflow’', nodeName),
		settings: settings || { executionOrder: 'v1' },
	};
}

/** Manual Trigger → Items (Code: the given rows) → Business Ops, with node options (retry, onError). */
function itemsWorkflow(name, rows, parameters, cred, nodeOptions = {}, after = []) {
	const trigger = 'When clicking ‘Execute workflow’';
	return {
		name,
		nodes: [
			node(trigger, 'n8n-nodes-base.manualTrigger', {}, { position: [0, 0] }),
			node(
				'Items',
				'n8n-nodes-base.code',
				{ jsCode: `return ${JSON.stringify(rows.map((json) => ({ json })))};` },
				{ typeVersion: 2, position: [220, 0] },
			),
			node('Business Ops', rt.NODE_TYPES.action, parameters, {
				position: [440, 0],
				credentials: credentialRef(cred),
				...nodeOptions,
			}),
			...after,
		],
		connections: chain(trigger, 'Items', 'Business Ops', ...after.map((n) => n.name)),
		settings: { executionOrder: 'v1' },
	};
}

/** Business Ops Trigger (these parameters, a new webhook id) → No Operation. */
function triggerWorkflow(name, cred, parameters) {
	const trigger = 'Business Ops Trigger';
	return {
		name,
		nodes: [
			node(trigger, rt.NODE_TYPES.trigger, parameters, {
				position: [0, 0],
				credentials: credentialRef(cred),
				webhookId: crypto.randomUUID(),
			}),
			node('No Operation', 'n8n-nodes-base.noOp', {}, { position: [220, 0] }),
		],
		connections: chain(trigger, 'No Operation'),
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Runs `operation` of `resource` on the record `id` (its ID field `<resource>Id`) with the
 * operation's other parameters `more`; as runOperation.
 */
function runOnRecord(ctx, resource, operation, id, more = {}, o = {}) {
	return runOperation(ctx, { resource, operation, [`${resource}Id`]: byId(id), ...more }, o);
}

/** Runs the rows through the operation (itemsWorkflow) like the editor's Execute button; as runOperation. */
async function runOnItems(ctx, rows, parameters, o = {}) {
	const cred = ctx.credentials[o.key || 'admin'];
	const wf = await ctx.client.createWorkflow(
		itemsWorkflow(
			`e2e ${parameters.resource} ${parameters.operation} ${Date.now()}`,
			rows,
			parameters,
			cred,
			o.nodeOptions,
		),
	);
	const execution = await ctx.client.runManually(wf.id, { timeoutMs: o.timeoutMs || 180_000 });
	return {
		workflowId: wf.id,
		execution,
		status: execution.status,
		items: nodeItems(execution, parameters),
		error: nodeError(execution, 'Business Ops'),
	};
}

/** Runs Get Many of `resource` with Limit `limit`; as runOperation. */
function runGetMany(ctx, resource, limit, o = {}) {
	return runOperation(ctx, { resource, operation: 'getAll', returnAll: false, limit }, o);
}

/**
 * The step "Get Many with Return All returns all <total> <noun>": seeds the sandbox up to `total`
 * records of `resource` (at least one more), clears its request log, runs Get Many with Return All
 * and checks it answers `total` records, each once; `more(ctx, items)` checks more and answers the
 * step's line.
 */
function returnAllStep(resource, total, noun, more = (ctx, items) => `${items.length} ${noun}`) {
	return {
		name: `Get Many with Return All returns all ${total} ${noun}`,
		async run(ctx) {
			ctx.requireOperation(resource, 'getAll');
			const control = ctx.sandbox.control;
			const existing = control.seed({ resource: `${resource}s`, count: 1 }).total;
			if (existing < total) control.seed({ resource: `${resource}s`, count: total - existing });
			control.clearRequestLog();
			const getAll = { resource, operation: 'getAll', returnAll: true };
			const items = expectSuccess(await runOperation(ctx, getAll));
			assert.equal(items.length, total);
			assert.equal(new Set(items.map((i) => i.id)).size, total, `duplicate ${noun} across pages`);
			return more(ctx, items);
		},
	};
}

/** A resource locator value "By ID" as the editor stores it. */
function byId(id) {
	return { __rl: true, mode: 'id', value: id };
}

/**
 * Creates a Manual Trigger → Business Ops workflow, runs it like the editor's Execute button
 * and returns { workflowId, execution, status, items, error }.
 * @param {object} ctx  the e2e context
 * @param {object} parameters  Business Ops node parameters
 * @param {{ key?: string, name?: string, client?: object, credentials?: object }} [o]  key: which credential
 *   (admin, readOnly, contactsOnly, otherOrg); client/credentials: another instance's (ctx.startInstance)
 */
async function runOperation(ctx, parameters, o = {}) {
	const client = o.client || ctx.client;
	const cred = (o.credentials || ctx.credentials)[o.key || 'admin'];
	const wfName = o.name || `e2e ${parameters.resource} ${parameters.operation} ${Date.now()}`;
	const wf = await client.createWorkflow(operationWorkflow(wfName, parameters, cred));
	const execution = await client.runManually(wf.id, { timeoutMs: o.timeoutMs || 120_000 });
	const items = nodeItems(execution, parameters);
	return {
		workflowId: wf.id,
		execution,
		status: execution.status,
		items,
		error: nodeError(execution, 'Business Ops'),
	};
}

/**
 * Every successful run of an operation checks its items against the output schema n8n serves
 * (nodes/BusinessOps/__schema__, from scripts/output-schemas.js), Simplify off; `ctx.state`-free so
 * every area's runs count. Records which operations ran (`ranOperations`) and which were checked
 * (`checkedSchemas`): the mcp area requires every operation that ran to have been checked. Outputs
 * seen outside an execution (an MCP tool's answer) are checked by calling this with them.
 */
const checkedSchemas = new Set();
const ranOperations = new Set();
function checkOutputSchema(parameters, items) {
	if (parameters.resource === CUSTOM_API_CALL) return;
	const key = `${parameters.resource}.${parameters.operation}`;
	ranOperations.add(key);
	if (parameters.simplify) return;
	const schema = outputSchemas.readSchema(parameters.resource, parameters.operation);
	items.forEach((item, i) => {
		if (typeof item.error === 'string' && item.id === undefined) return; // an item that failed under Continue On Fail
		const problems = outputSchemas.validate(schema, item);
		if (problems.length) {
			throw new Error(
				`output of ${parameters.resource} ${parameters.operation}, item ${i}, does not match its output schema: ${problems.join('; ')}`,
			);
		}
	});
	checkedSchemas.add(key);
}

/** The items the node (with these parameters) returned in an execution; a successful run's are checked against the output schema. */
function nodeItems(execution, parameters, nodeName = 'Business Ops') {
	const items = rt.nodeOutput(execution, nodeName) || [];
	if (execution.status === 'success') checkOutputSchema(parameters, items);
	return items;
}

/** The error a node showed in an execution (what the user sees in the node's output panel). */
function nodeError(execution, nodeName) {
	const run = execution?.data?.resultData?.runData?.[nodeName]?.[0];
	const err = run?.error || execution?.data?.resultData?.error;
	if (!err) return undefined;
	return {
		message: String(err.message || ''),
		description: err.description == null ? '' : String(err.description),
		httpCode: err.httpCode == null ? undefined : String(err.httpCode),
		text: `${err.message || ''} ${err.description || ''}`,
	};
}

/** Fails with the execution's error when it did not succeed. */
function expectSuccess(result) {
	if (result.status !== 'success') {
		const e = result.error;
		throw new Error(
			`execution ${result.execution.id} ended "${result.status}": ${e ? `${e.message} | ${e.description}` : 'no error recorded'}`,
		);
	}
	return result.items;
}

/** Fails unless the execution failed with an error whose text matches every pattern. */
function expectFailure(result, ...patterns) {
	if (result.status === 'success')
		throw new Error(
			`expected the node to fail, but it succeeded with ${result.items.length} item(s)`,
		);
	const e = result.error;
	if (!e)
		throw new Error(
			`execution ${result.execution.id} ended "${result.status}" with no error recorded`,
		);
	for (const p of patterns) {
		if (!p.test(e.text))
			throw new Error(
				`error shown to the user does not match ${p}: "${e.message}" / "${e.description}"`,
			);
	}
	return e;
}

/** expectFailure, answered as the step's line: the error's message in quotes. */
function refusal(result, ...patterns) {
	return `"${expectFailure(result, ...patterns).message}"`;
}

/**
 * POSTs a delivery (`body`, `headers`) to `url`; answers its status and text. Its socket is closed
 * after the answer: a later request sent on a kept-alive socket n8n is closing would get none.
 */
async function post(url, { body, headers }, timeoutMs = 30_000) {
	const sent = new Headers(headers);
	sent.set('connection', 'close');
	const res = await fetch(url, {
		method: 'POST',
		headers: sent,
		body,
		signal: AbortSignal.timeout(timeoutMs),
	});
	return { status: res.status, text: await res.text() };
}

/** GET on the sandbox API with the admin key (test bookkeeping, not through n8n); returns `data`. */
async function sandboxGet(ctx, pathname) {
	const res = await fetch(`${ctx.sandbox.baseUrl}${pathname}`, {
		headers: { authorization: `Bearer ${ctx.sandbox.keys.admin}` },
	});
	const body = await res.json();
	if (!res.ok) throw new Error(`sandbox GET ${pathname} -> ${res.status}: ${JSON.stringify(body)}`);
	return body.data;
}

/** Id of the first record of a list, e.g. sandboxFirstId(ctx, 'contacts'). */
async function sandboxFirstId(ctx, resource, query = '') {
	const list = await sandboxGet(ctx, `/${resource}?pageSize=1${query}`);
	if (!list.length) throw new Error(`the sandbox has no ${resource}${query}`);
	return list[0].id;
}

/** Everything an n8n process (a handle of scripts/n8n/server.js) has logged so far. */
function logText(handle) {
	try {
		return fs.readFileSync(handle.logFile, 'utf8');
	} catch {
		return '';
	}
}

/** Polls `fn` until it returns a truthy value; returns it. */
async function waitFor(fn, { timeoutMs = 20_000, intervalMs = 250, what = 'condition' } = {}) {
	const deadline = Date.now() + timeoutMs;
	let last;
	for (;;) {
		last = await fn();
		if (last) return last;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await sleep(intervalMs);
	}
}

/** A call on the sandbox API with the admin key, not through n8n (what another client does); returns `data`. */
async function sandboxSend(ctx, method, pathname, body) {
	const res = await fetch(`${ctx.sandbox.baseUrl}${pathname}`, {
		method,
		headers: {
			authorization: `Bearer ${ctx.sandbox.keys.admin}`,
			'content-type': 'application/json',
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = res.status === 204 ? {} : await res.json();
	assert.ok(res.ok, `sandbox ${method} ${pathname}: ${res.status} ${JSON.stringify(json)}`);
	return json.data;
}

/** Every record of a sandbox list (all pages), read with the admin key. */
async function sandboxAll(ctx, resource) {
	const all = [];
	for (let page = 1; page <= 1000; page++) {
		const res = await fetch(`${ctx.sandbox.baseUrl}/${resource}?page=${page}&pageSize=100`, {
			headers: { authorization: `Bearer ${ctx.sandbox.keys.admin}` },
		});
		const body = await res.json();
		assert.ok(res.ok, `sandbox GET /${resource}: ${res.status}`);
		all.push(...body.data);
		if (!body.meta?.hasMore) return all;
	}
	throw new Error(`sandbox /${resource}: more than 1000 pages`);
}

module.exports = {
	assert,
	sleep,
	CUSTOM_API_CALL,
	CREATE_CONTACT,
	node,
	chain,
	credentialRef,
	operationWorkflow,
	itemsWorkflow,
	triggerWorkflow,
	byId,
	runOperation,
	runOnItems,
	runOnRecord,
	runGetMany,
	returnAllStep,
	checkOutputSchema,
	checkedSchemas,
	ranOperations,
	nodeItems,
	nodeError,
	expectSuccess,
	expectFailure,
	refusal,
	post,
	waitFor,
	logText,
	sandboxGet,
	sandboxFirstId,
	sandboxSend,
	sandboxAll,
	rt,
};
