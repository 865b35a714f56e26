// Data integrity in real n8n: no copies made by n8n's Retry On Fail and On Error settings, a
// Stop Workflow error that says what was written, a paged read that is whole or fails while
// another client changes the list, Create or Update across a changing list, overlapping
// executions and invisible characters, writes whose answer never came (still in flight, lost after
// the API stored them, a gateway's 5xx page) sent once, and deliveries Auto or Standard Webhooks
// must accept (a large GitHub-style body behind a proxy; Svix header names). Counts come from the
// sandbox.
'use strict';

const crypto = require('node:crypto');

const assert = require('node:assert/strict');
const h = require('./harness');
const hostile = require('../../bench/lib/hostile');

const TRIGGER = 'Business Ops Trigger';
const UPSERT = {
	resource: 'contact',
	operation: 'upsert',
	email: '={{ $json.email }}',
	name: '={{ $json.name }}',
	additionalFields: {},
};
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 100 };

const rows = (prefix, n) =>
	Array.from({ length: n }, (_, i) => ({
		name: `${prefix} ${i}`,
		email: `${prefix}-${i}@example.com`,
	}));

/** How many contacts have each of these addresses (any case). */
async function perAddress(ctx, addresses) {
	const all = await h.sandboxAll(ctx, 'contacts');
	return addresses.map(
		(a) => all.filter((c) => String(c.email).toLowerCase() === a.toLowerCase()).length,
	);
}

/** The API's answers to POST /contacts since the log was cleared (status per request, in order). */
function contactPosts(ctx) {
	return ctx.sandbox.control
		.requestLog()
		.filter((e) => e.method === 'POST' && /\/contacts$/.test(e.path))
		.map((e) => e.status);
}

/** The requests of the sandbox's log (since it was cleared) with this method on paths matching `re`. */
const logged = (ctx, method, re) =>
	ctx.sandbox.control.requestLog().filter((e) => e.method === method && re.test(e.path));

/** Resolves once the sandbox's request log stops growing (writes of a failed try may still be on their way). */
async function quiet(control) {
	let seen = -1;
	await h.waitFor(
		() => {
			const now = control.requestLog().length;
			const still = now === seen;
			seen = now;
			return still;
		},
		{ intervalMs: 1000, timeoutMs: 30_000, what: 'the sandbox to receive no more requests' },
	);
}

/**
 * Runs `fn` with the API reading that lets contacts share an e-mail (so a copy shows as a second
 * contact instead of a 409 the node could recover from) and newest-first lists (so page 1 holds
 * the contacts the step made, which the list-change control may delete); puts everything back.
 */
async function withPermissiveApi(ctx, fn) {
	const control = ctx.sandbox.control;
	const before = control.readings();
	control.setReadings({ duplicateContactEmails: true, listOrder: 'newest' });
	control.clearRequestLog();
	try {
		return await fn(control);
	} finally {
		control.clearFailures();
		control.clearListChanges();
		control.setLatency(0);
		control.setReadings({
			duplicateContactEmails: before.duplicateContactEmails,
			listOrder: before.listOrder,
		});
	}
}

/**
 * Runs `parameters` on `rows` with Retry On Fail (3 tries) and `onError` while the API stores the
 * first `method` to `path` and closes its connection without an answer; once the sandbox is quiet,
 * `check(result, answers)`: answers are the statuses of those requests (null: none).
 */
function lostWriteCase(ctx, { method, path, rows, parameters, onError }, check) {
	return withPermissiveApi(ctx, async (control) => {
		control.failNext({ mode: 'drop-after-write', method, path });
		const r = await h.runOnItems(ctx, rows, parameters, {
			nodeOptions: { ...RETRY, ...(onError ? { onError } : {}) },
		});
		await quiet(control);
		const re = new RegExp(`${path.replace('*', '[^/]+')}$`);
		return check(
			r,
			logged(ctx, method, re).map((e) => e.status),
		);
	});
}

/**
 * Seeds 250 contacts and runs Get Many, Return All while the API deletes a contact of page 1 once
 * page 1 is answered (on every read: `every`); `check(result, control)`.
 */
function readWhileChanging(ctx, every, check) {
	return withPermissiveApi(ctx, async (control) => {
		control.seed({ resource: 'contacts', count: 250 });
		control.changeDuringList({ resource: 'contacts', ...(every ? { every } : {}) });
		const getAll = { resource: 'contact', operation: 'getAll', returnAll: true };
		return check(await h.runOperation(ctx, getAll), control);
	});
}

