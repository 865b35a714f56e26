// Several n8n processes on one API key, and processes that die (scripts/e2e-queue.js only: it needs
// 2 workers, 2 webhook processes behind the round-robin relay, PostgreSQL and Redis). After the
// `queue` area:
//   - deliveries through the relay spread over both webhook processes, each verified and run once;
//     forged ones refused by both;
//   - Ignore Repeated Deliveries keeps its ids in each webhook process's memory: the same signed
//     delivery sent to each process runs once per process; Remove Duplicates on `deliveryId`
//     (n8n's own node, its history in the database) lets it through once;
//   - two workflows of 100 Contact → Create items on both workers at once, one key, the API's limit
//     scaled to 120 per 6 s with refused requests counted: all 200 created once; refusals and wall
//     time against the minimum reported (figures, never a timed pass/fail);
//   - a worker SIGKILLed halfway through 100 creates: what n8n 2.41 does with the job and the
//     execution (read in its source: scaling.service.js sets Bull's maxStalledCount to 0, so a
//     stalled job fails and is never run again; workflow-runner.js turns that into an error
//     execution), what exists against what n8n reports, and Create or Update finishing the job;
//   - the main SIGKILLed while a poll on n8n's schedule walks its list: the polling trigger's state
//     does not move, the poll at the next start emits each change once, the poll after it nothing.
// Figures go to ctx.state.figures.scale (the runner prints them at the end).
'use strict';

const crypto = require('node:crypto');
const path = require('node:path');

const assert = require('node:assert/strict');
const h = require('./harness');
const { groupKill } = require('../../scripts/n8n/processes');
const { startRelay } = require('../../scripts/queue/relay');
const queue = require('./queue');
const polling = require('./polling');

const {
	logText,
	idsIn,
	signedDelivery,
	standardHeaders,
	post,
	maxExecutionId,
	expectAllSucceeded,
	pool,
	safeId,
} = queue.helpers;

const TRIGGER = 'Business Ops Trigger';
const DEDUPE = 'Remove Duplicates';
const NOOP = 'No Operation';
const EVENT = 'invoice.paid';
const MANUAL = 'When clicking ‘Execute workflow’';
const NODE = 'Business Ops';
/** The API's limit (120 a minute) scaled ten times in time, as the benchmarks do. */
const SCALED = { limit: 120, windowMs: 6000 };
const DONE = ['success', 'error', 'crashed', 'canceled'];

const int = (v) => Number.parseInt(v, 10);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

function figure(ctx, line) {
	ctx.state.figures.scale ??= [];
	ctx.state.figures.scale.push(line);
}

/** Executions of a workflow in PostgreSQL with id > afterId: [{ id, status, startedAt, stoppedAt }] (ms). */
function executionsOf(ctx, workflowId, afterId = 0) {
	return ctx.queue.pg
		.query(
			`select id, status, coalesce(extract(epoch from "startedAt") * 1000, 0), coalesce(extract(epoch from "stoppedAt") * 1000, 0)
			   from execution_entity where "workflowId" = '${safeId(workflowId)}' and id > ${int(afterId)} order by id`,
		)
		.map(([id, status, startedAt, stoppedAt]) => ({
			id,
			status,
			startedAt: Number(startedAt),
			stoppedAt: Number(stoppedAt),
		}));
}

async function waitForFinished(ctx, workflowId, afterId, count, timeoutMs) {
	return await h.waitFor(
		() => {
			const list = executionsOf(ctx, workflowId, afterId);
			return list.filter((e) => DONE.includes(e.status)).length >= count ? list : null;
		},
		{
			timeoutMs,
			intervalMs: 300,
			what: `${count} finished execution(s) of workflow ${workflowId}`,
		},
	);
}

/** Which process's log names "<phrase> <id> (job" for each id: { id: [process index, …] }. */
function whoLogged(handles, ids, phrase) {
	const sets = handles.map((h) => idsIn(logText(h), phrase));
	return Object.fromEntries(
		ids.map((id) => [id, sets.flatMap((s, i) => (s.has(String(id)) ? [i] : []))]),
	);
}

/**
 * Trigger (Standard Webhooks, Ignore Repeated Deliveries on) → No Operation; with `dedupe`, Remove
 * Duplicates on deliveryId between them. n8n 2.41's Remove Duplicates reads its history and writes
 * it back without a lock: only executions that do not overlap may go through it (docs/scale.md).
 */
function deliveryWorkflow(credential, { dedupe = false } = {}) {
	const trigger = h.node(
		TRIGGER,
		h.rt.NODE_TYPES.trigger,
		{
			events: [EVENT],
			options: { signatureScheme: 'standardWebhooks', ignoreRepeatedDeliveries: true },
		},
		{
			position: [0, 0],
			credentials: h.credentialRef(credential),
			webhookId: crypto.randomUUID(),
		},
	);
	const removeDuplicates = h.node(
		DEDUPE,
		'n8n-nodes-base.removeDuplicates',
		{
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json.deliveryId }}',
			options: {},
		},
		{ typeVersion: 2, position: [220, 0] },
	);
	const noop = h.node(NOOP, 'n8n-nodes-base.noOp', {}, { position: [440, 0] });
	return {
		name: `e2e scale: delivery → ${dedupe ? 'Remove Duplicates (deliveryId) → ' : ''}No Operation`,
		nodes: dedupe ? [trigger, removeDuplicates, noop] : [trigger, noop],
		connections: dedupe ? h.chain(TRIGGER, DEDUPE, NOOP) : h.chain(TRIGGER, NOOP),
		settings: { executionOrder: 'v1' },
	};
}

