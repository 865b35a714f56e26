#!/usr/bin/env node
// End-to-end tests of this package in n8n queue mode: PostgreSQL + Redis, one n8n main
// (`n8n start`), one worker (`n8n worker`) and one webhook process (`n8n webhook`), all the
// pinned n8n 2.41.1 with this package loaded from dist/, and the local sandbox of the API.
//
//   npm run test:e2e:queue            everything (installs postgresql / redis-server with apt when missing)
//   node scripts/e2e-queue.js contacts trigger   only these reused areas (+ startup and queue)
//   E2E_SKIP_BUILD=1                  use dist/ and build/sandbox/ as they are
//   KEEP_N8N_FOLDER=1 KEEP_QUEUE_FOLDERS=1       keep the n8n, PostgreSQL and Redis temp folders
//   QUEUE_LOAD=400 QUEUE_LOAD_CONCURRENCY=16 QUEUE_SANDBOX_EVENTS=100   size of the throughput steps
//   QUEUE_WORKERS=2                   start more than one worker (each `n8n worker`, concurrency 10)
//
// What runs where:
//   main     API, editor REST, publishing (the trigger subscribes and stores its secret in the
//            workflow's static data in PostgreSQL), manual runs are enqueued (OFFLOAD_MANUAL_
//            EXECUTIONS_TO_WORKERS=true); serves no production webhooks (N8N_DISABLE_PRODUCTION_MAIN_PROCESS)
//   webhook  WEBHOOK_URL points here: every delivery arrives here, is verified (the trigger's
//            webhook() reads the secret from static data loaded from PostgreSQL) and enqueued
//   worker   executes every execution (Redis/Bull queue)
//
// Steps: startup, credentials, contacts, quotes, invoices and trigger from test/e2e/ (the same
// modules as the single-process e2e), then test/e2e/queue.js. One line per step; a failing step
// prints what each n8n process logged meanwhile; the run closes with the figures and
// "N passed, N failed", and exits non-zero on any failure. Always stops everything it started.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');

const rt = require('./n8n');
const services = require('./queue/services');
const { requireOperationOf, runSteps, secs, withTimeout } = require('../test/e2e/runner');

const REUSED_AREAS = ['startup', 'credentials', 'contacts', 'quotes', 'invoices', 'trigger', 'writes'];
const started = Date.now();
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const out = (line) => process.stdout.write(`${line}\n`);
const envInt = (name, dflt) => {
	const v = Number.parseInt(process.env[name] || '', 10);
	return Number.isFinite(v) && v > 0 ? v : dflt;
};

const CONFIG = {
	workers: envInt('QUEUE_WORKERS', 1),
	workerConcurrency: envInt('QUEUE_WORKER_CONCURRENCY', 10),
	sandboxEvents: envInt('QUEUE_SANDBOX_EVENTS', 100),
	load: { total: envInt('QUEUE_LOAD', 400), concurrency: envInt('QUEUE_LOAD_CONCURRENCY', 16) },
	rateLimit: { limit: 10, windowMs: 5000, executions: 40 },
};


const procs = { pg: undefined, redis: undefined, sandbox: undefined, main: undefined, workers: [], webhook: undefined };
let stopped;
let interrupted = false;
const counts = { passed: 0, failed: 0, skipped: 0 };
const timings = {};

/** Stops everything this run started, in order, each wait bounded (once). */
function stopAll() {
	stopped ??= (async () => {
		const quiet = (what, p) => Promise.resolve(p).catch((e) => out(`[queue] stopping ${what}: ${e.message}`));
		await Promise.all([
			procs.webhook && quiet('the webhook process', procs.webhook.dispose()),
			...procs.workers.map((w, i) => quiet(`worker ${i + 1}`, w.dispose())),
		]);
		if (procs.main) await quiet('the main', procs.main.dispose());
		await Promise.all([procs.redis && quiet('redis', procs.redis.stop()), procs.pg && quiet('postgres', procs.pg.stop())]);
		if (procs.sandbox) await quiet('the sandbox', procs.sandbox.stop());
	})();
	return stopped;
}