/** A Retry On Fail run of 3 creates where the API answers one POST with 503 once. */
async function retryCase(ctx, { onError, failedItem }) {
	ctx.requireOperation('contact', 'create');
	const prefix = `e2e-retry-${onError || 'stop'}-${Date.now()}`;
	const items = rows(prefix, 3);
	return withPermissiveApi(ctx, async (control) => {
		// by its e-mail: under Continue the items' POSTs leave at once, in no set order
		control.failNext({
			bodyContains: items[failedItem].email,
			status: 503,
			method: 'POST',
			path: '/contacts',
		});
		const r = await h.runOnItems(ctx, items, h.CREATE_CONTACT, {
			nodeOptions: { ...RETRY, ...(onError ? { onError } : {}) },
		});
		const posts = contactPosts(ctx);
		assert.equal(r.status, 'success', `execution ended "${r.status}": ${r.error && r.error.text}`);
		const outputs = r.items.map((i) => i.id || i.error).join(', ');
		assert.deepEqual(
			await perAddress(
				ctx,
				items.map((i) => i.email),
			),
			[1, 1, 1],
			`contacts per address (POSTs answered ${posts.join(', ')}; output ${outputs})`,
		);
		assert.deepEqual(
			[...posts].sort(),
			[201, 201, 201, 503],
			`POST /contacts answers: ${posts.join(', ')}`,
		);
		return `3 contacts, one per address; POSTs answered ${posts.join(', ')}`;
	});
}

/**
 * Retry On Fail (3 tries), `onError`: 3 creates, the 2nd POST stored by the API and its answer lost
 * (`lose`: a fail-next after-write rule). One contact per address; the execution succeeds.
 */
async function lostCreateCase(ctx, lose, onError, parameters = h.CREATE_CONTACT) {
	ctx.requireOperation('contact', 'create');
	const prefix = `e2e-lost-${lose.mode}-${Date.now()}`;
	const items = rows(prefix, 3);
	// n8n re-runs a node under Continue only when its first output item is an error
	const lost = onError ? 0 : 1;
	return withPermissiveApi(ctx, async (control) => {
		// by its e-mail: under Continue the items' POSTs leave at once, in no set order
		control.failNext({
			...lose,
			bodyContains: items[lost].email,
			method: 'POST',
			path: '/contacts',
		});
		const r = await h.runOnItems(ctx, items, parameters, {
			nodeOptions: { ...RETRY, ...(onError ? { onError } : {}) },
		});
		await quiet(control);
		const posts = contactPosts(ctx);
		const reads = logged(ctx, 'GET', /\/contacts$/).length;
		const made = await perAddress(
			ctx,
			items.map((i) => i.email),
		);
		const outputs = r.items.map((i) => i.id || i.error).join(', ');
		assert.deepEqual(
			made,
			[1, 1, 1],
			`contacts per address (POSTs answered ${posts.join(', ')}; output ${outputs})`,
		);
		assert.equal(r.status, 'success', `execution ended "${r.status}": ${r.error && r.error.text}`);
		assert.equal(posts.length, 3, `POST /contacts sent ${posts.length} times: ${posts.join(', ')}`);
		const stored = (await h.sandboxAll(ctx, 'contacts')).find((c) => c.email === items[lost].email);
		assert.deepEqual(
			r.items.map((i) => i.email),
			items.map((i) => i.email),
			`one output item per input, in order (output ${outputs})`,
		);
		assert.equal(
			r.items[lost].id,
			stored.id,
			`item ${lost}'s output is not the contact the API stored`,
		);
		// n8n spaces the building of items, not their sending: the gaps are shown, not checked (a
		// machine under load sends a built item late, so a threshold would test the machine)
		const times = logged(ctx, 'POST', /\/contacts$/).map((e) => Date.parse(e.time));
		const gaps = times.slice(1).map((t, i) => `${t - times[i]} ms`);
		return `3 contacts; POSTs answered ${posts.map(String).join(', ')}, ${gaps.join(' and ')} apart; ${reads} list read(s) of /contacts`;
	});
}

/**
 * Retry On Fail (3 tries), `onError`: one Quote → Create, the API stores it and the connection
 * closes without an answer. One quote; the item fails saying the quote may have been created.
 */
