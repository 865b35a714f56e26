// Writes in real n8n (issue #13): On Error "Stop Workflow" sends no write after a failed item,
// "Continue" tries every item; a credential paced to the API's limit is not refused (refused
// requests counted by the API or not); two executions at once on one key (in queue mode with
// QUEUE_WORKERS=2: on two workers) lose no item. (The Deprecation notice is in engine.js.)
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

const NODE = 'Business Ops';

/** Manual Trigger → Code (the given items) → Business Ops Create Contact from each item. */
function createContactsWorkflow(name, rows, cred, { onError } = {}) {
	return h.itemsWorkflow(name, rows, h.CREATE_CONTACT, cred, onError ? { onError } : {});
}

async function run(ctx, wf) {
	return runSaved(ctx, await ctx.client.createWorkflow(wf));
}

async function runSaved(ctx, created) {
	const execution = await ctx.client.runManually(created.id, { timeoutMs: 180_000 });
	const items = h.nodeItems(execution, created.nodes.find((n) => n.name === NODE).parameters);
	return { execution, status: execution.status, items, error: h.nodeError(execution, NODE) };
}

/** Contacts in the sandbox whose name starts with `prefix` (admin key, not through n8n). */
async function contactsNamed(ctx, prefix) {
	const headers = { authorization: `Bearer ${ctx.sandbox.keys.admin}` };
	const names = [];
	for (let page = 1; page <= 200; page++) {
		const res = await fetch(`${ctx.sandbox.baseUrl}/contacts?pageSize=100&page=${page}`, {
			headers,
		});
		const body = await res.json();
		names.push(...body.data.map((c) => c.name).filter((n) => n.startsWith(prefix)));
		if (!body.meta.hasMore) break;
	}
	return names.sort();
}