/** A delivery signed anew for `ts`, as the API signs its retry: the same id and body. */
function resigned(secret, delivery, ts) {
	return {
		...delivery,
		headers: { ...delivery.headers, ...standardHeaders(secret, delivery.id, ts, delivery.body) },
	};
}

/** Manual Trigger → Code (the rows) → Business Ops Contact → Create (or Create or Update) from each row. */
function contactsWorkflow(name, rows, credential, operation = 'create') {
	const parameters =
		operation === 'upsert'
			? {
					resource: 'contact',
					operation: 'upsert',
					email: '={{ $json.email }}',
					name: '={{ $json.name }}',
					additionalFields: {},
				}
			: {
					resource: 'contact',
					operation: 'create',
					name: '={{ $json.name }}',
					additionalFields: { email: '={{ $json.email }}' },
				};
	return {
		name,
		nodes: [
			h.node(MANUAL, 'n8n-nodes-base.manualTrigger', {}, { position: [0, 0] }),
			h.node(
				'Items',
				'n8n-nodes-base.code',
				{ jsCode: `return ${JSON.stringify(rows.map((json) => ({ json })))};` },
				{ typeVersion: 2, position: [220, 0] },
			),
			h.node(NODE, h.rt.NODE_TYPES.action, parameters, {
				position: [440, 0],
				credentials: h.credentialRef(credential),
			}),
		],
		connections: h.chain(MANUAL, 'Items', NODE),
		settings: { executionOrder: 'v1' },
	};
}

const rowsFor = (prefix, n) =>
	Array.from({ length: n }, (_, i) => ({
		name: `${prefix} ${i}`,
		email: `${prefix.replace(/\W+/g, '-')}-${i}@example.com`,
	}));

/** Starts a saved workflow from its Manual Trigger as the editor does, without waiting; returns the execution id. */
async function startManually(ctx, workflowId) {
	const started = await ctx.client.rest('POST', `/workflows/${workflowId}/run`, {
		triggerToStartFrom: { name: MANUAL },
	});
	assert.ok(
		started.executionId,
		`workflow ${workflowId} did not start: ${JSON.stringify(started)}`,
	);
	return String(started.executionId);
}

/** Starts every saved workflow at once, waits for each to finish (within `timeoutMs`) and expects all to succeed; returns the execution ids. */
async function runAllManually(ctx, saved, timeoutMs) {
	const before = maxExecutionId(ctx);
	const started = await Promise.all(saved.map((wf) => startManually(ctx, wf.id)));
	const done = [];
	for (const wf of saved) done.push(...(await waitForFinished(ctx, wf.id, before, 1, timeoutMs)));
	await expectAllSucceeded(ctx, done);
	return started;
}

/** Each of the two executions `started` ran on one worker, and not on the same one (`why` says what needs it); returns the workers each ran on. */
function expectOnBothWorkers(ctx, started, why) {
	const ranOn = whoLogged(ctx.queue.workers, started, 'Worker started execution');
	const workers = started.map((id) => ranOn[id]);
	assert.ok(
		workers.every((w) => w.length === 1),
		`each execution on one worker: ${JSON.stringify(ranOn)}`,
	);
	assert.notEqual(
		workers[0][0],
		workers[1][0],
		`both executions ran on worker ${workers[0][0] + 1}: ${why}`,
	);
	return workers;
}

/** Contacts of the primary organization whose name starts with `prefix`: { names: sorted, byName: Map(name → count) }. */
async function contactsNamed(ctx, prefix) {
	const headers = { authorization: `Bearer ${ctx.sandbox.keys.admin}` };
	const byName = new Map();
	for (let page = 1; page <= 500; page++) {
		const res = await fetch(`${ctx.sandbox.baseUrl}/contacts?pageSize=100&page=${page}`, {
			headers,
		});
		const body = await res.json();
		assert.ok(res.ok, `GET /contacts: ${res.status}`);
		for (const c of body.data)
			if (c.name.startsWith(`${prefix} `)) byName.set(c.name, (byName.get(c.name) || 0) + 1);
		if (!body.meta.hasMore) break;
	}
	return byName;
}

/** created / distinct / twice / lost of the names `<prefix> 0..n-1`. */
async function tally(ctx, prefix, n) {
	const byName = await contactsNamed(ctx, prefix);
	let lost = 0;
	for (let i = 0; i < n; i++) if (!byName.has(`${prefix} ${i}`)) lost++;
	const created = [...byName.values()].reduce((a, b) => a + b, 0);
	return { created, distinct: byName.size, copies: created - byName.size, lost };
}

/**
 * A new contacts key, used once (the sandbox runs scrypt on a key's first use) and left until that
 * request is out of the API's window; its budget in every n8n process of this run runs on
 * `budgetWindowMs` (scripts/n8n/budgetWindows.js). Returns the key and an n8n credential on it.
 */
async function freshKeyCredential(ctx, name, { requestsPerMinute, budgetWindowMs, apiWindowMs }) {
	const key = ctx.sandbox.control.createKey({ scopes: ['contacts.*'], name });
	await fetch(`${ctx.sandbox.baseUrl}/contacts?pageSize=1`, {
		headers: { authorization: `Bearer ${key.key}` },
	});
	await h.sleep((apiWindowMs ?? 0) + 200);
	if (budgetWindowMs) h.rt.useBudgetWindow(key.key, budgetWindowMs);
	const data = {
		...h.rt.credentialData(ctx.sandbox, key.key),
		...(requestsPerMinute ? { requestsPerMinute } : {}),
	};
	const cred = await ctx.client.rest('POST', '/credentials', {
		name,
		type: h.rt.CREDENTIAL_TYPE,
		data,
	});
	return { key, credential: { id: cred.id, name: cred.name } };
}

