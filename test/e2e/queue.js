// Queue-mode steps, run only by scripts/e2e-queue.js (not listed in index.js: they need the
// main / worker / webhook processes, the relay, PostgreSQL and Redis that runner starts). They run after
// the reused areas (startup, credentials, contacts, quotes, invoices, trigger) and check:
//   - a node operation run from the editor is enqueued by the main and executed by the worker;
//   - the main serves no production webhooks; deliveries go to the webhook processes (through the relay);
//   - the trigger's subscription id and signing secret (sealed under the credential's API key),
//     stored by the main at activation, are in the workflow's static data in PostgreSQL, and the
//     webhook processes verify with them;
//   - a bad signature gets 401 from the webhook processes, starts nothing, and changes nothing in
//     the static data;
//   - throughput: deliveries per second through the webhook processes, executions per second on
//     the workers (figures kept in ctx.state.figures for the runner's summary), with the CPU
//     each process used;
//   - under a tight rate limit the worker(s) wait out 429 answers and nothing fails;
//   - unpublishing removes the subscription, and the webhook processes stop serving the URL;
//   - every execution of the run was executed by a worker, none by the main or a webhook process.
// Proof of "where": n8n 2.41.1 logs "Enqueued execution <id> (job <n>)" in the process that put
// the execution on the queue and "Worker started/finished execution <id> (job <n>)" in the
// worker that ran it; the steps match those ids against the executions in PostgreSQL.
// Extra ctx fields (from the runner): ctx.queue = { main, workers, webhooks, relay, pg, redis, config,
// cpu, startProcess }, ctx.webhookBaseUrl (the relay).
// Several steps use the helpers exported at the end (queue-scale.js reuses them).
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const assert = require('node:assert/strict');
const h = require('./harness');

const TRIGGER = 'Business Ops Trigger';
const LOAD_EVENT = 'invoice.paid';
const DONE = "('success','error','crashed','canceled')";

const int = (v) => Number.parseInt(v, 10);

function logText(handle) {
	try {
		return fs.readFileSync(handle.logFile, 'utf8');
	} catch {
		return '';
	}
}

/** Execution ids a log names in lines like "Worker started execution 12 (job 7)". */
function idsIn(text, phrase) {
	const ids = new Set();
	const re = new RegExp(`${phrase} (\\d+) \\(job`, 'g');
	for (let m = re.exec(text); m; m = re.exec(text)) ids.add(m[1]);
	return ids;
}

/** All executions in PostgreSQL: [{ id, mode, status, workflowId }]. */
function executionsInDb(ctx, where = 'true') {
	return ctx.queue.pg
		.query(`select id, mode, status, "workflowId" from execution_entity where ${where} order by id`)
		.map(([id, mode, status, workflowId]) => ({ id, mode, status, workflowId }));
}

function safeId(id) {
	assert.match(String(id), /^[A-Za-z0-9_-]+$/, `unexpected id ${id}`);
	return String(id);
}

/** The trigger node's static data as PostgreSQL holds it, and the row's updatedAt. */
function storedStaticData(ctx, workflowId) {
	const rows = ctx.queue.pg.query(
		`select coalesce("staticData"::text, 'null'), "updatedAt"::text from workflow_entity where id = '${safeId(workflowId)}'`,
	);
	assert.equal(rows.length, 1, `workflow ${workflowId} not found in PostgreSQL`);
	const [json, updatedAt] = rows[0];
	return { raw: json, updatedAt, data: JSON.parse(json) || {} };
}

/** Standard Webhooks signature with a `whsec_` secret (as the API signs). */
/** The Standard Webhooks headers of `body` with id `id`, signed with `secret` for `ts` (s). */
function standardHeaders(secret, id, ts, body) {
	const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
	const sig = crypto.createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
	return {
		'content-type': 'application/json',
		'webhook-id': id,
		'webhook-timestamp': String(ts),
		'webhook-signature': `v1,${sig}`,
	};
}

function signedDelivery(secret, type, data) {
	const id = `evt_q${crypto.randomBytes(8).toString('hex')}`;
	const body = JSON.stringify({ id, type, timestamp: new Date().toISOString(), data });
	return { id, body, headers: standardHeaders(secret, id, Math.floor(Date.now() / 1000), body) };
}