async function lostQuoteCase(ctx, onError) {
	ctx.requireOperation('quote', 'create');
	const line = `e2e lost quote ${onError || 'stop'} ${Date.now()}`;
	const contactId = (await h.sandboxGet(ctx, '/contacts?pageSize=1'))[0].id;
	const parameters = {
		resource: 'quote',
		operation: 'create',
		contactId: h.byId(contactId),
		itemsInput: 'form',
		items: {
			item: [{ name: '={{ $json.line }}', quantity: 1, unitPrice: 100, vatPercentage: 21 }],
		},
	};
	const lost = { method: 'POST', path: '/quotes', rows: [{ line }], parameters, onError };
	return lostWriteCase(ctx, lost, async (r, posts) => {
		const quotes = (await h.sandboxAll(ctx, 'quotes')).filter((q) =>
			(q.items || []).some((i) => i.name === line),
		);
		assert.equal(quotes.length, 1, `${quotes.length} quotes with the line "${line}"`);
		assert.deepEqual(posts, [null], `POST /quotes answers: ${posts.join(', ')}`);
		let words;
		if (onError) {
			const items = h.expectSuccess(r);
			assert.equal(items.length, 1, `${items.length} output items`);
			words = String(items[0].error || '');
			assert.equal(items[0].id, undefined, 'the item answers a quote it cannot have read');
		} else {
			words = h.expectFailure(r).text;
		}
		assert.match(words, /may have been created/i);
		assert.match(words, /quote/i);
		return `1 quote (${quotes[0].id}), 1 POST; "${words}"`;
	});
}

/** Manual Trigger → Code (1 item) → Create or Update, saved once. */
function upsertWorkflow(ctx, name, email) {
	return {
		name,
		nodes: [
			h.node(
				'When clicking ‘Execute workflow’',
				'n8n-nodes-base.manualTrigger',
				{},
				{ position: [0, 0] },
			),
			h.node(
				'Items',
				'n8n-nodes-base.code',
				{ jsCode: `return [{ json: ${JSON.stringify({ email, name: 'Overlap' })} }];` },
				{ typeVersion: 2, position: [220, 0] },
			),
			h.node('Business Ops', h.rt.NODE_TYPES.action, UPSERT, {
				position: [440, 0],
				credentials: h.credentialRef(ctx.credentials.admin),
			}),
		],
		connections: h.chain('When clicking ‘Execute workflow’', 'Items', 'Business Ops'),
		settings: { executionOrder: 'v1' },
	};
}

/** Publishes a trigger workflow with these options; answers its subscription, URL and secret (opened from the sealed record). */
async function publishedTrigger(ctx, name, options) {
	const webhookId = crypto.randomUUID();
	// a key of its own: the steps before may have used the admin key's rate budget up, and publishing
	// fails rather than wait (which `node scripts/e2e.js writes integrity` showed on 1.123)
	const key = ctx.sandbox.control.createKey({ scopes: ['*'], organization: 'primary', name });
	const credential = await ctx.client.createCredential({
		name,
		type: h.rt.CREDENTIAL_TYPE,
		data: h.rt.credentialData(ctx.sandbox, key.key),
	});
	const wf = await ctx.client.createWorkflow({
		name,
		nodes: [
			h.node(
				TRIGGER,
				h.rt.NODE_TYPES.trigger,
				{ events: ['invoice.paid'], options },
				{ position: [0, 0], credentials: h.credentialRef(credential), webhookId },
			),
			h.node('No Operation', 'n8n-nodes-base.noOp', {}, { position: [220, 0] }),
		],
		connections: h.chain(TRIGGER, 'No Operation'),
		settings: { executionOrder: 'v1' },
	});
	await ctx.client.publishWorkflow(wf.id);
	const base = ctx.webhookBaseUrl || ctx.n8n.baseUrl;
	const sub = await h.waitFor(
		() =>
			ctx.sandbox.control
				.webhooks()
				.find((w) => w.url.includes(webhookId) && w.url.startsWith(`${base}/webhook/`)),
		{
			timeoutMs: 30_000,
			what: 'the subscription of the published workflow',
		},
	);
	const record = await h.waitFor(
		async () => {
			const stored = await hostile.storedRecord(ctx.client, wf.id, TRIGGER);
			return stored && stored.id === sub.id ? stored : undefined;
		},
		{ timeoutMs: 30_000, what: 'the stored subscription record' },
	);
	return {
		workflowId: wf.id,
		url: sub.url,
		secret: hostile.openRecordSecret(record, key.key, ctx.pkg.root),
	};
}