/** Time (ms) for `n` concurrent Create Contact requests with the admin key, no limit in the way (the last window's work). */
async function burstMs(ctx, n) {
	const headers = {
		authorization: `Bearer ${ctx.sandbox.keys.admin}`,
		'content-type': 'application/json',
	};
	const t = process.hrtime.bigint();
	const answers = await Promise.all(
		Array.from({ length: n }, (_, i) =>
			fetch(`${ctx.sandbox.baseUrl}/contacts`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ name: `e2e-scale-burst ${Date.now()} ${i}` }),
			}).then((r) => r.status),
		),
	);
	const ms = Number(process.hrtime.bigint() - t) / 1e6;
	assert.ok(
		answers.every((s) => s === 201),
		`burst of ${n} creates answered ${answers.join(',')}`,
	);
	return ms;
}

/** POST /contacts answers of a key in the sandbox's request log: { posts, ok, refused, firstMs, lastEndMs }. */
function postsOf(ctx, keyId) {
	const posts = ctx.sandbox.control
		.requestLog()
		.filter((e) => e.keyId === keyId && e.method === 'POST' && /\/contacts$/.test(e.path));
	const ok = posts.filter((e) => e.status === 201);
	return {
		posts: posts.length,
		ok: ok.length,
		refused: posts.filter((e) => e.status === 429).length,
		firstMs: Math.min(...posts.map((e) => Date.parse(e.time))),
		lastEndMs: Math.max(...ok.map((e) => Date.parse(e.time) + (e.durationMs || 0))),
	};
}

/** The subscription of a workflow in the sandbox, and its signing secret opened from the static data in PostgreSQL. */
async function publishedSubscription(ctx, workflowId) {
	const mine = () =>
		ctx.sandbox.control
			.webhooks()
			.filter(
				(w) =>
					w.name.includes(`(${workflowId})`) && w.url.startsWith(`${ctx.webhookBaseUrl}/webhook/`),
			);
	const [sub] = await h.waitFor(() => (mine().length === 1 ? mine() : null), {
		timeoutMs: 30_000,
		what: 'the subscription',
	});
	const entry = await h.waitFor(
		() => {
			const [[json]] = ctx.queue.pg.query(
				`select coalesce("staticData"::text, 'null') from workflow_entity where id = '${safeId(workflowId)}'`,
			);
			const e = (JSON.parse(json) || {})[`node:${TRIGGER}`]?.subscriptions?.production;
			return e?.sealedSecret ? e : null;
		},
		{ timeoutMs: 15_000, what: 'the static data in PostgreSQL' },
	);
	const { openSecret } = require(
		path.join(ctx.pkg.root, 'dist', 'nodes', 'BusinessOpsTrigger', 'secretBox.js'),
	);
	return { sub, secret: openSecret(entry.sealedSecret, ctx.sandbox.keys.admin, entry.id) };
}

/** The trigger's output ids and whether No Operation ran, per execution (read from n8n's public API). */
async function deliveryRuns(ctx, ids) {
	const out = [];
	for (const id of ids) {
		const ex = await ctx.client.waitForExecution(id, { timeoutMs: 30_000 });
		out.push({
			id,
			status: ex.status,
			event: h.rt.nodeOutput(ex, TRIGGER)?.[0]?.deliveryId,
			passed: (h.rt.nodeOutput(ex, NOOP) || []).length,
		});
	}
	return out;
}