function ourSubscriptions(ctx, workflowId) {
	return ctx.sandbox.control
		.webhooks()
		.filter(
			(w) =>
				w.url.startsWith(`${ctx.webhookBaseUrl}/webhook/`) &&
				(!workflowId || w.name.includes(`(${workflowId})`)),
		);
}

/**
 * The throughput steps measure n8n, not the API's limit: the sandbox of this run allows a million
 * requests a minute, so the credential's budget (Requests per Minute, default 120) is raised to match.
 */
async function loadCredential(ctx) {
	const c = await ctx.client.createCredential({
		name: 'Business Ops (admin, load)',
		type: h.rt.CREDENTIAL_TYPE,
		data: {
			...h.rt.credentialData(ctx.sandbox, ctx.sandbox.keys.admin),
			requestsPerMinute: 1_000_000,
		},
	});
	return { id: c.id, name: c.name };
}

/** Trigger (invoice.paid) → Business Ops: Get a contact. Each execution calls the API once. */
function loadWorkflow(ctx, contactId, credential) {
	return {
		name: 'e2e queue: delivery → Business Ops (worker)',
		nodes: [
			h.node(
				TRIGGER,
				h.rt.NODE_TYPES.trigger,
				{ events: [LOAD_EVENT], options: { signatureScheme: 'standardWebhooks' } },
				{
					position: [0, 0],
					credentials: h.credentialRef(credential),
					webhookId: crypto.randomUUID(),
				},
			),
			h.node(
				'Business Ops',
				h.rt.NODE_TYPES.action,
				{ resource: 'contact', operation: 'get', contactId: h.byId(contactId) },
				{
					position: [220, 0],
					credentials: h.credentialRef(credential),
				},
			),
		],
		connections: h.chain(TRIGGER, 'Business Ops'),
		settings: { executionOrder: 'v1' },
	};
}

/** Waits until `count` executions of the workflow with id > afterId are done; returns them. */
async function waitForDone(ctx, workflowId, afterId, count, timeoutMs) {
	const where = `"workflowId" = '${safeId(workflowId)}' and id > ${int(afterId)} and status in ${DONE}`;
	await h.waitFor(
		() =>
			int(ctx.queue.pg.query(`select count(*) from execution_entity where ${where}`)[0][0]) >=
			count,
		{
			timeoutMs,
			intervalMs: 300,
			what: `${count} finished execution(s) of workflow ${workflowId}`,
		},
	);
	return executionsInDb(ctx, `"workflowId" = '${safeId(workflowId)}' and id > ${int(afterId)}`);
}

function maxExecutionId(ctx) {
	return int(ctx.queue.pg.query('select coalesce(max(id), 0) from execution_entity')[0][0]);
}

/** Figures of a batch from PostgreSQL: count, successes, seconds from first start to last stop. */
function batchFigures(ctx, workflowId, afterId) {
	const [[count, ok, span, total]] = ctx.queue.pg.query(
		`select count(*), count(*) filter (where status = 'success'),
		        extract(epoch from max("stoppedAt") - min("startedAt")),
		        extract(epoch from max("stoppedAt") - min("createdAt"))
		   from execution_entity where "workflowId" = '${safeId(workflowId)}' and id > ${int(afterId)}`,
	);
	return { count: int(count), ok: int(ok), runSeconds: Number(span), totalSeconds: Number(total) };
}

/** Checks that a worker ran each execution and the expected process (only) enqueued it. */
function assertRanOnWorker(ctx, ids, enqueuedBy) {
	const { main, workers, webhooks } = ctx.queue;
	const workerLog = workers.map(logText).join('\n');
	const started = idsIn(workerLog, 'Worker started execution');
	const finished = idsIn(workerLog, 'Worker finished execution');
	const enqueued = {
		main: idsIn(logText(main), 'Enqueued execution'),
		webhook: idsIn(webhooks.map(logText).join('\n'), 'Enqueued execution'),
	};
	const other = enqueuedBy === 'main' ? 'webhook' : 'main';
	const notStarted = ids.filter((id) => !started.has(id));
	const notFinished = ids.filter((id) => !finished.has(id));
	const notEnqueued = ids.filter((id) => !enqueued[enqueuedBy].has(id));
	const wrongProcess = ids.filter((id) => enqueued[other].has(id));
	assert.deepEqual(
		notStarted,
		[],
		`the worker log names no start of execution(s) ${notStarted.join(', ')}`,
	);
	assert.deepEqual(
		notFinished,
		[],
		`the worker log names no finish of execution(s) ${notFinished.join(', ')}`,
	);
	assert.deepEqual(
		notEnqueued,
		[],
		`the ${enqueuedBy} log names no enqueueing of execution(s) ${notEnqueued.join(', ')}`,
	);
	assert.deepEqual(
		wrongProcess,
		[],
		`the ${other} process enqueued execution(s) ${wrongProcess.join(', ')}`,
	);
	for (const h of [main, ...webhooks]) {
		assert.doesNotMatch(
			logText(h),
			/Worker started execution/,
			`the ${h.command === 'start' ? 'main' : h.command} process ran an execution itself`,
		);
	}
}