for (const sig of ['SIGINT', 'SIGTERM']) {
	process.once(sig, () => {
		interrupted = true;
		out(`[queue] ${sig}: stopping n8n, PostgreSQL, Redis and the sandbox; no further steps run`);
		const hard = setTimeout(() => process.exit(130), 90_000);
		hard.unref();
		stopAll().finally(() => {
			out(`${counts.passed} passed, ${counts.failed + 1} failed`);
			process.exit(130);
		});
	});
}
process.on('exit', () => {
	for (const h of [procs.main, ...procs.workers, procs.webhook]) rt.killN8nNow(h);
});

// ----- logs -----

const n8nProcs = () =>
	[['main', procs.main], ...procs.workers.map((w, i) => [procs.workers.length > 1 ? `worker ${i + 1}` : 'worker', w]), ['webhook', procs.webhook]].filter(([, h]) => h);

function fileSize(file) {
	try {
		return fs.statSync(file).size;
	} catch {
		return 0;
	}
}

function textSince(file, offset) {
	try {
		const fd = fs.openSync(file, 'r');
		const size = fs.fstatSync(fd).size;
		const buf = Buffer.alloc(Math.max(0, size - offset));
		fs.readSync(fd, buf, 0, buf.length, offset);
		fs.closeSync(fd);
		return buf.toString('utf8');
	} catch {
		return '';
	}
}

function logOffsets() {
	return Object.fromEntries(n8nProcs().map(([name, h]) => [name, fileSize(h.logFile)]));
}

function printBlock(title, text, maxLines) {
	const lines = text.split('\n').filter((l) => l.trim());
	if (!lines.length) return;
	out(`    ----- ${title} -----`);
	for (const line of lines.slice(-maxLines)) out(`    | ${line}`);
	out('    -----');
}

/** What each n8n process logged since `offsets` (a failing step). */
function printLogsSince(offsets, maxLines = 30) {
	for (const [name, h] of n8nProcs()) printBlock(`${name} logged during this step`, textSince(h.logFile, offsets[name] || 0), maxLines);
}

/** The tail of every log (after a failure, before the temp folders go). */
function printAllTails(lines = 40) {
	out('[queue] tails of the logs:');
	for (const [name, h] of n8nProcs()) printBlock(`${name}: ${h.logFile}`, h.tail(lines), lines);
	if (procs.pg) printBlock(`postgres: ${procs.pg.logFile}`, procs.pg.tail(15), 15);
	if (procs.redis) printBlock(`redis: ${procs.redis.logFile}`, procs.redis.tail(10), 10);
}

// ----- setup -----

