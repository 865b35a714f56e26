// The polling trigger in real n8n (issue 30). n8n polls once when it activates a workflow and
// emits what that poll returns, and refuses schedules under a minute: the steps force a poll by
// publishing again (or restarting n8n) and wait for the schedule itself in one step only. Each
// step counts what reached n8n's executions: every change emitted once, nothing else.
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

const POLLER = 'Business Ops Polling Trigger';
const EVENTS = [
	'quote.created',
	'quote.approved',
	'invoice.paid',
	'request.received',
	'contact.created',
];
const WATCHED = ['/v1/quotes', '/v1/invoices', '/v1/requests', '/v1/contacts'];
const line = { name: 'Desembrood', quantity: 2, unitPrice: 5, vatPercentage: 9 };

const EVERY_MINUTE = { mode: 'everyMinute' };
/** A schedule that does not fire while a step runs (a step that counts one poll's requests polls by publishing only). */
const ONCE_A_MONTH = { mode: 'everyMonth', dayOfMonth: 1, hour: 3, minute: 0 };

function pollingWorkflow(name, credential, events = EVENTS, schedule = EVERY_MINUTE) {
	return {
		name,
		nodes: [
			h.node(
				POLLER,
				h.rt.NODE_TYPES.pollingTrigger,
				{ pollTimes: { item: [schedule] }, events },
				{ position: [0, 0], credentials: h.credentialRef(credential) },
			),
			h.node('No Operation', 'n8n-nodes-base.noOp', {}, { position: [220, 0] }),
		],
		connections: h.chain(POLLER, 'No Operation'),
		settings: { executionOrder: 'v1' },
	};
}

/** A call to the sandbox API with the area's own key (the changes a user makes in Business Ops). */
async function api(ctx, method, pathname, body) {
	const res = await fetch(`${ctx.sandbox.baseUrl}${pathname}`, {
		method,
		headers: {
			authorization: `Bearer ${ctx.state.polling.key}`,
			'content-type': 'application/json',
		},
		body: body ? JSON.stringify(body) : undefined,
	});
	const json = await res.json();
	if (!res.ok)
		throw new Error(`sandbox ${method} ${pathname} -> ${res.status}: ${JSON.stringify(json)}`);
	return json.data;
}

const createQuote = async (ctx) =>
	(await api(ctx, 'POST', '/quotes', { contactId: ctx.state.polling.contactId, items: [line] })).id;
const createInvoice = async (ctx) =>
	(await api(ctx, 'POST', '/invoices', { contactId: ctx.state.polling.contactId, items: [line] }))
		.id;
const setStatus = async (ctx, pathname, ...statuses) => {
	for (const status of statuses) await api(ctx, 'PATCH', pathname, { status });
};
const submitRequest = async (ctx, subject) =>
	(
		await api(ctx, 'POST', '/requests', {
			fromEmail: 'klant@example.nl',
			fromName: 'Klant',
			subject,
			bodyText: 'Graag een offerte',
			processImmediately: false,
		})
	).id;

/** The list reads n8n made with a key (the area's, unless given) since `since` (ms). */
function listReads(ctx, since, keyId = ctx.state.polling.keyId) {
	return ctx.sandbox.control
		.requestLog()
		.filter(
			(e) =>
				e.keyId === keyId &&
				e.method === 'GET' &&
				WATCHED.includes(e.path) &&
				Date.parse(e.time) >= since,
		);
}

/** Waits until n8n has read every watched list of `paths` since `since` and then read nothing for 2 s: the poll is over. */
async function pollDone(ctx, since, paths, timeoutMs = 90_000, keyId = undefined) {
	let count = -1;
	let quietSince = Date.now();
	await h.waitFor(
		() => {
			const reads = listReads(ctx, since, keyId);
			if (reads.length !== count) {
				count = reads.length;
				quietSince = Date.now();
			}
			return paths.every((p) => reads.some((r) => r.path === p)) && Date.now() - quietSince > 2000;
		},
		{ timeoutMs, what: `a poll reading ${paths.join(', ')}` },
	);
	await h.sleep(1000); // n8n saves the static data and creates the execution after the poll
	return count;
}