/** POSTs a delivery until the production webhook is registered (not 404); answers the status. */
async function deliver(url, headers, body) {
	return h.waitFor(
		async () => {
			const answer = await h.post(url, { headers, body });
			return answer.status === 404 ? undefined : answer;
		},
		{ timeoutMs: 30_000, what: 'the production webhook to answer' },
	);
}

async function unpublish(ctx, workflowId) {
	await ctx.client.unpublishWorkflow(workflowId).catch(() => undefined);
}

module.exports = {
	area: 'integrity',
	steps: [
		{
			name: "Retry On Fail (3 tries), Stop Workflow, 503 once on the 2nd item's POST: exactly 3 contacts, one per address; the execution succeeds",
			run: (ctx) => retryCase(ctx, { failedItem: 1 }),
		},
		{
			name: "Retry On Fail, Continue (regular output), 503 once on the 1st item's POST: 3 contacts, items 2 and 3 not POSTed twice",
			run: (ctx) => retryCase(ctx, { onError: 'continueRegularOutput', failedItem: 0 }),
		},
		{
			name: "Retry On Fail, Continue (using error output), 503 once on the 1st item's POST: 3 contacts, items 2 and 3 not POSTed twice",
			run: (ctx) => retryCase(ctx, { onError: 'continueErrorOutput', failedItem: 0 }),
		},
		{
			name: 'Stop Workflow, 3 creates, the API refuses item 1 with 422: the error names item 1, item 2 not sent, the contact written for item 0 (its id) and what running again does; 1 contact',
			async run(ctx) {
				ctx.requireOperation('contact', 'create');
				const prefix = `e2e-stop422-${Date.now()}`;
				const items = rows(prefix, 3);
				return withPermissiveApi(ctx, async (control) => {
					control.failNext({
						skip: 1,
						status: 422,
						code: 'invalid_state',
						message: 'Refused by the sandbox',
						method: 'POST',
						path: '/contacts',
					});
					const r = await h.runOnItems(ctx, items, h.CREATE_CONTACT);
					const written = (await h.sandboxAll(ctx, 'contacts')).filter(
						(c) => c.email === items[0].email,
					);
					assert.equal(written.length, 1, `${written.length} contacts for item 0`);
					assert.deepEqual(await perAddress(ctx, [items[1].email, items[2].email]), [0, 0]);
					assert.deepEqual(contactPosts(ctx), [201, 422]);
					const e = h.expectFailure(
						r,
						/422/,
						/\[item 1\]/,
						/\bItems? 2\b[^.]*not sent/i,
						new RegExp(written[0].id),
						/again/i,
					);
					return `"${e.message}" | "${e.description}"`;
				});
			},
		},
		{
			name: "Retry On Fail, Stop Workflow, 10 creates answered 150 ms late, item 7's Name reading a node that did not run: items 0 to 6 created once each, 7 to 9 not at all; the execution fails",
			timeoutMs: 180_000,
			async run(ctx) {
				ctx.requireOperation('contact', 'create');
				const prefix = `e2e-inflight-${Date.now()}`;
				const items = rows(prefix, 10).map((row, i) => (i === 7 ? { ...row, fail: true } : row));
				const parameters = {
					...h.CREATE_CONTACT,
					name: "={{ $json.fail ? $('Later').item.json.name : $json.name }}",
				};
				const later = h.node('Later', 'n8n-nodes-base.noOp', {}, { position: [660, 0] });
				const wf = await ctx.client.createWorkflow(
					h.itemsWorkflow(
						`e2e in flight ${prefix}`,
						items,
						parameters,
						ctx.credentials.admin,
						RETRY,
						[later],
					),
				);
				return withPermissiveApi(ctx, async (control) => {
					control.setLatency(150);
					const execution = await ctx.client.runManually(wf.id, { timeoutMs: 120_000 });
					await quiet(control);
					const r = {
						execution,
						status: execution.status,
						items: h.nodeItems(execution, parameters),
						error: h.nodeError(execution, 'Business Ops'),
					};
					const posts = contactPosts(ctx);
					const made = await perAddress(
						ctx,
						items.map((i) => i.email),
					);
					assert.deepEqual(
						made,
						[1, 1, 1, 1, 1, 1, 1, 0, 0, 0],
						`contacts per address, items 0 to 9 (${posts.length} POSTs)`,
					);
					const e = h.expectFailure(r, /expression|Later/i);
					return `${posts.length} POSTs, one contact for each of items 0 to 6; "${e.message}"`;
				});
			},
		},
		{
			name: "Retry On Fail, Stop Workflow, 3 creates, the 2nd POST stored and its connection closed without an answer: 3 POSTs, one contact per address, item 1's output the stored contact; the execution succeeds",
			timeoutMs: 180_000,
			run: (ctx) => lostCreateCase(ctx, { mode: 'drop-after-write' }),
		},
		{
			name: "Retry On Fail, Continue (regular output), 3 creates, the 1st POST stored and a gateway's 504 page answered instead (n8n re-runs when the first item is an error): 3 POSTs, one contact per address; the execution succeeds",
			timeoutMs: 180_000,
			run: (ctx) =>
				lostCreateCase(
					ctx,
					{ mode: 'gateway-after-write', status: 504, gatewayBody: 'html' },
					'continueRegularOutput',
				),
		},
		{
			name: 'Batching (1 item per batch, 300 ms apart), Retry On Fail, Stop Workflow, 3 creates, the 2nd POST stored and its connection closed: 3 POSTs, one contact per address; the execution succeeds',
			timeoutMs: 180_000,
			run: (ctx) =>
				lostCreateCase(ctx, { mode: 'drop-after-write' }, undefined, {
					...h.CREATE_CONTACT,
					requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 300 } } },
				}),
		},
		{
			name: 'Retry On Fail, Stop Workflow, Quote → Create stored and its connection closed without an answer: 1 POST, 1 quote; the execution fails saying the quote may have been created',
			timeoutMs: 180_000,
			run: (ctx) => lostQuoteCase(ctx),
		},
		{
			name: "Retry On Fail, Continue (regular output), Quote → Create stored and its connection closed: 1 POST, 1 quote; the item's error says the quote may have been created",
			timeoutMs: 180_000,
			run: (ctx) => lostQuoteCase(ctx, 'continueRegularOutput'),
		},
		{
			name: 'Retry On Fail, Stop Workflow, Contact → Update stored and its connection closed without an answer: 1 PATCH, the change answered from a read of the contact; the execution succeeds',
			timeoutMs: 180_000,
			async run(ctx) {
				ctx.requireOperation('contact', 'update');
				const phone = `+31 20 ${String(Date.now()).slice(-7)}`;
				const contact = await h.sandboxSend(ctx, 'POST', '/contacts', {
					name: 'Bijwerken',
					email: `e2e-lost-update-${Date.now()}@example.com`,
				});
				const parameters = {
					resource: 'contact',
					operation: 'update',
					contactId: h.byId(contact.id),
					updateFields: { phone: '={{ $json.phone }}' },
				};
				const lost = { method: 'PATCH', path: '/contacts/*', rows: [{ phone }], parameters };
				return lostWriteCase(ctx, lost, async (r, patches) => {
					const reads = logged(ctx, 'GET', new RegExp(`/contacts/${contact.id}$`)).length;
					const items = h.expectSuccess(r);
					assert.deepEqual(patches, [null], `PATCH /contacts/{id} answers: ${patches.join(', ')}`);
					assert.equal((await h.sandboxGet(ctx, `/contacts/${contact.id}`)).phone, phone);
					assert.deepEqual(
						items.map((i) => [i.id, i.phone]),
						[[contact.id, phone]],
					);
					return `1 PATCH (no answer), ${reads} read(s) of the contact; output ${items[0].id} with the new phone`;
				});
			},
		},
		{
			name: 'Get Many, Return All, 250+ contacts; one of page 1 deleted after page 1 is answered: the output is exactly the live contacts',
			timeoutMs: 180_000,
			async run(ctx) {
				ctx.requireOperation('contact', 'getAll');
				return readWhileChanging(ctx, false, async (r, control) => {
					const reads = control
						.requestLog()
						.filter((e) => e.method === 'GET' && /\/contacts$/.test(e.path)).length;
					assert.equal(control.listChanges().length, 0, 'the list-change rule did not fire');
					const items = h.expectSuccess(r);
					const live = (await h.sandboxAll(ctx, 'contacts')).map((c) => c.id).sort();
					const got = items.map((i) => i.id).sort();
					assert.equal(new Set(got).size, got.length, 'a contact twice in the output');
					assert.deepEqual(
						got.filter((id) => !live.includes(id)),
						[],
						'deleted contacts in the output',
					);
					assert.deepEqual(
						live.filter((id) => !got.includes(id)),
						[],
						'live contacts missing from the output',
					);
					return `${items.length} live contacts in ${reads} page reads`;
				});
			},
		},
		{
			name: 'Get Many, Return All, the list changes on every read: the node fails saying the list changed while it was read',
			timeoutMs: 180_000,
			async run(ctx) {
				ctx.requireOperation('contact', 'getAll');
				return readWhileChanging(ctx, true, (r, control) => {
					const applied = control.listChanges()[0].applied;
					const e = h.expectFailure(r, /chang/i);
					return `after ${applied} changed read(s): "${e.message}"`;
				});
			},
		},
		{
			name: 'Create or Update, 150+ contacts, one of page 1 deleted during the read; the item has the e-mail of the contact first on page 2: no POST, that address has one contact',
			timeoutMs: 180_000,
			async run(ctx) {
				ctx.requireOperation('contact', 'upsert');
				return withPermissiveApi(ctx, async (control) => {
					control.seed({ resource: 'contacts', count: 150 });
					const [target] = await h.sandboxSend(ctx, 'GET', '/contacts?page=2&pageSize=100');
					control.clearRequestLog();
					control.changeDuringList({ resource: 'contacts' });
					const r = await h.runOnItems(ctx, [{ email: target.email, name: 'Bijgewerkt' }], UPSERT);
					const log = control.requestLog().filter((e) => /\/contacts(\/|$)/.test(e.path));
					const sizes = [
						...new Set(log.filter((e) => e.method === 'GET').map((e) => e.query.pageSize)),
					];
					assert.deepEqual(
						sizes,
						['100'],
						`the node read pages of ${sizes.join('/')} (the step assumes 100)`,
					);
					assert.equal(control.listChanges().length, 0, 'the list-change rule did not fire');
					const items = h.expectSuccess(r);
					assert.deepEqual(contactPosts(ctx), [], 'POST /contacts sent');
					assert.deepEqual(await perAddress(ctx, [target.email]), [1]);
					assert.deepEqual(
						items.map((i) => [i.action, i.id]),
						[['updated', target.id]],
					);
					return `updated ${target.id}; requests ${log.map((e) => e.method).join(', ')}`;
				});
			},
		},
		{
			name: 'two overlapping Create or Update executions for one new address (the API answering 300 ms late): one contact',
			timeoutMs: 180_000,
			async run(ctx) {
				ctx.requireOperation('contact', 'upsert');
				const email = `e2e-overlap-${Date.now()}@example.com`;
				const wf = await ctx.client.createWorkflow(
					upsertWorkflow(ctx, `e2e overlap ${email}`, email),
				);
				return withPermissiveApi(ctx, async (control) => {
					control.setLatency(300);
					const executions = await Promise.all(
						[0, 1].map(() => ctx.client.runManually(wf.id, { timeoutMs: 120_000 })),
					);
					control.setLatency(0);
					const statuses = executions.map((ex) => ex.status);
					const [count] = await perAddress(ctx, [email]);
					const actions = executions
						.map((ex) => (h.rt.nodeOutput(ex, 'Business Ops') || []).map((i) => i.action).join(''))
						.join(', ');
					assert.equal(
						count,
						1,
						`${count} contacts with ${email} (executions ${statuses.join(', ')}; actions ${actions}; POSTs ${contactPosts(ctx).join(', ')})`,
					);
					assert.deepEqual(statuses, ['success', 'success']);
					return `1 contact; actions ${actions}`;
				});
			},
		},
		{
			name: 'Create or Update with U+200E, U+200F or U+00AD in the address: the clean contact is updated, no second contact; a new one is POSTed with the cleaned address',
			async run(ctx) {
				ctx.requireOperation('contact', 'upsert');
				const stamp = Date.now();
				const known = `e2e-clean-${stamp}@example.com`;
				const fresh = `e2e-fresh-${stamp}@example.com`;
				return withPermissiveApi(ctx, async (control) => {
					const existing = (
						await h.sandboxSend(ctx, 'POST', '/contacts', { name: 'Schoon', email: known })
					).id;
					control.clearRequestLog();
					const r = await h.runOnItems(
						ctx,
						[
							{ email: `\u200E${known}`, name: 'LRM' },
							{ email: `e2e-clean-${stamp}\u00AD@example.com\u200F`, name: 'SHY RLM' },
							{ email: `e2e-\u00ADfresh-${stamp}@example.com\u200E`, name: 'Nieuw' },
						],
						UPSERT,
					);
					const items = h.expectSuccess(r);
					assert.deepEqual(
						items.map((i) => i.action),
						['updated', 'updated', 'created'],
					);
					assert.deepEqual(
						items.slice(0, 2).map((i) => i.id),
						[existing, existing],
					);
					assert.deepEqual(await perAddress(ctx, [known, fresh]), [1, 1]);
					assert.equal((await h.sandboxSend(ctx, 'GET', `/contacts/${items[2].id}`)).email, fresh);
					assert.deepEqual(contactPosts(ctx), [201]);
					return `updated ${existing} twice; created ${items[2].id} as ${fresh}`;
				});
			},
		},
		{
			name: "Auto: a GitHub-style delivery (X-Hub-Signature-256) of over 170 KiB with a proxy's X-Proxy-Timestamp, first to a new subscription, is accepted and starts an execution",
			timeoutMs: 120_000,
			async run(ctx) {
				const t = await publishedTrigger(ctx, 'e2e integrity github large', {});
				try {
					const body = largeBody(180 * hostile.KiB);
					const mac = crypto.createHmac('sha256', t.secret).update(body).digest('hex');
					const headers = {
						'content-type': 'application/json',
						'x-hub-signature-256': `sha256=${mac}`,
						'x-github-delivery': crypto.randomUUID(),
						'x-proxy-timestamp': String(Math.floor(Date.now() / 1000)),
					};
					const answer = await deliver(t.url, headers, body);
					assert.equal(answer.status, 200, `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
					await ctx.client.waitForExecutions(t.workflowId, 1, { timeoutMs: 30_000 });
					return `${(body.length / 1024).toFixed(0)} KiB → 200, 1 execution`;
				} finally {
					await unpublish(ctx, t.workflowId);
				}
			},
		},
		{
			name: 'Standard Webhooks scheme: a delivery signed the Standard Webhooks way under svix-id / svix-timestamp / svix-signature is accepted',
			timeoutMs: 120_000,
			async run(ctx) {
				const t = await publishedTrigger(ctx, 'e2e integrity svix', {
					signatureScheme: 'standardWebhooks',
				});
				try {
					const signed = (prefix) => {
						const id = `msg_${crypto.randomBytes(8).toString('hex')}`;
						const ts = Math.floor(Date.now() / 1000);
						const body = largeBody(1024, id);
						const key = Buffer.from(t.secret.replace(/^whsec_/, ''), 'base64');
						const mac = crypto
							.createHmac('sha256', key)
							.update(`${id}.${ts}.`)
							.update(body)
							.digest('base64');
						return {
							body,
							headers: {
								'content-type': 'application/json',
								[`${prefix}-id`]: id,
								[`${prefix}-timestamp`]: String(ts),
								[`${prefix}-signature`]: `v1,${mac}`,
							},
						};
					};
					// the same signing under the standard header names first: this step's signature is right
					const standard = signed('webhook');
					const control = await deliver(t.url, standard.headers, standard.body);
					assert.equal(
						control.status,
						200,
						`webhook-* headers: HTTP ${control.status}: ${control.text.slice(0, 300)}`,
					);
					const svix = signed('svix');
					const answer = await deliver(t.url, svix.headers, svix.body);
					assert.equal(
						answer.status,
						200,
						`svix-* headers: HTTP ${answer.status}: ${answer.text.slice(0, 300)}`,
					);
					await ctx.client.waitForExecutions(t.workflowId, 2, { timeoutMs: 30_000 });
					return 'webhook-* and svix-* headers: 200 each, 2 executions';
				} finally {
					await unpublish(ctx, t.workflowId);
				}
			},
		},
	],
};

/** An invoice.paid event body of about `size` bytes (padding inside `data`). */
function largeBody(size, id = `evt_${crypto.randomBytes(8).toString('hex')}`) {
	const base = {
		id,
		type: 'invoice.paid',
		timestamp: new Date().toISOString(),
		data: { id: `inv_${id}`, status: 'paid', padding: '' },
	};
	base.data.padding = 'x'.repeat(Math.max(0, size - Buffer.byteLength(JSON.stringify(base))));
	return Buffer.from(JSON.stringify(base));
}