/** The 4 items of the issue: ok, duplicate e-mail (409), invalid e-mail, ok. */
async function fourItems(ctx, prefix) {
	const taken = `taken-${Date.now()}@example.com`;
	const res = await fetch(`${ctx.sandbox.baseUrl}/contacts`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${ctx.sandbox.keys.admin}`,
			'content-type': 'application/json',
		},
		body: JSON.stringify({ name: `${prefix} existing`, email: taken }),
	});
	assert.equal(res.status, 201);
	return [
		{ name: `${prefix} 0`, email: `${prefix}-0@example.com` },
		{ name: `${prefix} 1`, email: taken },
		{ name: `${prefix} 2`, email: 'not-an-email' },
		{ name: `${prefix} 3`, email: `${prefix}-3@example.com` },
	];
}

/** `count` new contacts: names `${prefix} ${part}${i}`, e-mails alike. */
function contactRows(prefix, count, part = '') {
	return Array.from({ length: count }, (_, i) => ({
		name: `${prefix} ${part}${i}`,
		email: `${prefix}-${part}${i}@example.com`,
	}));
}

/** Runs Contact → Create over the four items (`options`: the node's settings, as On Error). */
async function runFourItems(ctx, prefix, options) {
	const items = await fourItems(ctx, prefix);
	return run(ctx, createContactsWorkflow(`e2e ${prefix}`, items, ctx.credentials.admin, options));
}

const TIGHT = { limit: 10, windowMs: 2000 };

/**
 * A name prefix `e2e-<what>-<time>` for a step's contacts and a credential of a new key (nothing
 * else uses it) paced to TIGHT: its own rate budget, whose minute the harness scales down to the
 * window (scripts/n8n/budgetWindows.js).
 */
async function pacedCredential(ctx, what) {
	const prefix = `e2e-${what}-${Date.now()}`;
	const requestsPerMinute = TIGHT.limit;
	const rateWindowSeconds = TIGHT.windowMs / 1000;
	const key = ctx.sandbox.control.createKey({ scopes: ['contacts.*'], name: prefix });
	// The sandbox runs scrypt on a key's first use; do that before the measured run.
	await fetch(`${ctx.sandbox.baseUrl}/contacts?pageSize=1`, {
		headers: { authorization: `Bearer ${key.key}` },
	});
	// ...and let that request leave the API's window, which the node's budget knows nothing of.
	await h.sleep(rateWindowSeconds * 1000 + 100);
	h.rt.useBudgetWindow(key.key, rateWindowSeconds * 1000);
	const data = { ...h.rt.credentialData(ctx.sandbox, key.key), requestsPerMinute };
	const c = await ctx.client.rest('POST', '/credentials', {
		name: prefix,
		type: h.rt.CREDENTIAL_TYPE,
		data,
	});
	return { prefix, cred: { id: c.id, name: c.name } };
}

/**
 * Runs `fn` while the sandbox allows 10 requests per 2 s and counts refused requests; returns what
 * `fn` returned plus the POST /contacts answers in that time. The limit is lifted before returning.
 */
async function underTightLimit(ctx, fn) {
	const control = ctx.sandbox.control;
	const previous = control.rateLimit();
	control.clearRequestLog();
	control.setRateLimit(TIGHT);
	control.setCountRefused(true);
	try {
		const value = await fn();
		const posts = control
			.requestLog()
			.filter((e) => e.method === 'POST' && /\/contacts$/.test(e.path));
		return { value, posts: posts.length, refused: posts.filter((e) => e.status === 429).length };
	} finally {
		control.setRateLimit(previous);
		control.setCountRefused(false);
	}
}

module.exports = {
	area: 'writes',
	steps: [
		{
			name: 'Stop Workflow: 4 items (ok, duplicate 409, invalid e-mail, ok) create only item 0; the error names the items not sent',
			async run(ctx) {
				ctx.requireOperation('contact', 'create');
				const prefix = `e2e-stop-${Date.now()}`;
				const r = await runFourItems(ctx, prefix);
				const e = h.expectFailure(
					r,
					/HTTP 409 duplicate_resource/,
					/\[item 1\]/,
					/Items 2, 3 were not sent/,
				);
				assert.deepEqual(await contactsNamed(ctx, `${prefix} `), [
					`${prefix} 0`,
					`${prefix} existing`,
				]);
				return `"${e.message}"`;
			},
		},
		{
			name: 'Continue (regular output): items 0 and 3 created, items 1 and 2 carry their errors',
			async run(ctx) {
				ctx.requireOperation('contact', 'create');
				const prefix = `e2e-cont-${Date.now()}`;
				const r = await runFourItems(ctx, prefix, { onError: 'continueRegularOutput' });
				const items = h.expectSuccess(r);
				assert.equal(items.length, 4);
				assert.deepEqual(await contactsNamed(ctx, `${prefix} `), [
					`${prefix} 0`,
					`${prefix} 3`,
					`${prefix} existing`,
				]);
				assert.match(JSON.stringify(items[1]), /409|already exists|duplicate/i);
				assert.match(JSON.stringify(items[2]), /not-an-email/);
			},
		},
		{
			name: 'a credential paced to the limit (10 per 2 s; the API counts refusals) creates 30 contacts without one refusal',
			timeoutMs: 120_000,
			async run(ctx) {
				ctx.requireOperation('contact', 'create');
				const { prefix, cred } = await pacedCredential(ctx, 'paced');
				const rows = contactRows(prefix, 30);
				const t0 = Date.now();
				const {
					value: r,
					posts,
					refused,
				} = await underTightLimit(ctx, () =>
					run(ctx, createContactsWorkflow(`e2e ${prefix}`, rows, cred)),
				);
				const seconds = (Date.now() - t0) / 1000;
				h.expectSuccess(r);
				assert.equal(refused, 0, `${refused} of ${posts} requests refused`);
				assert.deepEqual(
					await contactsNamed(ctx, `${prefix} `),
					rows.map((row) => row.name).sort(),
				);
				return `30 created, 0 refused, ${seconds.toFixed(1)} s (at least 4 s at that limit)`;
			},
		},
		{
			name: 'two executions at once on one key (queue mode: on the workers) under 10 per 2 s: no item fails',
			timeoutMs: 240_000,
			async run(ctx) {
				ctx.requireOperation('contact', 'create');
				const { prefix, cred } = await pacedCredential(ctx, 'two');
				const wfs = [0, 1].map((w) =>
					createContactsWorkflow(`e2e ${prefix} ${w}`, contactRows(prefix, 20, `${w}-`), cred),
				);
				// Saved one after another: n8n 1.x's default SQLite driver nests the transactions of two
				// saves at once and fails one ("no such savepoint"); the step is about the two runs.
				const saved = [];
				for (const wf of wfs) saved.push(await ctx.client.createWorkflow(wf));
				const {
					value: results,
					posts,
					refused,
				} = await underTightLimit(ctx, () => Promise.all(saved.map((wf) => runSaved(ctx, wf))));
				results.forEach(h.expectSuccess);
				// each of the 40 names once: none lost, none created twice
				const expected = [0, 1]
					.flatMap((w) => Array.from({ length: 20 }, (_, i) => `${prefix} ${w}-${i}`))
					.sort();
				assert.deepEqual(await contactsNamed(ctx, `${prefix} `), expected);
				const workers = ctx.queue ? ` on ${ctx.queue.workers.length} worker(s)` : ' in one process';
				return `40 created${workers}; ${refused} of ${posts} requests refused (429) and waited out`;
			},
		},
	],
};