module.exports = {
	area: 'scale',
	steps: [
		{
			name: 'deliveries through the relay spread over both webhook processes: each verified and run once; forged ones refused by both',
			timeoutMs: 180_000,
			async run(ctx) {
				const { webhooks, relay } = ctx.queue;
				assert.ok(
					webhooks.length >= 2,
					`this area needs 2 webhook processes (QUEUE_WEBHOOKS), the run has ${webhooks.length}`,
				);
				const wf = await ctx.client.createWorkflow(deliveryWorkflow(ctx.credentials.admin));
				await ctx.client.publishWorkflow(wf.id);
				const { sub, secret } = await publishedSubscription(ctx, wf.id);
				ctx.state.scale = { workflowId: wf.id, sub, secret };
				// the webhook processes register the path a moment after publishing: wait until both answer it
				const { pathname } = new URL(sub.url);
				for (const hook of webhooks) {
					await h.waitFor(
						async () =>
							(
								await post(`${hook.baseUrl}${pathname}`, {
									body: '{}',
									headers: { 'content-type': 'application/json' },
								})
							).status === 401,
						{
							timeoutMs: 30_000,
							what: `webhook process on port ${hook.port} to serve ${pathname}`,
						},
					);
				}
				const n = 20;
				const before = maxExecutionId(ctx);
				const counts0 = relay.counts();
				const sent = [];
				const answers = await pool(n, 4, async (i) => {
					const d = signedDelivery(secret, EVENT, { id: `inv_spread${i}`, status: 'paid' });
					sent.push(d.id);
					return (await post(sub.url, d)).status;
				});
				assert.ok(
					answers.every((s) => s === 200),
					`answers: ${answers.join(', ')}`,
				);
				const counts1 = relay.counts();
				const perTarget = webhooks.map(
					(h) =>
						(counts1[new URL(h.baseUrl).origin] || 0) - (counts0[new URL(h.baseUrl).origin] || 0),
				);
				const list = await waitForFinished(ctx, wf.id, before, n, 120_000);
				assert.equal(list.length, n, `${list.length} executions for ${n} deliveries`);
				await expectAllSucceeded(ctx, list);
				const ids = list.map((e) => e.id);
				const enqueuedBy = whoLogged(webhooks, ids, 'Enqueued execution');
				const notOnce = ids.filter((id) => enqueuedBy[id].length !== 1);
				assert.deepEqual(notOnce, [], 'executions not enqueued by exactly one webhook process');
				const perProcess = webhooks.map(
					(_, i) => ids.filter((id) => enqueuedBy[id][0] === i).length,
				);
				assert.ok(
					perProcess.every((c) => c > 0),
					`the deliveries did not spread: executions enqueued per webhook process ${perProcess.join(' / ')} (relay forwarded ${perTarget.join(' / ')})`,
				);
				assert.deepEqual(
					perProcess,
					perTarget,
					'what each webhook process enqueued differs from what the relay forwarded to it',
				);
				const ranOn = whoLogged(ctx.queue.workers, ids, 'Worker started execution');
				assert.deepEqual(
					ids.filter((id) => ranOn[id].length !== 1),
					[],
					'executions not run by exactly one worker',
				);
				const runs = await deliveryRuns(ctx, ids);
				assert.deepEqual(
					runs.map((r) => r.event).sort(),
					[...sent].sort(),
					'the executions do not hold each delivery once',
				);
				assert.ok(
					runs.every((r) => r.passed === 1),
					'No Operation did not run for a delivery',
				);
				// forged: refused by each webhook process itself
				const forgedAnswers = [];
				for (const h of webhooks) {
					const forged = signedDelivery(
						`whsec_${crypto.randomBytes(24).toString('base64')}`,
						EVENT,
						{ id: 'inv_forged' },
					);
					forgedAnswers.push((await post(`${h.baseUrl}${pathname}`, forged)).status);
				}
				assert.deepEqual(
					forgedAnswers,
					webhooks.map(() => 401),
					`forged deliveries: ${forgedAnswers.join(', ')}`,
				);
				await h.sleep(1500);
				assert.equal(
					executionsOf(ctx, wf.id, before).length,
					n,
					'a forged delivery started an execution',
				);
				const workersUsed = ctx.queue.workers.map(
					(_, i) => ids.filter((id) => ranOn[id][0] === i).length,
				);
				figure(
					ctx,
					`spread: ${n} signed deliveries through the relay → enqueued ${perProcess.join(' + ')} by the ${webhooks.length} webhook processes, run ${workersUsed.join(' + ')} by the ${ctx.queue.workers.length} workers, each once; forged: 401 from each webhook process`,
				);
				return `relay forwarded ${perTarget.join(' / ')}; enqueued ${perProcess.join(' / ')} per webhook process; run ${workersUsed.join(' / ')} per worker; ${n} executions, each delivery once; forged → ${forgedAnswers.join(', ')}`;
			},
		},
		{
			name: 'Ignore Repeated Deliveries is per webhook process: the same signed delivery sent to each runs once per process; Remove Duplicates on deliveryId lets one through; behind affinity by path, a retry signed anew is ignored',
			timeoutMs: 180_000,
			async run(ctx) {
				assert.ok(ctx.state.scale, 'needs the previous step');
				await ctx.client.unpublishWorkflow(ctx.state.scale.workflowId);
				const { webhooks } = ctx.queue;
				const dedupe = await ctx.client.createWorkflow(
					deliveryWorkflow(ctx.credentials.admin, { dedupe: true }),
				);
				await ctx.client.publishWorkflow(dedupe.id);
				const workflowId = dedupe.id;
				const { sub, secret } = await publishedSubscription(ctx, workflowId);
				for (const hook of webhooks) {
					await h.waitFor(
						async () =>
							(
								await post(`${hook.baseUrl}${new URL(sub.url).pathname}`, {
									body: '{}',
									headers: { 'content-type': 'application/json' },
								})
							).status === 401,
						{
							timeoutMs: 30_000,
							what: `webhook process on port ${hook.port} to serve the path`,
						},
					);
				}
				const { pathname } = new URL(sub.url);
				const d = signedDelivery(secret, EVENT, { id: 'inv_repeat', status: 'paid' });
				const before = maxExecutionId(ctx);
				const answers = [];
				// one after another: each execution finishes before the same delivery goes to the next process
				for (const [i, h] of webhooks.entries()) {
					const r = await post(`${h.baseUrl}${pathname}`, d);
					answers.push(`process ${i + 1}: ${r.status} ${r.text}`);
					assert.equal(r.status, 200, answers[answers.length - 1]);
					await waitForFinished(ctx, workflowId, before, i + 1, 60_000);
				}
				// again to each: now every process remembers the id
				const repeats = [];
				for (const [i, h] of webhooks.entries()) {
					const r = await post(`${h.baseUrl}${pathname}`, d);
					repeats.push(`process ${i + 1}: ${r.status} ${r.text}`);
					assert.equal(r.status, 200, repeats[repeats.length - 1]);
					assert.match(
						r.text,
						/repeated delivery/,
						`process ${i + 1} did not ignore the repeat: ${r.text}`,
					);
				}
				await h.sleep(2000);
				const list = executionsOf(ctx, workflowId, before);
				assert.equal(
					list.length,
					webhooks.length,
					`${list.length} executions for one delivery sent twice to each of ${webhooks.length} webhook processes`,
				);
				const enqueuedBy = whoLogged(
					webhooks,
					list.map((e) => e.id),
					'Enqueued execution',
				);
				assert.deepEqual(
					list.map((e) => enqueuedBy[e.id]).sort(),
					webhooks.map((_, i) => [i]),
					'each webhook process should have enqueued one execution',
				);
				const runs = await deliveryRuns(
					ctx,
					list.map((e) => e.id),
				);
				assert.ok(
					runs.every((r) => r.status === 'success' && r.event === d.id),
					JSON.stringify(runs),
				);
				const passed = runs.reduce((a, r) => a + r.passed, 0);
				assert.equal(
					passed,
					1,
					`Remove Duplicates on deliveryId let ${passed} of ${runs.length} executions through`,
				);
				// the remedy docs/scale.md gives first: a load balancer that sends each URL to one webhook
				// process. Through a relay with affinity by path, the API's retry of a delivery (the same id,
				// signed anew) reaches the process that accepted it, and is ignored there.
				const affine = await startRelay({ targets: webhooks.map((h) => h.baseUrl), by: 'path' });
				let affinity;
				try {
					const before2 = maxExecutionId(ctx);
					const first = signedDelivery(secret, EVENT, { id: 'inv_affine', status: 'paid' });
					const a1 = await post(`${affine.baseUrl}${pathname}`, first);
					assert.equal(a1.status, 200, `through the affine relay: ${a1.status} ${a1.text}`);
					await waitForFinished(ctx, workflowId, before2, 1, 60_000);
					const retry = resigned(secret, first, Math.floor(Date.now() / 1000) + 1);
					const a2 = await post(`${affine.baseUrl}${pathname}`, retry);
					assert.equal(a2.status, 200, a2.text);
					assert.match(
						a2.text,
						/repeated delivery/,
						`the retry through the affine relay was not ignored: ${a2.text}`,
					);
					const used = Object.values(affine.counts()).filter((c) => c > 0);
					assert.deepEqual(
						used,
						[2],
						`the affine relay spread one path over processes: ${JSON.stringify(affine.counts())}`,
					);
					await h.sleep(1500);
					assert.equal(
						executionsOf(ctx, workflowId, before2).length,
						1,
						'the retry through the affine relay started an execution',
					);
					affinity =
						'behind affinity by path, the retry (signed anew) reached the same process: 200 "repeated delivery", no execution';
				} finally {
					await affine.stop();
				}
				await ctx.client.unpublishWorkflow(workflowId);
				figure(
					ctx,
					`repeats: one signed delivery sent to each of ${webhooks.length} webhook processes with Ignore Repeated Deliveries on → ${list.length} executions (one per process); sent again to each → 200 "repeated delivery", nothing started; Remove Duplicates on deliveryId (executions one after another) let 1 through; ${affinity}`,
				);
				return `first sends: ${answers.map((a) => a.slice(0, 40)).join('; ')}; repeats: ${repeats.map((a) => a.slice(0, 60)).join('; ')}; ${list.length} executions, ${passed} past Remove Duplicates`;
			},
		},
		{
			name: 'two workflows of 100 Contact → Create on both workers at once, one key, 120 per 6 s, refusals counted: all 200 created once, none lost',
			timeoutMs: 300_000,
			async run(ctx) {
				const control = ctx.sandbox.control;
				const previous = control.rateLimit();
				const prefix = `e2e-scale-two-${Date.now()}`;
				// the last window's work without any limit: 80 creates at once (the minimum's last part)
				const windows = Math.ceil(200 / SCALED.limit) - 1;
				const lastWindow = 200 - windows * SCALED.limit;
				const bursts = [
					await burstMs(ctx, lastWindow),
					await burstMs(ctx, lastWindow),
					await burstMs(ctx, lastWindow),
				].sort((a, b) => a - b);
				const minimumMs = windows * SCALED.windowMs + bursts[1];
				// the credential's default, 120 a minute, with its budget window scaled as the API's is
				const { key, credential } = await freshKeyCredential(ctx, prefix, {
					budgetWindowMs: SCALED.windowMs,
					apiWindowMs: SCALED.windowMs,
				});
				const saved = [];
				for (const w of [0, 1])
					saved.push(
						await ctx.client.createWorkflow(
							contactsWorkflow(`e2e ${prefix} ${w}`, rowsFor(`${prefix} ${w}`, 100), credential),
						),
					);
				control.clearRequestLog();
				control.setRateLimit(SCALED);
				control.setCountRefused(true);
				let started;
				try {
					started = await runAllManually(ctx, saved, 240_000);
				} finally {
					control.setRateLimit(previous);
					control.setCountRefused(false);
				}
				const workers = expectOnBothWorkers(
					ctx,
					started,
					'the step needs both workers writing at once',
				);
				const api = postsOf(ctx, key.id);
				const [e0, e1] = started.map((id) =>
					executionsOf(ctx, saved[started.indexOf(id)].id).find((e) => e.id === id),
				);
				const overlapMs =
					Math.min(e0.stoppedAt, e1.stoppedAt) - Math.max(e0.startedAt, e1.startedAt);
				assert.ok(overlapMs > 0, 'the two executions did not run at the same time');
				const wallMs = Math.max(e0.stoppedAt, e1.stoppedAt) - Math.min(e0.startedAt, e1.startedAt);
				const t = {
					0: await tally(ctx, `${prefix} 0`, 100),
					1: await tally(ctx, `${prefix} 1`, 100),
				};
				const copies = t[0].copies + t[1].copies;
				const lost = t[0].lost + t[1].lost;
				assert.equal(copies, 0, `${copies} contact(s) created twice`);
				assert.equal(lost, 0, `${lost} contact(s) lost`);
				assert.equal(t[0].distinct + t[1].distinct, 200);
				assert.equal(api.ok, 200, `${api.ok} creates answered 201`);
				const ratio = wallMs / minimumMs;
				const apiRatio = (api.lastEndMs - api.firstMs) / minimumMs;
				ctx.state.figures.twoWorkers = {
					wallMs,
					minimumMs,
					ratio,
					refused: api.refused,
					posts: api.posts,
					copies,
					lost,
				};
				figure(
					ctx,
					`two workers, one key, 120 per 6 s (refusals counted), 2 × 100 creates at once with the default credential (120 a minute, each worker its own budget): 200 of 200 created, ${copies} copies, ${lost} lost, ${api.refused} refused of ${api.posts} requests; wall time ${secs(wallMs)} = ${ratio.toFixed(2)}x the minimum ${secs(minimumMs)} (at the API ${apiRatio.toFixed(2)}x)`,
				);
				return `executions ${started.join(' + ')} on workers ${workers.map((w) => w[0] + 1).join(' + ')}, overlapping ${secs(overlapMs)}; 200 created once, 0 lost; ${api.refused} of ${api.posts} requests refused (429); wall ${secs(wallMs)} vs minimum ${secs(minimumMs)} (${ratio.toFixed(2)}x; first request to last answer ${apiRatio.toFixed(2)}x)`;
			},
		},
		{
			name: 'two overlapping Create or Update executions for one new address on the two workers (API 300 ms late, contacts may share an e-mail): the contacts that result, counted',
			timeoutMs: 180_000,
			async run(ctx) {
				const control = ctx.sandbox.control;
				const email = `e2e-scale-overlap-${Date.now()}@example.com`;
				const saved = [];
				// a key each, so that the request log tells the two executions' requests apart
				const keys = [];
				for (const w of [0, 1]) {
					const { key, credential } = await freshKeyCredential(
						ctx,
						`e2e scale overlap ${w} ${Date.now()}`,
						{},
					);
					keys.push(key);
					saved.push(
						await ctx.client.createWorkflow(
							contactsWorkflow(
								`e2e scale overlap ${w}`,
								[{ email, name: `Overlap ${w}` }],
								credential,
								'upsert',
							),
						),
					);
				}
				control.clearRequestLog();
				const readings = control.readings();
				control.setReadings({ duplicateContactEmails: true });
				control.setLatency(300);
				let started;
				try {
					started = await runAllManually(ctx, saved, 120_000);
				} finally {
					control.setLatency(0);
					control.setReadings({ duplicateContactEmails: readings.duplicateContactEmails });
				}
				const workers = expectOnBothWorkers(ctx, started, 'the step needs one on each');
				const headers = { authorization: `Bearer ${ctx.sandbox.keys.admin}` };
				let count = 0;
				for (let page = 1; page <= 500; page++) {
					const body = await (
						await fetch(`${ctx.sandbox.baseUrl}/contacts?pageSize=100&page=${page}`, { headers })
					).json();
					count += body.data.filter((c) => String(c.email).toLowerCase() === email).length;
					if (!body.meta.hasMore) break;
				}
				assert.ok(count >= 1 && count <= 2, `${count} contacts with the address`);
				// whether each execution's list read ended before the other's write was answered (the race window)
				const log = control.requestLog();
				const span = (key) => {
					const mine = log.filter((e) => e.keyId === key.id && /\/contacts(\/|$)/.test(e.path));
					const end = (e) => Date.parse(e.time) + (e.durationMs || 0);
					const reads = mine.filter((e) => e.method === 'GET');
					const write = mine.find((e) => e.method !== 'GET');
					return {
						readEnd: Math.max(...reads.map(end)),
						write: write ? `${write.method} ${write.status}` : 'none',
						writeEnd: write ? end(write) : Infinity,
					};
				};
				const [a, b] = keys.map(span);
				const raced = a.readEnd < b.writeEnd && b.readEnd < a.writeEnd;
				const how = `writes ${a.write} / ${b.write}; ${raced ? 'both list reads ended before either write was answered' : 'one read ended after the other write was answered (no race)'}`;
				ctx.state.figures.overlapAcrossWorkers = { contacts: count, raced };
				figure(
					ctx,
					`two overlapping Create or Update executions for one new address, one on each worker, the API 300 ms late and letting contacts share an e-mail: ${count} contact(s) with that address (${how})`,
				);
				return `executions ${started.join(' + ')} on workers ${workers.map((w) => w[0] + 1).join(' + ')}: ${count} contact(s) with ${email}; ${how}`;
			},
		},
		{
			name: 'a worker SIGKILLed halfway through 100 creates: n8n fails the stalled job and never runs it again; the execution is an error, not a success; Create or Update finishes the job',
			timeoutMs: 420_000,
			async run(ctx) {
				const prefix = `e2e-scale-kill-${Date.now()}`;
				// 5 requests a second on this key (its budget window scaled to 1 s): 100 creates take about 20 s
				const { key, credential } = await freshKeyCredential(ctx, prefix, {
					requestsPerMinute: 5,
					budgetWindowMs: 1000,
					apiWindowMs: 0,
				});
				const rows = rowsFor(prefix, 100);
				const wf = await ctx.client.createWorkflow(
					contactsWorkflow(`e2e ${prefix}`, rows, credential),
				);
				const id = await startManually(ctx, wf.id);
				const worker = await h.waitFor(
					() =>
						ctx.queue.workers.findIndex((w) =>
							idsIn(logText(w), 'Worker started execution').has(id),
						) + 1,
					{
						timeoutMs: 30_000,
						what: `a worker to start execution ${id}`,
					},
				);
				const victim = ctx.queue.workers[worker - 1];
				await h.waitFor(() => postsOf(ctx, key.id).ok >= 40, {
					timeoutMs: 120_000,
					intervalMs: 100,
					what: '40 of the 100 creates',
				});
				const pid = victim.proc.pid;
				assert.ok(groupKill(pid, 'SIGKILL'), `could not SIGKILL worker ${worker} (pid ${pid})`);
				const killedAt = Date.now();
				await h.sleep(1000);
				const atKill = postsOf(ctx, key.id).ok;
				assert.ok(
					atKill < 100,
					`all ${atKill} creates were sent before the kill: it came too late`,
				);
				// n8n: the job's lock runs out (QUEUE_WORKER_LOCK_DURATION; 60 s by default, 30 s in this run),
				// the other worker's stalled-job check (every QUEUE_WORKER_STALLED_INTERVAL; 30 s, here 15 s)
				// fails it (maxStalledCount 0), and the main, which enqueued it and waits for it, rechecks
				// the execution for 30 s and records it as an error.
				const outcome = await h.waitFor(
					() => {
						const [e] = executionsOf(ctx, wf.id).filter((x) => x.id === id);
						return e && DONE.includes(e.status) ? e : null;
					},
					{
						timeoutMs: 300_000,
						intervalMs: 1000,
						what: `n8n to finish execution ${id} after the kill`,
					},
				);
				const outcomeSeconds = (Date.now() - killedAt) / 1000;
				const full = await ctx.client.waitForExecution(id, { timeoutMs: 30_000 });
				const message = full.data?.resultData?.error?.message || '';
				assert.equal(
					outcome.status,
					'error',
					`execution ${id} after the kill: ${outcome.status} (${message})`,
				);
				assert.match(
					message,
					/failed to be processed too many times and will no longer retry/,
					`execution ${id}'s error`,
				);
				const reported = h.rt.nodeOutput(full, NODE) || [];
				assert.equal(
					reported.length,
					0,
					`the execution reports ${reported.length} item(s) of ${NODE} as done`,
				);
				assert.match(
					logText(ctx.queue.main),
					new RegExp(
						`Problem with execution ${id}: This execution failed to be processed too many times`,
					),
				);
				// never run again: not by the other worker, not later
				await h.sleep(5000);
				const survivors = ctx.queue.workers.filter((w) => w !== victim);
				for (const w of survivors)
					assert.ok(
						!idsIn(logText(w), 'Worker started execution').has(id),
						`another worker ran execution ${id} again`,
					);
				const t1 = await tally(ctx, prefix, 100);
				assert.equal(t1.copies, 0, `${t1.copies} contact(s) created twice`);
				assert.ok(
					t1.distinct >= atKill && t1.distinct < 100,
					`${t1.distinct} created; ${atKill} were answered at the kill`,
				);
				// the killed worker comes back (same folder): it does not run the job again either
				await victim.restart();
				await h.sleep(5000);
				const starts = ctx.queue.workers.reduce(
					(a, w) =>
						a +
						(logText(w).match(new RegExp(`Worker started execution ${id} \\(job`, 'g')) || [])
							.length,
					0,
				);
				assert.equal(starts, 1, `execution ${id} was started ${starts} times`);
				const t2 = await tally(ctx, prefix, 100);
				assert.deepEqual(t2, t1, 'contacts changed after the worker came back');
				const [again] = executionsOf(ctx, wf.id).filter((x) => x.id === id);
				assert.equal(
					again.status,
					'error',
					`after the worker came back the execution is ${again.status}`,
				);
				// what a user does: run the items again with Create or Update (matched on e-mail): nothing twice
				const fix = await ctx.client.createWorkflow(
					contactsWorkflow(`e2e ${prefix} upsert`, rows, ctx.credentials.admin, 'upsert'),
				);
				const rerun = await ctx.client.runManually(fix.id, { timeoutMs: 180_000 });
				assert.equal(rerun.status, 'success', `Create or Update: ${rerun.status}`);
				const t3 = await tally(ctx, prefix, 100);
				assert.deepEqual(
					[t3.distinct, t3.copies, t3.lost],
					[100, 0, 0],
					`after Create or Update: ${JSON.stringify(t3)}`,
				);
				ctx.state.figures.workerKill = {
					created: t1.distinct,
					outcomeSeconds,
					status: outcome.status,
				};
				figure(
					ctx,
					`worker SIGKILLed during 100 creates (${atKill} answered at the kill): ${t1.distinct} exist, none twice; after ${outcomeSeconds.toFixed(0)} s n8n marked execution ${id} "${outcome.status}" ("${message.slice(0, 60)}…"), reporting no item as done; no worker ran it again (also after the killed worker restarted); Create or Update of the 100 rows: 100 once`,
				);
				return `worker ${worker} (pid ${pid}) killed at ${atKill} creates; ${t1.distinct} exist, 0 twice; execution ${id} ${outcome.status} after ${outcomeSeconds.toFixed(0)} s: "${message}"; not run again; Create or Update: 100 contacts once`;
			},
		},
		{
			name: 'the main SIGKILLed while a scheduled poll walks its list: the polling state does not move; the poll at the next start emits each change once, the next poll nothing',
			timeoutMs: 360_000,
			async run(ctx) {
				const { control } = ctx.sandbox;
				if (!ctx.state.polling) await polling.helpers.setUpPolling(ctx);
				const { newPollingWorkflow, pollDone, expectEmitted, createQuote, api } = polling.helpers;
				const listed = await fetch(`${ctx.sandbox.baseUrl}/quotes?pageSize=1`, {
					headers: { authorization: `Bearer ${ctx.state.polling.key}` },
				}).then((r) => r.json());
				const quotes = Math.max(listed.meta.total, 350);
				if (listed.meta.total < quotes)
					control.seed({ resource: 'quotes', count: quotes - listed.meta.total });
				const own = ctx.sandbox.control.createKey({
					scopes: ['*'],
					organization: 'primary',
					name: 'e2e scale: main kill',
				});
				const cred = await polling.helpers.pollingCredential(
					ctx,
					ctx.client,
					own.key,
					'Business Ops (scale: main kill)',
				);
				const wf = await newPollingWorkflow(
					ctx,
					'e2e scale: poll while the main dies',
					['quote.created', 'quote.approved'],
					{ credential: cred },
				);
				const QUOTES = ['/v1/quotes'];
				const took = [];
				let mark = Date.now();
				const lap = (what) => {
					took.push(`${what} ${secs(Date.now() - mark)}`);
					mark = Date.now();
				};
				// the first poll (at publishing) remembers what exists
				let since = Date.now();
				await ctx.client.publishWorkflow(wf.id);
				await pollDone(ctx, since, QUOTES, 90_000, own.id);
				await expectEmitted(ctx, wf.id, [], []);
				const staticData = () =>
					ctx.queue.pg.query(
						`select coalesce("staticData"::text, 'null') from workflow_entity where id = '${safeId(wf.id)}'`,
					)[0][0];
				const stateBefore = staticData();
				assert.notEqual(stateBefore, 'null', 'the first poll saved no state');
				lap('first poll');
				// Changes the next poll must emit once, made while the API answers slowly (3 s a request);
				// the next poll on n8n's own schedule (every minute) then walks the list slowly, and the
				// main is killed once its first page is answered (whether or not it already sees the changes).
				const beforeKill = maxExecutionId(ctx);
				const pid = ctx.queue.main.proc.pid;
				let created;
				let sent;
				let killedAt;
				let stop = false;
				since = Date.now();
				control.setLatency(3000);
				try {
					const firstPage = () =>
						ctx.sandbox.control
							.requestLog()
							.some(
								(e) => e.keyId === own.id && e.path === '/v1/quotes' && Date.parse(e.time) >= since,
							);
					const kill = h
						.waitFor(() => stop || firstPage(), {
							timeoutMs: 100_000,
							intervalMs: 50,
							what: 'the first page of the next scheduled poll',
						})
						.then(() => {
							if (stop) return;
							assert.ok(groupKill(pid, 'SIGKILL'), `could not SIGKILL the main (pid ${pid})`);
							killedAt = Date.now();
						});
					const changes = (async () => {
						created = await createQuote(ctx);
						sent = (await api(ctx, 'GET', '/quotes?page=1&pageSize=100')).find(
							(q) => q.status === 'sent',
						);
						assert.ok(sent, 'no sent quote on the first page');
						await api(ctx, 'PATCH', `/quotes/${sent.id}`, { status: 'approved' });
					})();
					await Promise.all([kill, changes]);
				} finally {
					stop = true;
					control.setLatency(0);
				}
				lap('kill');
				const pagesAtKill = ctx.sandbox.control
					.requestLog()
					.filter(
						(e) => e.keyId === own.id && e.path === '/v1/quotes' && Date.parse(e.time) >= since,
					).length;
				await h.sleep(4000);
				assert.equal(
					executionsOf(ctx, wf.id, beforeKill).length,
					0,
					'the killed poll created an execution',
				);
				assert.equal(staticData(), stateBefore, "the killed poll moved the trigger's state");
				// the main comes back: n8n activates the workflow and polls once at once
				since = Date.now();
				await ctx.queue.main.restart();
				const restartSeconds = (Date.now() - killedAt) / 1000;
				lap('restart');
				await h.waitFor(
					() =>
						ctx.sandbox.control
							.requestLog()
							.some(
								(e) => e.keyId === own.id && e.path === '/v1/quotes' && Date.parse(e.time) >= since,
							),
					{
						timeoutMs: 120_000,
						what: 'the poll at activation',
					},
				);
				lap('activation');
				await pollDone(ctx, since, QUOTES, 120_000, own.id);
				const seen = await expectEmitted(
					ctx,
					wf.id,
					[],
					[`quote.created ${created}`, `quote.approved ${sent.id}`],
				);
				lap('poll at start');
				// the poll after that: nothing twice
				await ctx.client.unpublishWorkflow(wf.id);
				since = Date.now();
				await ctx.client.publishWorkflow(wf.id);
				await pollDone(ctx, since, QUOTES, 90_000, own.id);
				await expectEmitted(ctx, wf.id, seen, []);
				await ctx.client.unpublishWorkflow(wf.id);
				lap('next poll');
				figure(
					ctx,
					`main SIGKILLed during a scheduled poll (${pagesAtKill} of ${Math.ceil(quotes / 100)} pages answered): no execution, static data unchanged; after the restart (${restartSeconds.toFixed(0)} s) the poll at activation emitted the 2 changes once; the next poll nothing`,
				);
				return `killed after ${pagesAtKill} page(s); no execution and the state unchanged; restarted in ${restartSeconds.toFixed(0)} s; quote.created ${created} and quote.approved ${sent.id} emitted once; nothing at the next poll (${took.join(', ')})`;
			},
		},
	],
};