/** Forces one poll: publishing (again) makes n8n poll once at activation. Returns the number of list requests. */
async function pollByPublishing(
	ctx,
	wfId,
	paths = WATCHED,
	client = ctx.client,
	keyId = undefined,
) {
	const since = Date.now();
	if (ctx.state.polling.published.has(wfId)) await client.unpublishWorkflow(wfId);
	await client.publishWorkflow(wfId);
	ctx.state.polling.published.add(wfId);
	return await pollDone(ctx, since, paths, undefined, keyId);
}

/** Every event the workflow's executions emitted so far, as "type id", sorted. */
async function emittedSoFar(ctx, wfId, client = ctx.client) {
	const executions = await client.executions(wfId, { limit: 250 });
	return executions
		.flatMap((ex) =>
			(h.rt.nodeOutput(ex, POLLER) || []).map(
				(item) => `${item.type} ${item.data && item.data.id}`,
			),
		)
		.sort();
}

/** Asserts that exactly `expected` ("type id") were emitted since `before` (what emittedSoFar gave then). */
async function expectEmitted(ctx, wfId, before, expected, client = ctx.client) {
	const want = [...before, ...expected].sort();
	if (expected.length > 0) {
		await h
			.waitFor(async () => (await emittedSoFar(ctx, wfId, client)).length >= want.length, {
				timeoutMs: 30_000,
				what: `${expected.length} event(s)`,
			})
			.catch(() => {});
	}
	await h.sleep(1500);
	const got = await emittedSoFar(ctx, wfId, client);
	assert.deepEqual(
		got,
		want,
		`emitted: ${got.filter((g) => !before.includes(g)).join(', ') || 'nothing'}; expected: ${expected.join(', ') || 'nothing'}`,
	);
	return got;
}

async function newPollingWorkflow(
	ctx,
	name,
	events,
	{ client = ctx.client, credential = ctx.state.polling.credential, schedule } = {},
) {
	return await client.createWorkflow(pollingWorkflow(name, credential, events, schedule));
}

/** The area's own sandbox key, its credential in `client`'s n8n, and a rate limit no poll meets. */
async function setUpPolling(ctx) {
	const created = ctx.sandbox.control.createKey({
		scopes: ['*'],
		organization: 'primary',
		name: 'e2e polling',
	});
	ctx.sandbox.control.setRateLimit({ limit: 100_000, windowMs: 60_000 });
	ctx.state.polling = {
		key: created.key,
		keyId: created.id,
		credential: undefined,
		published: new Set(),
		contactId: undefined,
	};
	ctx.state.polling.credential = await pollingCredential(ctx, ctx.client);
	ctx.state.polling.contactId = (await api(ctx, 'GET', '/contacts?pageSize=1'))[0].id;
}

async function pollingCredential(
	ctx,
	client,
	key = ctx.state.polling.key,
	name = 'Business Ops (polling)',
) {
	return await client.createCredential({
		name,
		type: h.rt.CREDENTIAL_TYPE,
		data: { ...h.rt.credentialData(ctx.sandbox, key), requestsPerMinute: 100_000 },
	});
}

/**
 * A key and credential of one step's own: the area's other published workflows poll every minute
 * with the area's key, so a step that counts requests counts only its own key's.
 */
async function ownKey(ctx, name) {
	const created = ctx.sandbox.control.createKey({ scopes: ['*'], organization: 'primary', name });
	return {
		keyId: created.id,
		credential: await pollingCredential(ctx, ctx.client, created.key, `Business Ops (${name})`),
	};
}

