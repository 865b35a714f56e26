#!/usr/bin/env node
// End-to-end tests of this package in n8n queue mode: PostgreSQL + Redis, one n8n main
// (`n8n start`), two workers (`n8n worker`) and two webhook processes (`n8n webhook`) behind a
// round-robin relay (scripts/queue/relay.js, the load balancer), all the pinned n8n 2.41.x, and
// the local sandbox of the API. The package is installed the way users install it in queue mode:
// through the main's Community Nodes installer only (from a local registry); the workers and the
// webhook processes get it through n8n's own pub/sub.
//
//   npm run test:e2e:queue            everything (installs postgresql / redis-server with apt when missing)
//   node scripts/e2e-queue.js contacts trigger   only these reused areas (+ startup, install, queue, scale)
//   KEEP_N8N_FOLDER=1 KEEP_QUEUE_FOLDERS=1       keep the n8n, PostgreSQL and Redis temp folders
//   QUEUE_LOAD=400 QUEUE_LOAD_CONCURRENCY=16 QUEUE_SANDBOX_EVENTS=100   size of the throughput steps
//   QUEUE_WORKERS=2 QUEUE_WEBHOOKS=2  how many workers (each `n8n worker`, concurrency 10) and
//                                     webhook processes (the scale area needs 2 of each)
//
// What runs where:
//   main     API, editor REST, the Community Nodes installer, publishing (the trigger subscribes and
//            stores its secret in the workflow's static data in PostgreSQL), polls (the leader),
//            manual runs are enqueued (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true); serves no
//            production webhooks (N8N_DISABLE_PRODUCTION_MAIN_PROCESS)
//   relay    WEBHOOK_URL points here: each request goes to the next webhook process in turn
//   webhook  every delivery arrives at one of them, is verified (the trigger's webhook() reads the
//            secret from static data loaded from PostgreSQL) and enqueued
//   worker   executes every execution (Redis/Bull queue)
//
// Steps: startup, install, credentials, contacts, quotes, invoices, trigger, polling and writes from test/e2e/ (the
// same modules as the single-process e2e), then test/e2e/queue-install.js, test/e2e/queue.js and
// test/e2e/queue-scale.js (several processes on one key, a worker and the main killed).
'use strict';

const crypto = require('node:crypto');

const rt = require('./n8n');
const services = require('./queue/services');
const { startRelay } = require('./queue/relay');
const {
	runE2e,
	preparePackageAndSandbox,
	createCredentials,
	baseContext,
} = require('../test/e2e/runner');

const envInt = (name, dflt) => {
	const v = Number.parseInt(process.env[name] || '', 10);
	return Number.isFinite(v) && v > 0 ? v : dflt;
};

const CONFIG = {
	workers: envInt('QUEUE_WORKERS', 2),
	webhooks: envInt('QUEUE_WEBHOOKS', 2),
	workerConcurrency: envInt('QUEUE_WORKER_CONCURRENCY', 10),
	sandboxEvents: envInt('QUEUE_SANDBOX_EVENTS', 100),
	load: { total: envInt('QUEUE_LOAD', 400), concurrency: envInt('QUEUE_LOAD_CONCURRENCY', 16) },
	rateLimit: { limit: 10, windowMs: 5000, executions: 40 },
};

const REUSED_AREAS = [
	'startup',
	'install',
	'credentials',
	'contacts',
	'quotes',
	'invoices',
	'trigger',
	'polling',
	'writes',
];
const resources = {
	pkg: undefined,
	sandbox: undefined,
	pg: undefined,
	redis: undefined,
	main: undefined,
	workers: [],
	webhooks: [],
	relay: undefined,
};

const label = (what, list, i) => (list.length > 1 ? `${what} ${i + 1}` : what);

const n8nProcesses = () =>
	[
		['main', resources.main],
		...resources.workers.map((w, i) => [label('worker', resources.workers, i), w]),
		...resources.webhooks.map((w, i) => [label('webhook', resources.webhooks, i), w]),
	].filter(([, h]) => h);