async function setup() {
	const phase = async (name, fn) => {
		const t = Date.now();
		out(`[queue] setup: ${name} …`);
		const r = await fn();
		timings[name] = Date.now() - t;
		out(`[queue] setup: ${name} … ok (${secs(Date.now() - t)})${typeof r === 'string' ? ` ${r}` : ''}`);
		return r;
	};
	const sub = (l) => out(`[queue]   ${l}`);

	const runtime = await phase('n8n runtime (pinned n8n 2.41.1 + Node 24)', async () => rt.ensureRuntime({ log: sub }));
	await phase('PostgreSQL and Redis from Debian packages', async () => {
		const installed = services.ensureDebianPackages({ log: sub });
		return installed.length ? `installed ${installed.join(', ')}` : `present (${services.postgresBinDir()}, ${services.redisServerBin()})`;
	});
	if (!process.env.E2E_SKIP_BUILD) {
		await phase('npm run build', async () => rt.buildPackage());
		await phase('build the sandbox', async () => rt.buildSandbox());
	}
	await phase('start PostgreSQL and Redis (private, 127.0.0.1, temp folders)', async () => {
		const [pg, redis] = await Promise.all([services.startPostgres({ log: sub }), services.startRedis({ log: sub })]);
		procs.pg = pg;
		procs.redis = redis;
		return `postgres :${pg.port}, redis :${redis.port}`;
	});
	procs.sandbox = await phase('start the sandbox', async () =>
		// The per-key rate limit is raised so the run is not throttled; rate-limit steps lower it themselves.
		rt.startSandbox({ port: 0, rateLimit: { limit: 1_000_000, windowMs: 60_000 } }),
	);

	const encryptionKey = crypto.randomBytes(24).toString('hex');
	const webhookPort = await rt.freePort(0);
	const webhookUrl = `http://127.0.0.1:${webhookPort}/`;
	const queueEnv = {
		...procs.pg.n8nEnv(),
		...procs.redis.n8nEnv(),
		EXECUTIONS_MODE: 'queue',
		// Manual runs (the editor's Execute button, used by the e2e steps) go to the worker too.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// Every process builds the same production webhook URLs: the webhook process.
		WEBHOOK_URL: webhookUrl,
		N8N_CONCURRENCY_PRODUCTION_LIMIT: String(CONFIG.workerConcurrency),
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '15',
	};
	const common = { runtime, extensionsDir: rt.DIST_DIR, encryptionKey, log: sub };
	procs.main = await phase('start the n8n main (n8n start, queue mode)', async () =>
		rt.startN8n({ ...common, command: 'start', port: 0, env: { ...queueEnv, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' } }),
	);
	await phase(`start the n8n worker${CONFIG.workers > 1 ? `s (${CONFIG.workers})` : ''} and webhook process`, async () => {
		const starting = [rt.startN8n({ ...common, command: 'webhook', port: webhookPort, env: queueEnv })];
		for (let i = 0; i < CONFIG.workers; i++) starting.push(rt.startN8n({ ...common, command: 'worker', port: 0, env: queueEnv }));
		const settled = await Promise.allSettled(starting);
		const [webhook, ...workers] = settled.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
		procs.webhook = webhook;
		procs.workers = workers.filter(Boolean);
		const failed = settled.find((r) => r.status === 'rejected');
		if (failed) throw failed.reason;
		if (webhook.port !== webhookPort) throw new Error(`port ${webhookPort} was taken before the webhook process started (WEBHOOK_URL points there); run again`);
		return `worker health :${procs.workers.map((w) => w.port).join(', :')}, webhook :${webhook.port}`;
	});

	const client = new rt.N8nClient(procs.main.baseUrl);
	const credentials = {};
	await phase('owner, API key and credentials (on the main)', async () => {
		await client.bootstrap(rt.DEMO_OWNER);
		for (const key of ['admin', 'readOnly', 'contactsOnly', 'otherOrg']) {
			const c = await client.createCredential({
				name: `Business Ops (${key})`,
				type: rt.CREDENTIAL_TYPE,
				data: rt.credentialData(procs.sandbox, procs.sandbox.keys[key]),
			});
			credentials[key] = { id: c.id, name: c.name };
		}
	});
	const nodeType = (await client.nodeTypes()).find((t) => t.name === rt.NODE_TYPES.action);
	return {
		client,
		n8n: procs.main,
		sandbox: procs.sandbox,
		credentials,
		nodeType,
		webhookBaseUrl: procs.webhook.baseUrl,
		queue: { main: procs.main, workers: procs.workers, webhook: procs.webhook, pg: procs.pg, redis: procs.redis, config: CONFIG, cpu: cpuNow },
		state: { figures: {} },
		requireOperation: requireOperationOf(nodeType, rt.NODE_TYPES.action),
	};
}

/** CPU seconds used so far by each process (group): for the throughput steps' CPU split. */
function cpuNow() {
	const usage = process.cpuUsage();
	return {
		main: services.treeCpuSeconds(procs.main?.child?.pid),
		...Object.fromEntries(procs.workers.map((w, i) => [procs.workers.length > 1 ? `worker ${i + 1}` : 'worker', services.treeCpuSeconds(w.child?.pid)])),
		webhook: services.treeCpuSeconds(procs.webhook?.child?.pid),
		postgres: services.treeCpuSeconds(procs.pg?.pid),
		redis: services.treeCpuSeconds(procs.redis?.pid),
		'sandbox + load generator': (usage.user + usage.system) / 1e6,
		// Not a process: the whole machine, so that the rest ("everything else") shows contention.
		machine: services.machineBusyCpuSeconds(),
	};
}

function printFigures(ctx) {
	const f = ctx?.state?.figures || {};
	if (!f.sandbox && !f.load) return;
	out('[queue] figures (2 cores; PostgreSQL, Redis, sandbox, load generator and the 3 n8n processes on one machine):');
	if (f.load) {
		out(`[queue]   webhook process: ${f.load.acceptPerSecond.toFixed(1)} deliveries/s accepted (${f.load.total} signed POSTs, ${f.load.concurrency} concurrent, all 200, in ${f.load.acceptSeconds.toFixed(1)} s)`);
		out(`[queue]   ${CONFIG.workers > 1 ? `${CONFIG.workers} workers` : 'worker'}: ${f.load.workerPerSecond.toFixed(1)} executions/s (trigger → Business Ops Get contact; concurrency ${f.load.workerConcurrency}${CONFIG.workers > 1 ? ' each' : ''}; first start → last stop ${f.load.workerSeconds.toFixed(1)} s)`);
		out(`[queue]   end to end: ${f.load.endToEndPerSecond.toFixed(1)} deliveries/s (first POST → last execution stored, ${f.load.doneSeconds.toFixed(1)} s)`);
		if (f.load.cpu) out(`[queue]   CPU during that load (of ${f.load.cpu.available.toFixed(0)} core-seconds): ${f.load.cpu.text}`);
	}
	if (f.rateLimit) out(`[queue]   rate limit ${f.rateLimit.limit}/${f.rateLimit.windowMs / 1000} s, ${f.rateLimit.n} executions on ${f.rateLimit.workers} worker(s): ${f.rateLimit.refused} refused (429) of ${f.rateLimit.calls} API calls, all executions succeeded, ${f.rateLimit.seconds.toFixed(1)} s`);
	if (f.sandbox) {
		out(`[queue]   sandbox → webhook process, in order: ${f.sandbox.perSecond.toFixed(1)} deliveries/s (${f.sandbox.n} events, avg ${f.sandbox.avgMs.toFixed(0)} ms each); worker ${f.sandbox.workerPerSecond.toFixed(1)} executions/s`);
	}
}

async function main() {
	const reused = require('../test/e2e').filter((m) => REUSED_AREAS.includes(m.area));
	const queueModule = require('../test/e2e/queue');
	const unknown = only.filter((a) => !REUSED_AREAS.includes(a) && a !== 'queue');
	if (unknown.length) throw new Error(`unknown area(s): ${unknown.join(', ')}; known: ${[...REUSED_AREAS, 'queue'].join(', ')}`);
	const selected = [...reused, queueModule].filter((m) => only.length === 0 || ['startup', 'queue'].includes(m.area) || only.includes(m.area));
	const steps = selected.flatMap((m) => m.steps.map((s) => ({ ...s, module: m })));

	let ctx;
	try {
		ctx = await setup();
	} catch (e) {
		out(`[queue] setup FAILED: ${e.message}`);
		if (!e.n8nLogTail) printAllTails(30);
		counts.failed = 1;
		counts.skipped = steps.length;
	}

	if (ctx) {
		await runSteps({
			steps,
			ctx,
			prefix: 'queue',
			counts,
			out,
			isInterrupted: () => interrupted,
			markLogs: logOffsets,
			printLogsSince,
		});
		printFigures(ctx);
	}

	if (interrupted) return;
	if (counts.failed && ctx) printAllTails(40);
	const keep = process.env.KEEP_N8N_FOLDER ? `; n8n folders kept: ${n8nProcs().map(([, h]) => h.userFolder).join(', ')}` : '';
	const tStop = Date.now();
	await stopAll();
	const setupSecs = Object.values(timings).reduce((a, b) => a + b, 0);
	out(`[queue] stopped everything in ${secs(Date.now() - tStop)}; setup took ${secs(setupSecs)}; finished in ${secs(Date.now() - started)}${keep}`);
	const { passed, failed, skipped } = counts;
	out(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
	process.exitCode = failed ? 1 : 0;
}

main().catch(async (e) => {
	out(`[queue] ${e.stack || e}`);
	await stopAll();
	out(`${counts.passed} passed, ${counts.failed + 1} failed`);
	process.exit(1);
});
