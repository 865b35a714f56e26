// Two workers, one key: n8n in queue mode (PostgreSQL and Redis from Debian's packages, private
// servers on 127.0.0.1 as in the queue e2e, scripts/queue/services.js), one main and two workers,
// the package loaded from dist/ (N8N_CUSTOM_EXTENSIONS) in each. Two workflows of 100 Contact →
// Create items are started together, so that both workers write at once on one API key, against
// the sandbox limited to the API's 120 requests per minute scaled to 120 per 6 s, refused requests
// counted by the API. Each worker keeps its own budget for the key (the budget lives in the n8n
// process), so with the credential's default (Requests per Minute 120, its window scaled to 6 s
// like the API's) the two together may send twice the limit; with Requests per Minute split per
// worker (60 each) they may not. Reported per setting: items created once, copies, lost, refusals,
// and the wall time (first execution start to last stop, n8n's records) as a ratio to the minimum
// measured in the same run: one window plus the time of a burst of the last window's 80 creates.
// Runs on its own (`npm run bench -- scale`) or with the other parts; it starts and stops its own
// n8n processes, PostgreSQL and Redis.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');

const nw = require('./lib/n8n');
const { median, fmtMs } = require('./lib/stats');
const { atMost } = require('./lib/table');
const { warmKey, burstMs } = require('./rateLimit');
const services = require('../scripts/queue/services');

const ITEMS = 100;
const WORKFLOWS = 2;
const LIMIT = { limit: 120, windowMs: 6000 };
const TARGET = 1.25;
const SETTINGS = [
	{
		id: 'default',
		text: 'default credential (Requests per Minute 120 on each worker)',
		requestsPerMinute: undefined,
	},
	{ id: 'split', text: 'Requests per Minute split per worker (60 each)', requestsPerMinute: 60 },
];