/** CPU seconds used so far by each process (group): for the throughput steps' CPU split. */
function cpuNow() {
	const usage = process.cpuUsage();
	return {
		main: services.treeCpuSeconds(resources.main?.proc?.pid),
		...Object.fromEntries(
			resources.workers.map((w, i) => [
				label('worker', resources.workers, i),
				services.treeCpuSeconds(w.proc?.pid),
			]),
		),
		...Object.fromEntries(
			resources.webhooks.map((w, i) => [
				label('webhook', resources.webhooks, i),
				services.treeCpuSeconds(w.proc?.pid),
			]),
		),
		postgres: services.treeCpuSeconds(resources.pg?.pid),
		redis: services.treeCpuSeconds(resources.redis?.pid),
		'sandbox, relay + load generator': (usage.user + usage.system) / 1e6,
		// Not a process: the whole machine, so that the rest ("everything else") shows contention.
		machine: services.machineBusyCpuSeconds(),
	};
}

function report(ctx) {
	const out = (line) => process.stdout.write(`[queue] ${line}\n`);
	const f = ctx?.state?.figures || {};
	if (!f.sandbox && !f.load && !f.scale) return;
	const webhooks =
		CONFIG.webhooks > 1
			? `${CONFIG.webhooks} webhook processes (behind the relay)`
			: 'webhook process';
	const workers = CONFIG.workers > 1 ? `${CONFIG.workers} workers` : 'worker';
	out(
		`figures (2 cores; PostgreSQL, Redis, sandbox, relay, load generator, the main, ${workers} and ${webhooks} on one machine):`,
	);
	if (f.load) {
		out(
			`  ${webhooks}: ${f.load.acceptPerSecond.toFixed(1)} deliveries/s accepted (${f.load.total} signed POSTs, ${f.load.concurrency} concurrent, all 200, in ${f.load.acceptSeconds.toFixed(1)} s)`,
		);
		out(
			`  ${workers}: ${f.load.workerPerSecond.toFixed(1)} executions/s (trigger → Business Ops Get contact; concurrency ${f.load.workerConcurrency}${CONFIG.workers > 1 ? ' each' : ''}; first start → last stop ${f.load.workerSeconds.toFixed(1)} s)`,
		);
		out(
			`  end to end: ${f.load.endToEndPerSecond.toFixed(1)} deliveries/s (first POST → last execution stored, ${f.load.doneSeconds.toFixed(1)} s)`,
		);
		if (f.load.cpu)
			out(
				`  CPU during that load (of ${f.load.cpu.available.toFixed(0)} core-seconds): ${f.load.cpu.text}`,
			);
	}
	if (f.rateLimit)
		out(
			`  rate limit ${f.rateLimit.limit}/${f.rateLimit.windowMs / 1000} s, ${f.rateLimit.n} executions on ${f.rateLimit.workers} worker(s): ${f.rateLimit.refused} refused (429) of ${f.rateLimit.calls} API calls, all executions succeeded, ${f.rateLimit.seconds.toFixed(1)} s`,
		);
	if (f.sandbox)
		out(
			`  sandbox → ${webhooks}, in order: ${f.sandbox.perSecond.toFixed(1)} deliveries/s (${f.sandbox.n} events, avg ${f.sandbox.avgMs.toFixed(0)} ms each); ${workers} ${f.sandbox.workerPerSecond.toFixed(1)} executions/s`,
		);
	for (const line of f.scale || []) out(`  ${line}`);
}