/** Fails, with the error and the log lines of the first few, unless every execution succeeded. */
async function expectAllSucceeded(ctx, list) {
	const notOk = list.filter((e) => e.status !== 'success');
	if (!notOk.length) return;
	const why = [];
	for (const e of notOk.slice(0, 3)) {
		const full = await ctx.client
			.waitForExecution(e.id, { timeoutMs: 10_000 })
			.catch(() => undefined);
		const err = full && (h.nodeError(full, 'Business Ops') || h.nodeError(full, TRIGGER));
		why.push(
			`${e.id} ${e.status}: ${err ? `${err.message} | ${err.description}` : 'no error recorded'}`,
		);
		for (const [name, h] of [
			['main', ctx.queue.main],
			...ctx.queue.workers.map((w, i) => [`worker ${i + 1}`, w]),
			...ctx.queue.webhooks.map((w, i) => [`webhook ${i + 1}`, w]),
		]) {
			const lines = logText(h)
				.split('\n')
				.filter((l) => new RegExp(`\\b${e.id}\\b`).test(l) && !/Enqueued|started|finished/.test(l));
			if (lines.length) why.push(`${name} log: ${lines.slice(0, 8).join(' / ')}`);
		}
	}
	assert.fail(`${notOk.length} of ${list.length} execution(s) not successful: ${why.join('; ')}`);
}

/** Runs `total` async jobs with at most `concurrency` at a time. */
async function pool(total, concurrency, job) {
	let next = 0;
	const results = new Array(total);
	async function lane() {
		while (next < total) {
			const i = next++;
			results[i] = await job(i);
		}
	}
	await Promise.all(Array.from({ length: Math.min(concurrency, total) }, lane));
	return results;
}

const rate = (n, seconds) => (seconds > 0 ? n / seconds : 0);
const fmt = (x) => x.toFixed(1);

