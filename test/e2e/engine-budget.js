// The rate budget under n8n's own engine (issue 18): a cancelled execution gives its place in the
// key's budget back at once, and the legacy and current Base URLs share one budget per key. Each
// step uses a new key whose budget the harness scales to a short window (scripts/n8n/budgetWindows.js).
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

const TRIGGER = 'When clicking ‘Execute workflow’';
const WINDOW_MS = 15_000;

/** A new key (contacts.read) that the sandbox has verified once, and a credential per Base URL given. */
async function keyWithCredentials(ctx, name, baseUrls, requestsPerMinute) {
	const key = ctx.sandbox.control.createKey({ scopes: ['contacts.read'], name });
	// The sandbox runs scrypt on a key's first use; do that before the measured run, and let that
	// request leave the sandbox's window, which the node's budget knows nothing of.
	await fetch(`${ctx.sandbox.baseUrl}/contacts?pageSize=1`, {
		headers: { authorization: `Bearer ${key.key}` },
	});
	h.rt.useBudgetWindow(key.key, WINDOW_MS);
	ctx.sandbox.control.clearRequestLog();
	const credentials = [];
	for (const baseUrl of baseUrls) {
		const c = await ctx.client.rest('POST', '/credentials', {
			name: `${name} ${baseUrl}`,
			type: h.rt.CREDENTIAL_TYPE,
			data: { apiKey: key.key, baseUrl, requestsPerMinute },
		});
		credentials.push({ id: c.id, name: c.name });
	}
	return { key, credentials };
}

/** Manual Trigger → `count` items → Business Ops Get Many (limit 1) once per item. */
function readsWorkflow(name, count, cred) {
	const rows = Array.from({ length: count }, (_, i) => ({ i }));
	const getMany = { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 };
	return h.itemsWorkflow(name, rows, getMany, cred);
}

/** A Business Ops node named `name`: Get Many (limit 1) once, with credential `cred`. */
function readOnce(name, cred, position) {
	return h.node(
		name,
		h.rt.NODE_TYPES.action,
		{ resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 },
		{ position, credentials: h.credentialRef(cred), executeOnce: true },
	);
}

/** Starts a workflow like the editor's Execute button; returns the execution id without waiting. */
async function start(ctx, workflowId) {
	const wf = await ctx.client.rest('GET', `/workflows/${workflowId}`);
	const triggerToStartFrom = { name: TRIGGER };
	const body =
		ctx.client.major < 2 ? { workflowData: wf, triggerToStartFrom } : { triggerToStartFrom };
	const started = await ctx.client.rest('POST', `/workflows/${workflowId}/run`, body);
	assert.ok(started.executionId, `the workflow did not start: ${JSON.stringify(started)}`);
	return started.executionId;
}

const requestsOf = (ctx, key) =>
	ctx.sandbox.control.requestLog().filter((e) => e.keyId === key.id && e.method === 'GET');

module.exports = {
	area: 'engine',
	steps: [
		{
			name: 'a cancelled execution stops waiting for the budget at once; the next execution on the key is not delayed by it',
			timeoutMs: 120_000,
			async run(ctx) {
				ctx.requireOperation('contact', 'getAll');
				const prefix = `e2e-cancel-${Date.now()}`;
				// 2 per window: 2 of the 6 reads go, 4 wait for the window.
				const { key, credentials } = await keyWithCredentials(
					ctx,
					prefix,
					[ctx.sandbox.baseUrl],
					2,
				);
				const a = await ctx.client.createWorkflow(
					readsWorkflow(`e2e ${prefix} a`, 6, credentials[0]),
				);
				const b = await ctx.client.createWorkflow(
					readsWorkflow(`e2e ${prefix} b`, 2, credentials[0]),
				);
				const executionA = await start(ctx, a.id);
				await h.waitFor(() => requestsOf(ctx, key).length >= 2, {
					timeoutMs: 60_000,
					what: 'the first 2 reads of execution A',
				});
				const firstAt = Date.parse(requestsOf(ctx, key)[0].time);
				await h.sleep(500); // the other 4 reads are waiting for the budget now
				await ctx.client.rest('POST', `/executions/${executionA}/stop`);
				const stopped = await ctx.client.waitForExecution(executionA, {
					timeoutMs: WINDOW_MS - 2000,
				});
				assert.notEqual(
					stopped.status,
					'success',
					'execution A finished instead of being cancelled',
				);
				assert.equal(
					requestsOf(ctx, key).length,
					2,
					'execution A sent requests after it was cancelled',
				);
				const executionB = await ctx.client.runManually(b.id, { timeoutMs: 90_000 });
				assert.equal(
					executionB.status,
					'success',
					JSON.stringify(h.nodeError(executionB, 'Business Ops')),
				);
				const sent = requestsOf(ctx, key);
				assert.equal(
					sent.length,
					4,
					`${sent.length} requests with the key: A's cancelled reads were sent after all`,
				);
				// B waits for A's two places only (one window); had A's 4 waiters kept theirs, B would wait two.
				const lastB = Math.max(...sent.slice(2).map((e) => Date.parse(e.time)));
				assert.ok(
					lastB - firstAt < 2 * WINDOW_MS,
					`B's reads went ${lastB - firstAt} ms after A's first: it waited behind the cancelled reads`,
				);
				return `A ${stopped.status} after 2 of 6 reads; B's 2 reads went ${((lastB - firstAt) / 1000).toFixed(1)} s after A's first (window ${WINDOW_MS / 1000} s)`;
			},
		},
		{
			name: 'credentials with the same key on the current (/v1) and legacy (/api/v1) Base URL share one budget',
			timeoutMs: 120_000,
			async run(ctx) {
				ctx.requireOperation('contact', 'getAll');
				const prefix = `e2e-legacy-${Date.now()}`;
				const legacy = ctx.sandbox.baseUrl.replace(/\/v1\/?$/, '/api/v1');
				assert.notEqual(
					legacy,
					ctx.sandbox.baseUrl,
					`the sandbox's Base URL ${ctx.sandbox.baseUrl} does not end in /v1`,
				);
				const { key, credentials } = await keyWithCredentials(
					ctx,
					prefix,
					[ctx.sandbox.baseUrl, legacy],
					1,
				);
				const wf = {
					name: `e2e ${prefix}`,
					nodes: [
						h.node(TRIGGER, 'n8n-nodes-base.manualTrigger', {}, { position: [0, 0] }),
						readOnce('Current', credentials[0], [220, 0]),
						readOnce('Legacy', credentials[1], [440, 0]),
					],
					connections: h.chain(TRIGGER, 'Current', 'Legacy'),
					settings: { executionOrder: 'v1' },
				};
				const created = await ctx.client.createWorkflow(wf);
				const execution = await ctx.client.runManually(created.id, { timeoutMs: 90_000 });
				assert.equal(
					execution.status,
					'success',
					JSON.stringify(h.nodeError(execution, 'Legacy') || h.nodeError(execution, 'Current')),
				);
				const sent = requestsOf(ctx, key);
				assert.deepEqual(
					sent.map((e) => (e.path.startsWith('/api/v1') ? 'legacy' : 'current')),
					['current', 'legacy'],
				);
				const gap = Date.parse(sent[1].time) - Date.parse(sent[0].time);
				// One request per window for the key: the legacy request waited for the current one's window.
				assert.ok(
					gap >= WINDOW_MS - 250,
					`the legacy request went ${gap} ms after the current one: two budgets for one key`,
				);
				return `the legacy Base URL's request waited ${(gap / 1000).toFixed(1)} s for the key's window (${WINDOW_MS / 1000} s, 1 request)`;
			},
		},
	],
};