runE2e({
	prefix: 'queue',
	// The reused areas in their usual order, the queue-mode install checks right after `install`, `queue` last.
	modules: [
		...require('../test/e2e')
			.filter((m) => REUSED_AREAS.includes(m.area))
			.flatMap((m) => (m.area === 'install' ? [m, require('../test/e2e/queue-install')] : [m])),
		require('../test/e2e/queue'),
		require('../test/e2e/queue-scale'),
	],
	always: ['startup', 'install', 'queueInstall', 'queue', 'scale'],
	processes: n8nProcesses,
	report,
	async setup(phase, sub) {
		const { runtime, pkg, sandbox } = await preparePackageAndSandbox({
			phase,
			sub,
			which: 'n8n2',
			resources,
			// The per-key rate limit is raised so the run is not throttled; rate-limit steps lower it themselves.
			sandboxOptions: { rateLimit: { limit: 1_000_000, windowMs: 60_000 } },
		});
		await phase('PostgreSQL and Redis from Debian packages', async () => {
			const installed = services.ensureDebianPackages({ log: sub });
			return installed.length
				? `installed ${installed.join(', ')}`
				: `present (${services.postgresBinDir()}, ${services.redisServerBin()})`;
		});
		await phase('start PostgreSQL and Redis (private, 127.0.0.1, temp folders)', async () => {
			const [pg, redis] = await Promise.all([
				services.startPostgres({ log: sub }),
				services.startRedis({ log: sub }),
			]);
			resources.pg = pg;
			resources.redis = redis;
			return `postgres :${pg.port}, redis :${redis.port}`;
		});

		const encryptionKey = crypto.randomBytes(24).toString('hex');
		// The relay listens first (its port is taken before WEBHOOK_URL, the URL every process builds
		// for production webhooks, names it); the webhook processes are added once they listen.
		resources.relay = await phase(
			`start the relay (round robin over the webhook processes, 127.0.0.1)`,
			async () => startRelay(),
		);
		const queueEnv = {
			...resources.pg.n8nEnv(),
			...resources.redis.n8nEnv(),
			...pkg.registry.n8nEnv(),
			EXECUTIONS_MODE: 'queue',
			// Manual runs (the editor's Execute button, used by the e2e steps) go to the workers too.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			// Every process builds the same production webhook URLs: the relay in front of the webhook processes.
			WEBHOOK_URL: `${resources.relay.baseUrl}/`,
			N8N_CONCURRENCY_PRODUCTION_LIMIT: String(CONFIG.workerConcurrency),
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '15',
			// A dead worker's job is found once its lock runs out (n8n's defaults: a 60 s lock renewed
			// every 10 s, checked every 30 s); halved here so that the worker-kill step of the scale
			// area waits about a minute less. What n8n then does is the same (docs/scale.md).
			QUEUE_WORKER_LOCK_DURATION: '30000',
			QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
			QUEUE_WORKER_STALLED_INTERVAL: '15000',
		};
		const common = { runtime, encryptionKey, log: sub };
		/** Starts a worker or a webhook process; queue-install.js starts a late worker with it too. */
		const startProcess = (command, o = {}) =>
			rt.startN8n({
				...common,
				command,
				port: o.port ?? 0,
				env: { ...queueEnv, ...(o.env || {}) },
			});

		const { client, installed } = await phase(
			`start the main, ${CONFIG.workers} worker(s) and ${CONFIG.webhooks} webhook process(es); install the package through the main's installer`,
			async () => {
				const started = await rt.startN8nWithPackage({
					...common,
					pkg,
					owner: rt.DEMO_OWNER,
					expectNodeTypes: Object.values(rt.NODE_TYPES),
					command: 'start',
					port: 0,
					env: { ...queueEnv, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
					// The workers and the webhook processes run before the install: they get it through pub/sub.
					async beforeInstall(main) {
						resources.main = main;
						const starting = [];
						for (let i = 0; i < CONFIG.webhooks; i++) starting.push(startProcess('webhook'));
						for (let i = 0; i < CONFIG.workers; i++) starting.push(startProcess('worker'));
						const settled = await Promise.allSettled(starting);
						const handles = settled.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
						resources.webhooks = handles.slice(0, CONFIG.webhooks).filter(Boolean);
						resources.workers = handles.slice(CONFIG.webhooks).filter(Boolean);
						const failed = settled.find((r) => r.status === 'rejected');
						if (failed) throw failed.reason;
						resources.relay.setTargets(resources.webhooks.map((h) => h.baseUrl));
					},
				});
				resources.main = started.n8n;
				return started;
			},
		);
		const credentials = await phase('credentials for the sandbox keys (on the main)', async () =>
			createCredentials(client, sandbox),
		);
		const ctx = await baseContext({
			client,
			n8n: resources.main,
			sandbox,
			pkg,
			runtime,
			credentials,
			installed,
		});
		ctx.webhookBaseUrl = resources.relay.baseUrl;
		ctx.queue = {
			main: resources.main,
			workers: resources.workers,
			webhooks: resources.webhooks,
			relay: resources.relay,
			pg: resources.pg,
			redis: resources.redis,
			config: CONFIG,
			cpu: cpuNow,
			startProcess,
		};
		ctx.state.figures = {};
		ctx.startInstance = async () => {
			throw new Error('a second n8n is offered by the single-process runner (scripts/e2e.js) only');
		};
		return ctx;
	},
	async stop() {
		const quiet = (p) => Promise.resolve(p).catch(() => {});
		await Promise.all([
			...resources.webhooks.map((w) => quiet(w.dispose())),
			...resources.workers.map((w) => quiet(w.dispose())),
		]);
		await quiet(resources.main?.dispose());
		await quiet(resources.relay?.stop());
		await Promise.all([quiet(resources.redis?.stop()), quiet(resources.pg?.stop())]);
		await quiet(resources.sandbox?.stop());
		await quiet(resources.pkg?.stop());
	},
});