module.exports = {
	area: 'polling',
	helpers: {
		setUpPolling,
		pollingCredential,
		newPollingWorkflow,
		pollDone,
		listReads,
		expectEmitted,
		createQuote,
		api,
	},
	async before(ctx) {
		await setUpPolling(ctx);
	},
	steps: [
		{
			name: 'publish: the first poll remembers and emits nothing; a quote created, approved, an invoice paid, a request submitted: each emitted once',
			timeoutMs: 180_000,
			async run(ctx) {
				const wf = await newPollingWorkflow(ctx, 'e2e polling: events');
				ctx.state.polling.workflowId = wf.id;
				await pollByPublishing(ctx, wf.id);
				let seen = await expectEmitted(ctx, wf.id, [], []);
				const quote = await createQuote(ctx);
				await pollByPublishing(ctx, wf.id);
				seen = await expectEmitted(ctx, wf.id, seen, [`quote.created ${quote}`]);
				await setStatus(ctx, `/quotes/${quote}`, 'sent', 'approved');
				const invoice = await createInvoice(ctx);
				await setStatus(ctx, `/invoices/${invoice}`, 'paid');
				const request = await submitRequest(ctx, 'e2e polling');
				await pollByPublishing(ctx, wf.id);
				seen = await expectEmitted(ctx, wf.id, seen, [
					`quote.approved ${quote}`,
					`invoice.paid ${invoice}`,
					`request.received ${request}`,
				]);
				await pollByPublishing(ctx, wf.id);
				await expectEmitted(ctx, wf.id, seen, []);
				const [execution] = await ctx.client.executions(wf.id, { limit: 1 });
				const item = h.rt.nodeOutput(execution, POLLER)[0];
				assert.deepEqual(Object.keys(item), [
					'id',
					'deliveryId',
					'type',
					'timestamp',
					'data',
					'source',
				]);
				assert.equal(item.source, 'polling');
				return `${seen.length} events in ${(await ctx.client.executions(wf.id)).length} executions`;
			},
		},
		{
			name: 'n8n stopped, records changed, n8n started: each change emitted once by the poll at start',
			timeoutMs: 240_000,
			async run(ctx) {
				const wfId = ctx.state.polling.workflowId;
				if (ctx.queue) {
					await ctx.client.unpublishWorkflow(wfId);
					ctx.state.polling.published.delete(wfId);
					return 'not run in queue mode (the main is not restarted here); workflow unpublished';
				}
				const before = await emittedSoFar(ctx, wfId);
				await ctx.n8n.stop();
				const quote = await createQuote(ctx);
				await setStatus(ctx, `/quotes/${quote}`, 'sent', 'approved');
				const contact = (
					await api(ctx, 'POST', '/contacts', {
						name: 'Klant tijdens stilstand',
						email: `stilstand.${Date.now()}@example.nl`,
					})
				).id;
				const since = Date.now();
				await ctx.n8n.restart();
				await pollDone(ctx, since, WATCHED, 120_000);
				const seen = await expectEmitted(ctx, wfId, before, [
					`quote.created ${quote}`,
					`quote.approved ${quote}`,
					`contact.created ${contact}`,
				]);
				// the next start polls again: nothing twice
				const again = Date.now();
				await ctx.n8n.restart();
				await pollDone(ctx, again, WATCHED, 120_000);
				await expectEmitted(ctx, wfId, seen, []);
				await ctx.client.unpublishWorkflow(wfId);
				ctx.state.polling.published.delete(wfId);
				return 'created, approved and contact emitted once; nothing after the second restart';
			},
		},
		{
			name: 'under each list order, with a record created, one deleted and one approved while a poll walks 4 pages: each change once, nothing else',
			timeoutMs: 300_000,
			async run(ctx) {
				const { control } = ctx.sandbox;
				control.seed({ resource: 'quotes', count: 320 });
				const results = [];
				try {
					const own = await ownKey(ctx, 'e2e polling: list orders');
					for (const listOrder of ['oldest', 'newest', 'byId']) {
						control.setReadings({ listOrder });
						const wf = await newPollingWorkflow(
							ctx,
							`e2e polling: order ${listOrder}`,
							['quote.created', 'quote.approved'],
							{ credential: own.credential },
						);
						await pollByPublishing(ctx, wf.id, ['/v1/quotes'], ctx.client, own.keyId);
						const firstPage = await api(ctx, 'GET', '/quotes?page=1&pageSize=100');
						const deleted = firstPage.find((q) => q.status === 'draft');
						const sent = firstPage.find((q) => q.status === 'sent');
						// each list request waits 300 ms: the changes land after the first page, before the last
						control.setLatency(300);
						const since = Date.now();
						await ctx.client.unpublishWorkflow(wf.id);
						await ctx.client.publishWorkflow(wf.id);
						await h.waitFor(() => listReads(ctx, since, own.keyId).length >= 1, {
							timeoutMs: 60_000,
							what: 'the first page of the walk',
						});
						await api(ctx, 'DELETE', `/quotes/${deleted.id}`);
						const created = await createQuote(ctx);
						await setStatus(ctx, `/quotes/${sent.id}`, 'approved');
						await pollDone(ctx, since, ['/v1/quotes'], undefined, own.keyId);
						control.setLatency(0);
						const pages = listReads(ctx, since, own.keyId).length;
						await pollByPublishing(ctx, wf.id, ['/v1/quotes'], ctx.client, own.keyId);
						await pollByPublishing(ctx, wf.id, ['/v1/quotes'], ctx.client, own.keyId);
						await expectEmitted(
							ctx,
							wf.id,
							[],
							[`quote.created ${created}`, `quote.approved ${sent.id}`],
						);
						await ctx.client.unpublishWorkflow(wf.id);
						ctx.state.polling.published.delete(wf.id);
						results.push(`${listOrder}: ${pages} pages`);
					}
				} finally {
					control.setLatency(0);
					control.setReadings({ listOrder: 'oldest' });
				}
				return results.join('; ');
			},
		},
		{
			name: 'a 10,000-invoice list: 100 requests per poll, 3 invoices paid emitted once',
			timeoutMs: 300_000,
			async run(ctx) {
				const { control } = ctx.sandbox;
				const have = (
					await fetch(`${ctx.sandbox.baseUrl}/invoices?pageSize=1`, {
						headers: { authorization: `Bearer ${ctx.state.polling.key}` },
					}).then((r) => r.json())
				).meta.total;
				control.seed({ resource: 'invoices', count: Math.max(0, 10_000 - have) });
				const own = await ownKey(ctx, 'e2e polling: 10,000 invoices');
				// its own schedule's poll once fell inside the one counted here (200 requests)
				const wf = await newPollingWorkflow(ctx, 'e2e polling: 10,000 invoices', ['invoice.paid'], {
					credential: own.credential,
					schedule: ONCE_A_MONTH,
				});
				const requests = await pollByPublishing(
					ctx,
					wf.id,
					['/v1/invoices'],
					ctx.client,
					own.keyId,
				);
				assert.equal(requests, 100, `list requests of one poll over 10,000 invoices`);
				const open = (await api(ctx, 'GET', '/invoices?page=50&pageSize=100'))
					.filter((i) => !['paid', 'written_off'].includes(i.status))
					.slice(0, 3);
				for (const invoice of open) await setStatus(ctx, `/invoices/${invoice.id}`, 'paid');
				await pollByPublishing(ctx, wf.id, ['/v1/invoices'], ctx.client, own.keyId);
				await expectEmitted(
					ctx,
					wf.id,
					[],
					open.map((i) => `invoice.paid ${i.id}`),
				);
				const saved = await ctx.client.getWorkflow(wf.id);
				assert.ok(saved.staticData, 'the workflow has no static data');
				const bytes = Buffer.byteLength(JSON.stringify(saved.staticData));
				assert.ok(bytes > 90_000 && bytes < 200_000, `static data ${bytes} bytes`);
				await ctx.client.unpublishWorkflow(wf.id);
				ctx.state.polling.published.delete(wf.id);
				return `100 requests per poll; static data ${bytes} bytes`;
			},
		},
		{
			name: "n8n's own schedule: an API error is a failed execution with the API's code and message; the next poll emits what was pending",
			timeoutMs: 240_000,
			async run(ctx) {
				const wfId = ctx.state.polling.workflowId;
				// published again: this poll emits what the other steps changed meanwhile
				await pollByPublishing(ctx, wfId);
				await h.sleep(3000);
				const before = await emittedSoFar(ctx, wfId);
				const errorsBefore = (await ctx.client.executions(wfId, { status: 'error' })).length;
				const request = await submitRequest(ctx, 'e2e polling: pending through an error');
				ctx.sandbox.control.failNext({
					status: 422,
					code: 'invalid_state',
					message: 'Lists are closed for maintenance',
					path: '/requests',
				});
				// no publishing: the next scheduled poll (every minute) meets the error
				const failed = await h.waitFor(
					async () => {
						const errors = await ctx.client.executions(wfId, { status: 'error' });
						return errors.length > errorsBefore ? errors[0] : undefined;
					},
					{
						timeoutMs: 100_000,
						intervalMs: 1000,
						what: 'a failed execution from the scheduled poll',
					},
				);
				const text = JSON.stringify(
					failed.data && failed.data.resultData && failed.data.resultData.error,
				);
				assert.match(
					text,
					/Lists are closed for maintenance \(HTTP 422 invalid_state, GET \/requests\)/,
				);
				await pollByPublishing(ctx, wfId);
				await expectEmitted(ctx, wfId, before, [`request.received ${request}`]);
				await ctx.client.unpublishWorkflow(wfId);
				ctx.state.polling.published.delete(wfId);
				return 'error execution with the API message; the request emitted by the next poll';
			},
		},
	],
};