/** Execution ids a worker's log names as started ("Worker started execution 12 (job 7)"). */
function startedIn(handle) {
	let text = '';
	try {
		text = fs.readFileSync(handle.logFile, 'utf8');
	} catch {
		return new Set();
	}
	return new Set([...text.matchAll(/Worker started execution (\d+) \(job/g)].map((m) => m[1]));
}

/** Every contact of the key's organization (admin key, the limit lifted by the caller). */
async function allContacts(sandbox) {
	const headers = { authorization: `Bearer ${sandbox.keys.admin}` };
	const out = [];
	for (let page = 1; page <= 100; page++) {
		const body = await (
			await fetch(`${sandbox.baseUrl}/contacts?pageSize=100&page=${page}`, { headers })
		).json();
		out.push(...body.data);
		if (!body.meta.hasMore) break;
	}
	return out;
}

async function run(ctx) {
	const { log } = ctx;
	const runtime = ctx.runtime;
	const installed = services.ensureDebianPackages({ log });
	if (installed.length) log(`installed ${installed.join(', ')} (apt)`);
	const [pg, redis] = await Promise.all([
		services.startPostgres({ log }),
		services.startRedis({ log }),
	]);
	const processes = [];
	const sandbox = await ctx.startSandbox({ seed: false });
	try {
		const encryptionKey = crypto.randomBytes(24).toString('hex');
		const env = {
			...ctx.n8nEnv,
			...pg.n8nEnv(),
			...redis.n8nEnv(),
			EXECUTIONS_MODE: 'queue',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			// the workers' "Worker started execution" lines tell which worker ran what
			N8N_LOG_LEVEL: 'info',
		};
		const start = async (command) => {
			const h = await nw.rt.startN8n({
				runtime,
				command,
				encryptionKey,
				extensionsDir: nw.rt.DIST_DIR,
				port: 0,
				env,
			});
			processes.push(h);
			ctx.ownFolder(h.userFolder);
			return h;
		};
		const main = await start('start');
		const workers = await Promise.all([start('worker'), start('worker')]);
		log(
			`queue mode: main :${main.port}, workers :${workers.map((w) => w.port).join(', :')} (PostgreSQL :${pg.port}, Redis :${redis.port})`,
		);
		const client = await new nw.rt.N8nClient(main.baseUrl).bootstrap(nw.rt.DEMO_OWNER);
		const control = sandbox.control;

		const windows = Math.ceil((ITEMS * WORKFLOWS) / LIMIT.limit) - 1;
		const lastWindow = ITEMS * WORKFLOWS - windows * LIMIT.limit;
		const bursts = [];
		for (let i = 0; i < 3; i++) bursts.push(await burstMs(sandbox, lastWindow));
		const minimum = windows * LIMIT.windowMs + median(bursts);
		log(
			`minimum for ${ITEMS * WORKFLOWS} creates at ${LIMIT.limit} / ${LIMIT.windowMs / 1000} s: ${fmtMs(minimum)} (${windows} window + a burst of ${lastWindow} creates, ${fmtMs(median(bursts))})`,
		);

		for (const setting of SETTINGS) {
			const prefix = `bench-scale-${setting.id}-${Date.now()}`;
			const key = await warmKey(sandbox, prefix);
			nw.rt.useBudgetWindow(key.key, LIMIT.windowMs);
			const data = {
				...nw.rt.credentialData(sandbox, key.key),
				...(setting.requestsPerMinute ? { requestsPerMinute: setting.requestsPerMinute } : {}),
			};
			const cred = await client.rest('POST', '/credentials', {
				name: `bench ${prefix}`,
				type: nw.rt.CREDENTIAL_TYPE,
				data,
			});
			const ids = [];
			for (let w = 0; w < WORKFLOWS; w++) {
				const wf = nw.workflow(`bench: two workers ${prefix} ${w}`, [
					nw.manualTrigger(),
					nw.namesNode('Items', `${prefix} ${w}`, ITEMS),
					nw.node(
						'Business Ops',
						nw.rt.NODE_TYPES.action,
						{
							resource: 'contact',
							operation: 'create',
							name: '={{ $json.name }}',
							additionalFields: {},
						},
						{ credentials: nw.businessOpsCredential(cred) },
					),
				]);
				ids.push((await client.createWorkflow(wf)).id);
			}
			control.setRateLimit(LIMIT);
			control.setCountRefused(true);
			const executionIds = (await Promise.all(ids.map((id) => nw.startManualRun(client, id)))).map(
				String,
			);
			const done = [];
			for (const id of executionIds) {
				done.push(
					await nw.waitFor(
						async () => {
							const ex = await client
								.api('GET', `/executions/${id}`, undefined, { query: { includeData: false } })
								.catch(() => undefined);
							return ex && ex.stoppedAt && !['new', 'running', 'waiting'].includes(ex.status)
								? ex
								: undefined;
						},
						{ timeoutMs: 300_000, intervalMs: 1000, what: `execution ${id}` },
					),
				);
			}
			const posts = control.requestLog().filter((e) => e.keyId === key.id && e.method === 'POST');
			const accepted = posts.filter((e) => e.status === 201);
			const apiSpanMs =
				Math.max(...accepted.map((e) => Date.parse(e.time) + (e.durationMs || 0))) -
				Math.min(...posts.map((e) => Date.parse(e.time)));
			control.setRateLimit({ limit: 1_000_000, windowMs: 60_000 });
			control.setCountRefused(false);
			const byWorker = executionIds.map((id) => workers.findIndex((w) => startedIn(w).has(id)) + 1);
			const wallMs =
				Math.max(...done.map((e) => Date.parse(e.stoppedAt))) -
				Math.min(...done.map((e) => Date.parse(e.startedAt)));
			const counts = new Map();
			for (const c of await allContacts(sandbox))
				if (c.name.startsWith(prefix)) counts.set(c.name, (counts.get(c.name) || 0) + 1);
			let lost = 0;
			for (let w = 0; w < WORKFLOWS; w++)
				for (let i = 0; i < ITEMS; i++) if (!counts.has(`${prefix} ${w} ${i}`)) lost++;
			const created = [...counts.values()].reduce((a, b) => a + b, 0);
			const copies = created - counts.size;
			const refused = posts.filter((e) => e.status === 429).length;
			const statuses = done.map((e) => e.status);
			const twoWorkers = byWorker[0] > 0 && byWorker[1] > 0 && byWorker[0] !== byWorker[1];
			log(
				`${setting.text}: executions ${executionIds.join(', ')} on workers ${byWorker.join(', ')} (${statuses.join(', ')}), ${counts.size} distinct of ${ITEMS * WORKFLOWS}, ${copies} copies, ${lost} lost, ${refused} refused of ${posts.length} requests, ${fmtMs(wallMs)} (at the API ${fmtMs(apiSpanMs)})`,
			);
			const good =
				statuses.every((s) => s === 'success') && lost === 0 && copies === 0 && twoWorkers;
			if (!good) {
				ctx.fail(
					`two workers, ${setting.text}`,
					`executions ${statuses.join(', ')} on workers ${byWorker.join(', ')}${twoWorkers ? '' : ' (not one on each worker)'}; ${counts.size} of ${ITEMS * WORKFLOWS} created, ${copies} copies, ${lost} lost`,
				);
			}
			const section = `Two workers, one key: 2 × ${ITEMS} Create Contact items at once, ${LIMIT.limit} req / ${LIMIT.windowMs / 1000} s, refusals counted, ${setting.text}`;
			ctx.row({
				section,
				name: 'Items created once / copies / lost / refusals',
				measured: `${counts.size} of ${ITEMS * WORKFLOWS}, ${copies} copies, ${lost} lost, ${refused} refused`,
				baseline: '-',
				target: `all ${ITEMS * WORKFLOWS}, 0 copies, 0 lost; refusals reported`,
				verdict: good ? 'met' : 'FAIL',
				detail: `contacts counted by name in the sandbox after the run; ${posts.length} POST /contacts sent by the two workers (executions on workers ${byWorker.join(' and ')})`,
			});
			ctx.row({
				section,
				name: 'Wall time vs minimum (first execution start to last stop)',
				measured: fmtMs(wallMs),
				baseline: `minimum ${fmtMs(minimum)}`,
				ratio: wallMs / minimum,
				target: `<= ${TARGET}x`,
				verdict: atMost(wallMs / minimum, TARGET),
				detail: `startedAt/stoppedAt of the two executions in n8n; minimum = ${windows} window × ${LIMIT.windowMs / 1000} s + a burst of ${lastWindow} concurrent creates measured with fetch (${fmtMs(median(bursts))}); budget window of the key scaled to ${LIMIT.windowMs / 1000} s (harness); ${setting.requestsPerMinute ? `credential Requests per Minute ${setting.requestsPerMinute} in each worker` : 'credential default 120 per minute in each worker'}`,
			});
			ctx.row({
				section,
				name: 'Pacing at the API (first request to last answer) vs minimum',
				measured: fmtMs(apiSpanMs),
				baseline: `minimum ${fmtMs(minimum)}`,
				ratio: apiSpanMs / minimum,
				target: `<= ${TARGET}x`,
				verdict: atMost(apiSpanMs / minimum, TARGET),
				detail: `from the sandbox's request log; the wall time above also holds each worker taking its job, loading the workflow and n8n's RoutingNode building every item's request before the first is sent (${fmtMs(wallMs - apiSpanMs)} here)`,
			});
		}
	} finally {
		for (const h of processes.reverse()) await h.dispose().catch(() => {});
		await Promise.all([redis.stop().catch(() => {}), pg.stop().catch(() => {})]);
		await sandbox.stop().catch(() => {});
	}
}

module.exports = { name: 'scale', run };