module.exports = {
	area: 'queue',
	helpers: {
		logText,
		idsIn,
		executionsInDb,
		signedDelivery,
		standardHeaders,
		post: h.post,
		waitForDone,
		maxExecutionId,
		assertRanOnWorker,
		expectAllSucceeded,
		pool,
		safeId,
	},
	steps: [
		{
			name: 'a node operation run from the editor is enqueued by the main and executed by the worker',
			async run(ctx) {
				ctx.requireOperation('contact', 'getAll');
				const r = await h.runOperation(ctx, {
					resource: 'contact',
					operation: 'getAll',
					returnAll: false,
					limit: 3,
				});
				const items = h.expectSuccess(r);
				assert.equal(items.length, 3);
				assert.equal(r.execution.mode, 'manual');
				assertRanOnWorker(ctx, [String(r.execution.id)], 'main');
				return `execution ${r.execution.id}: "Enqueued execution ${r.execution.id}" in the main log, "Worker started/finished execution ${r.execution.id}" in the worker log; ${items.length} contacts`;
			},
		},
		{
			name: 'publishing (on the main) stores subscription id and signing secret in static data in PostgreSQL',
			async run(ctx) {
				const contactId = await h.sandboxFirstId(ctx, 'contacts');
				const wf = await ctx.client.createWorkflow(
					loadWorkflow(ctx, contactId, await loadCredential(ctx)),
				);
				ctx.state.loadWorkflowId = wf.id;
				await ctx.client.publishWorkflow(wf.id);
				const [sub] = await h.waitFor(
					() => (ourSubscriptions(ctx, wf.id).length === 1 ? ourSubscriptions(ctx, wf.id) : null),
					{ timeoutMs: 30_000, what: 'the subscription' },
				);
				// The main writes static data right after `create`; poll until it is there.
				const stored = await h.waitFor(
					() => {
						const s = storedStaticData(ctx, wf.id);
						const entry = s.data[`node:${TRIGGER}`]?.subscriptions?.production;
						return entry?.sealedSecret ? { ...s, entry } : null;
					},
					{ timeoutMs: 15_000, what: 'the static data in PostgreSQL' },
				);
				assert.equal(stored.entry.id, sub.id, 'static data holds another subscription id');
				assert.equal(stored.entry.url, sub.url);
				assert.ok(
					!stored.raw.includes('whsec_'),
					'the signing secret is in clear in the static data',
				);
				// sealed under the credential's API key (the admin key of the sandbox)
				const { openSecret } = require(
					path.join(ctx.pkg.root, 'dist', 'nodes', 'BusinessOpsTrigger', 'secretBox.js'),
				);
				const secret = openSecret(
					stored.entry.sealedSecret,
					ctx.sandbox.keys.admin,
					stored.entry.id,
				);
				assert.match(String(secret), /^whsec_[A-Za-z0-9+/]+=*$/);
				assert.ok(
					sub.url.startsWith(`${ctx.webhookBaseUrl}/webhook/`),
					`subscription URL ${sub.url} is not the relay's (WEBHOOK_URL)`,
				);
				ctx.state.load = {
					sub,
					secret,
					staticData: stored.raw,
					updatedAt: stored.updatedAt,
					contactId,
				};
				return `${sub.id} → ${sub.url}; static data "node:${TRIGGER}".subscriptions.production = { id, url, events, sealedSecret }`;
			},
		},
		{
			name: 'a delivery signed with that stored secret, POSTed to the webhook URL (relay → a webhook process), runs on a worker',
			async run(ctx) {
				const { sub, secret, contactId } = ctx.state.load || {};
				assert.ok(sub, 'needs the previous step');
				const before = maxExecutionId(ctx);
				const d = signedDelivery(secret, LOAD_EVENT, { id: 'inv_queue', status: 'paid' });
				const res = await h.post(sub.url, d);
				assert.equal(res.status, 200, `webhook process answered ${res.status} ${res.text}`);
				const [ex] = await waitForDone(ctx, ctx.state.loadWorkflowId, before, 1, 30_000);
				assertRanOnWorker(ctx, [ex.id], 'webhook');
				const full = await ctx.client.waitForExecution(ex.id);
				assert.equal(full.status, 'success', `execution ${ex.id}: ${full.status}`);
				assert.equal(h.rt.nodeOutput(full, TRIGGER)[0].id, d.id);
				const [contact] = h.rt.nodeOutput(full, 'Business Ops');
				assert.equal(contact.id, contactId);
				return `HTTP 200 through the relay (port ${ctx.queue.relay.port}); execution ${ex.id} on a worker: event ${d.id} → contact ${contact.id}`;
			},
		},
		{
			name: "the main serves no production webhooks (N8N_DISABLE_PRODUCTION_MAIN_PROCESS): the published trigger's path answers on the webhook processes only",
			async run(ctx) {
				const { sub, secret } = ctx.state.load || {};
				assert.ok(sub, 'needs the publishing step');
				const { pathname } = new URL(sub.url);
				const before = maxExecutionId(ctx);
				const d = signedDelivery(secret, LOAD_EVENT, { id: 'inv_main', status: 'paid' });
				const onMain = await h.post(`${ctx.queue.main.baseUrl}${pathname}`, d);
				assert.ok(
					onMain.status === 404,
					`the main answered ${onMain.status} on the trigger's path ${pathname}: ${onMain.text.slice(0, 120)}`,
				);
				await h.sleep(1500);
				assert.equal(maxExecutionId(ctx), before, 'the main started an execution for the delivery');
				const onWebhook = await h.post(sub.url, d);
				assert.equal(
					onWebhook.status,
					200,
					`the webhook process answered ${onWebhook.status} ${onWebhook.text}`,
				);
				const [ex] = await waitForDone(ctx, ctx.state.loadWorkflowId, before, 1, 30_000);
				assertRanOnWorker(ctx, [ex.id], 'webhook');
				return `the same signed delivery to ${pathname}: main (port ${ctx.queue.main.port}) ${onMain.status}, no execution; through the relay to a webhook process 200, execution ${ex.id}`;
			},
		},
		{
			name: 'a bad signature gets 401 from the webhook processes, starts nothing, and changes no static data',
			async run(ctx) {
				const { sub, staticData } = ctx.state.load || {};
				assert.ok(sub, 'needs the publishing step');
				const before = maxExecutionId(ctx);
				const forged = await h.post(
					sub.url,
					signedDelivery(`whsec_${crypto.randomBytes(24).toString('base64')}`, LOAD_EVENT, {
						id: 'inv_forged',
					}),
				);
				assert.equal(forged.status, 401, `forged: ${forged.status} ${forged.text}`);
				const unsigned = await h.post(sub.url, {
					body: JSON.stringify({ id: 'evt_unsigned', type: LOAD_EVENT, data: {} }),
					headers: { 'content-type': 'application/json' },
				});
				assert.equal(unsigned.status, 401, `unsigned: ${unsigned.status} ${unsigned.text}`);
				await h.sleep(1500);
				assert.equal(maxExecutionId(ctx), before, 'an execution was created');
				// the refusals left the static data as it was; their reason is in the webhook process's log
				const now = storedStaticData(ctx, ctx.state.loadWorkflowId);
				assert.equal(now.raw, staticData, 'the static data changed');
				assert.match(
					ctx.queue.webhooks.map(logText).join('\n'),
					/refused a delivery with HTTP 401/,
				);
				return `forged 401, unsigned 401 (${forged.text.slice(0, 60)}); no execution; the static data unchanged`;
			},
		},
		{
			name: 'throughput: sandbox events delivered in order to the webhook processes (through the relay)',
			timeoutMs: 300_000,
			async run(ctx) {
				const n = ctx.queue.config.sandboxEvents;
				const control = ctx.sandbox.control;
				const { sub } = ctx.state.load;
				control.clearDeliveries();
				const before = maxExecutionId(ctx);
				const t0 = Date.now();
				const emitted = [];
				for (let i = 0; i < n; i++) emitted.push(control.emit({ type: LOAD_EVENT }).id);
				await control.waitForDeliveries();
				const deliverSeconds = (Date.now() - t0) / 1000;
				const mine = control.deliveries().filter((x) => x.subscriptionId === sub.id);
				const failed = mine.filter((x) => !x.success);
				assert.equal(mine.length, n, `${mine.length} delivery attempts for ${n} events`);
				assert.equal(failed.length, 0, `failed: ${JSON.stringify(failed.slice(0, 2))}`);
				assert.deepEqual(
					mine.map((x) => x.eventId),
					emitted,
					'the sandbox delivered the events in another order than emitted',
				);
				const list = await waitForDone(ctx, ctx.state.loadWorkflowId, before, n, 120_000 + n * 500);
				const doneSeconds = (Date.now() - t0) / 1000;
				assert.equal(list.length, n, `${list.length} executions for ${n} events`);
				await expectAllSucceeded(ctx, list);
				assertRanOnWorker(
					ctx,
					list.map((e) => e.id),
					'webhook',
				);
				// The webhook process answers after enqueueing, and the next delivery waits for that answer:
				// the executions, in the order they were created, hold the events in the order emitted.
				const received = [];
				for (const e of [...list].sort((a, b) => int(a.id) - int(b.id))) {
					received.push(h.rt.nodeOutput(await ctx.client.waitForExecution(e.id), TRIGGER)[0].id);
				}
				assert.deepEqual(
					received,
					emitted,
					'the executions hold the events in another order than emitted',
				);
				const f = batchFigures(ctx, ctx.state.loadWorkflowId, before);
				const latency = mine.reduce((s, x) => s + x.durationMs, 0) / mine.length;
				ctx.state.figures.sandbox = {
					n,
					deliverSeconds,
					doneSeconds,
					perSecond: rate(n, deliverSeconds),
					avgMs: latency,
					workerPerSecond: rate(f.count, f.runSeconds),
				};
				return `${n} events: delivered (2xx) in ${fmt(deliverSeconds)} s = ${fmt(rate(n, deliverSeconds))}/s, one at a time (avg ${latency.toFixed(0)} ms per delivery); all ${n} executions done after ${fmt(doneSeconds)} s, holding the events in the order emitted`;
			},
		},
		{
			name: 'throughput: concurrent signed deliveries → relay → webhook processes → workers',
			timeoutMs: 420_000,
			async run(ctx) {
				const { total, concurrency } = ctx.queue.config.load;
				const { sub, secret } = ctx.state.load;
				const before = maxExecutionId(ctx);
				ctx.sandbox.control.clearRequestLog();
				const statuses = {};
				const cpu0 = ctx.queue.cpu();
				const t0 = Date.now();
				await pool(total, concurrency, async (i) => {
					let status;
					try {
						status = (
							await h.post(
								sub.url,
								signedDelivery(secret, LOAD_EVENT, { id: `inv_load${i}`, status: 'paid' }),
							)
						).status;
					} catch (e) {
						status = e.name || 'error';
					}
					statuses[status] = (statuses[status] || 0) + 1;
				});
				const acceptSeconds = (Date.now() - t0) / 1000;
				assert.equal(statuses[200], total, `answers: ${JSON.stringify(statuses)}`);
				const list = await waitForDone(
					ctx,
					ctx.state.loadWorkflowId,
					before,
					total,
					120_000 + total * 500,
				);
				const doneSeconds = (Date.now() - t0) / 1000;
				const cpu1 = ctx.queue.cpu();
				await expectAllSucceeded(ctx, list);
				assert.equal(list.length, total);
				assertRanOnWorker(
					ctx,
					list.map((e) => e.id),
					'webhook',
				);
				const f = batchFigures(ctx, ctx.state.loadWorkflowId, before);
				const apiCalls = ctx.sandbox.control
					.requestLog()
					.filter((r) => r.method === 'GET' && /\/contacts\/[^/]+$/.test(r.path)).length;
				assert.equal(
					apiCalls,
					total,
					`${apiCalls} GET /contacts/{id} calls for ${total} executions`,
				);
				const cores = os.availableParallelism?.() || os.cpus().length;
				const used = Object.entries(cpu1)
					.filter(([k, v]) => k !== 'machine' && v !== undefined && cpu0[k] !== undefined)
					.map(([k, v]) => [k, v - cpu0[k]]);
				if (cpu1.machine !== undefined && cpu0.machine !== undefined) {
					const ours = used.reduce((a, [, v]) => a + v, 0);
					used.push([
						'everything else on the machine',
						Math.max(0, cpu1.machine - cpu0.machine - ours),
					]);
				}
				const pct = (v) => ((100 * v) / (cores * doneSeconds)).toFixed(0);
				const cpu = {
					available: cores * doneSeconds,
					byProcess: Object.fromEntries(used),
					text: used.map(([k, v]) => `${k} ${v.toFixed(1)} s (${pct(v)}%)`).join(', '),
				};
				ctx.state.figures.load = {
					total,
					concurrency,
					acceptSeconds,
					acceptPerSecond: rate(total, acceptSeconds),
					doneSeconds,
					endToEndPerSecond: rate(total, doneSeconds),
					workerSeconds: f.runSeconds,
					workerPerSecond: rate(f.count, f.runSeconds),
					workerConcurrency: ctx.queue.config.workerConcurrency,
					cpu,
				};
				return (
					`${total} POSTs, ${concurrency} at a time: all 200 in ${fmt(acceptSeconds)} s = ${fmt(rate(total, acceptSeconds))} deliveries/s accepted; ` +
					`${f.count} executions (${f.ok} success) done after ${fmt(doneSeconds)} s = ${fmt(rate(total, doneSeconds))}/s end to end; ` +
					`worker: ${fmt(rate(f.count, f.runSeconds))} executions/s (first start → last stop ${fmt(f.runSeconds)} s); ${apiCalls} GET /contacts/{id} in the sandbox; CPU: ${cpu.text}`
				);
			},
		},
		{
			name: 'under a tight rate limit the worker(s) wait out 429 answers (Retry-After) and every execution succeeds',
			timeoutMs: 300_000,
			async run(ctx) {
				const { limit, windowMs, executions: n } = ctx.queue.config.rateLimit;
				const control = ctx.sandbox.control;
				const { sub, secret } = ctx.state.load || {};
				assert.ok(sub, 'needs the publishing step');
				const previous = control.rateLimit();
				const before = maxExecutionId(ctx);
				control.clearRequestLog();
				control.setRateLimit({ limit, windowMs });
				try {
					const t0 = Date.now();
					const statuses = await pool(
						n,
						20,
						async (i) =>
							(await h.post(sub.url, signedDelivery(secret, LOAD_EVENT, { id: `inv_rl${i}` })))
								.status,
					);
					assert.ok(
						statuses.every((st) => st === 200),
						`answers: ${statuses.join(', ')}`,
					);
					const list = await waitForDone(ctx, ctx.state.loadWorkflowId, before, n, 240_000);
					const seconds = (Date.now() - t0) / 1000;
					await expectAllSucceeded(ctx, list);
					assertRanOnWorker(
						ctx,
						list.map((e) => e.id),
						'webhook',
					);
					const calls = control
						.requestLog()
						.filter((r) => r.method === 'GET' && /\/contacts\/[^/]+$/.test(r.path));
					const refused = calls.filter((r) => r.status === 429).length;
					assert.equal(calls.filter((r) => r.status === 200).length, n);
					assert.ok(refused >= 1, 'no request was refused: the limit was not reached');
					const minSeconds = ((n - limit) / limit) * (windowMs / 1000);
					assert.ok(
						seconds >= minSeconds * 0.9,
						`${n} calls at ${limit}/${windowMs / 1000} s cannot finish in ${seconds.toFixed(1)} s`,
					);
					const workers = ctx.queue.workers.length;
					ctx.state.figures.rateLimit = {
						limit,
						windowMs,
						n,
						workers,
						refused,
						calls: calls.length,
						seconds,
					};
					return `${limit} per ${windowMs / 1000} s, ${n} executions on ${workers} worker(s): ${refused} of ${calls.length} API calls refused (429) and retried; all ${n} succeeded in ${seconds.toFixed(1)} s (at least ${minSeconds.toFixed(0)} s at that limit)`;
				} finally {
					control.setRateLimit(previous);
				}
			},
		},
		{
			name: 'unpublishing (on the main) removes the subscription from the sandbox',
			async run(ctx) {
				const id = ctx.state.loadWorkflowId;
				assert.ok(id, 'needs the publishing step');
				await ctx.client.unpublishWorkflow(id);
				await h.waitFor(() => ourSubscriptions(ctx, id).length === 0, {
					timeoutMs: 30_000,
					what: 'the subscription to be deleted',
				});
				const { sub, secret } = ctx.state.load;
				const ev = ctx.sandbox.control.emit({ type: LOAD_EVENT });
				assert.equal(
					ev.subscriptionIds.includes(sub.id),
					false,
					'the event still went to the subscription',
				);
				// The webhook process no longer serves the URL once the workflow is unpublished.
				const before = maxExecutionId(ctx);
				const late = await h.waitFor(
					async () => {
						const r = await h.post(sub.url, signedDelivery(secret, LOAD_EVENT, { id: 'inv_late' }));
						return r.status === 404 ? r : null;
					},
					{ timeoutMs: 20_000, what: 'the webhook process to stop serving the URL' },
				);
				await h.sleep(1000);
				assert.equal(maxExecutionId(ctx), before, 'an execution started after unpublishing');
				return `${sub.id} deleted; the webhook process answers ${late.status} on its URL`;
			},
		},
		{
			name: 'every execution of this run: enqueued by the main (manual, polls) or a webhook process (deliveries), executed by a worker, none by the main',
			async run(ctx) {
				const all = executionsInDb(ctx);
				const manual = all.filter((e) => e.mode === 'manual');
				const hooks = all.filter((e) => e.mode === 'webhook');
				// a poll's events (area polling) run on the worker; a failed poll is recorded by the main without a run
				const polls = all.filter((e) => e.mode === 'trigger' && e.status !== 'error');
				const other = all.filter(
					(e) => e.mode !== 'manual' && e.mode !== 'webhook' && e.mode !== 'trigger',
				);
				assert.deepEqual(
					other.map((e) => `${e.id} ${e.mode}`),
					[],
					'executions of another mode',
				);
				assertRanOnWorker(
					ctx,
					[...manual, ...polls].map((e) => e.id),
					'main',
				);
				assertRanOnWorker(
					ctx,
					hooks.map((e) => e.id),
					'webhook',
				);
				const port = `:${ctx.queue.relay.port}/`;
				const stray = ctx.sandbox.control.deliveries().filter((d) => !d.url.includes(port));
				assert.deepEqual(
					stray.map((d) => d.url),
					[],
					'deliveries that did not go to the relay',
				);
				return `${manual.length} manual + ${polls.length} poll + ${hooks.length} webhook executions, all on the workers; sandbox deliveries all to port ${ctx.queue.relay.port} (the relay in front of the webhook processes), none to ${ctx.queue.main.port} (main)`;
			},
		},
	],
};
