#!/usr/bin/env node
// End-to-end tests of this package in n8n queue mode: PostgreSQL + Redis, one n8n main
// (`n8n start`), one worker (`n8n worker`) and one webhook process (`n8n webhook`), all the pinned
// n8n 2.41.x, and the local sandbox of the API. The package is installed the way users install it
// in queue mode: through the main's Community Nodes installer only (from a local registry); the
// worker and the webhook process get it through n8n's own pub/sub.
//
//   npm run test:e2e:queue            everything (installs postgresql / redis-server with apt when missing)
//   node scripts/e2e-queue.js contacts trigger   only these reused areas (+ startup, install and queue)
//   KEEP_N8N_FOLDER=1 KEEP_QUEUE_FOLDERS=1       keep the n8n, PostgreSQL and Redis temp folders
//   QUEUE_LOAD=400 QUEUE_LOAD_CONCURRENCY=16 QUEUE_SANDBOX_EVENTS=100   size of the throughput steps
//   QUEUE_WORKERS=2                   start more than one worker (each `n8n worker`, concurrency 10)
//
// What runs where:
//   main     API, editor REST, the Community Nodes installer, publishing (the trigger subscribes and
//            stores its secret in the workflow's static data in PostgreSQL), manual runs are enqueued
//            (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true); serves no production webhooks
//            (N8N_DISABLE_PRODUCTION_MAIN_PROCESS)
//   webhook  WEBHOOK_URL points here: every delivery arrives here, is verified (the trigger's
//            webhook() reads the secret from static data loaded from PostgreSQL) and enqueued
//   worker   executes every execution (Redis/Bull queue)
//
// Steps: startup, install, credentials, contacts, quotes, invoices, trigger, polling and writes from test/e2e/ (the
// same modules as the single-process e2e), then test/e2e/queue-install.js and test/e2e/queue.js.
'use strict';

const crypto = require('node:crypto');

const rt = require('./n8n');
const services = require('./queue/services');
const { runE2e, preparePackageAndSandbox, createCredentials, baseContext } = require('../test/e2e/runner');

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

const REUSED_AREAS = ['startup', 'install', 'credentials', 'contacts', 'quotes', 'invoices', 'trigger', 'polling', 'writes'];
const resources = { pkg: undefined, sandbox: undefined, pg: undefined, redis: undefined, main: undefined, workers: [], webhook: undefined };

const n8nProcesses = () =>
	[
		['main', resources.main],
		...resources.workers.map((w, i) => [resources.workers.length > 1 ? `worker ${i + 1}` : 'worker', w]),
		['webhook', resources.webhook],
	].filter(([, h]) => h);

/** CPU seconds used so far by each process (group): for the throughput steps' CPU split. */
function cpuNow() {
	const usage = process.cpuUsage();
	return {
		main: services.treeCpuSeconds(resources.main?.proc?.pid),
		...Object.fromEntries(resources.workers.map((w, i) => [resources.workers.length > 1 ? `worker ${i + 1}` : 'worker', services.treeCpuSeconds(w.proc?.pid)])),
		webhook: services.treeCpuSeconds(resources.webhook?.proc?.pid),
		postgres: services.treeCpuSeconds(resources.pg?.pid),
		redis: services.treeCpuSeconds(resources.redis?.pid),
		'sandbox + load generator': (usage.user + usage.system) / 1e6,
		// Not a process: the whole machine, so that the rest ("everything else") shows contention.
		machine: services.machineBusyCpuSeconds(),
	};
}

function report(ctx) {
	const out = (line) => process.stdout.write(`[queue] ${line}\n`);
	const f = ctx?.state?.figures || {};
	if (!f.sandbox && !f.load) return;
	out('figures (2 cores; PostgreSQL, Redis, sandbox, load generator and the 3 n8n processes on one machine):');
	if (f.load) {
		out(`  webhook process: ${f.load.acceptPerSecond.toFixed(1)} deliveries/s accepted (${f.load.total} signed POSTs, ${f.load.concurrency} concurrent, all 200, in ${f.load.acceptSeconds.toFixed(1)} s)`);
		out(`  ${CONFIG.workers > 1 ? `${CONFIG.workers} workers` : 'worker'}: ${f.load.workerPerSecond.toFixed(1)} executions/s (trigger → Business Ops Get contact; concurrency ${f.load.workerConcurrency}${CONFIG.workers > 1 ? ' each' : ''}; first start → last stop ${f.load.workerSeconds.toFixed(1)} s)`);
		out(`  end to end: ${f.load.endToEndPerSecond.toFixed(1)} deliveries/s (first POST → last execution stored, ${f.load.doneSeconds.toFixed(1)} s)`);
		if (f.load.cpu) out(`  CPU during that load (of ${f.load.cpu.available.toFixed(0)} core-seconds): ${f.load.cpu.text}`);
	}
	if (f.rateLimit) out(`  rate limit ${f.rateLimit.limit}/${f.rateLimit.windowMs / 1000} s, ${f.rateLimit.n} executions on ${f.rateLimit.workers} worker(s): ${f.rateLimit.refused} refused (429) of ${f.rateLimit.calls} API calls, all executions succeeded, ${f.rateLimit.seconds.toFixed(1)} s`);
	if (f.sandbox) out(`  sandbox → webhook process, in order: ${f.sandbox.perSecond.toFixed(1)} deliveries/s (${f.sandbox.n} events, avg ${f.sandbox.avgMs.toFixed(0)} ms each); worker ${f.sandbox.workerPerSecond.toFixed(1)} executions/s`);
}

runE2e({
	prefix: 'queue',
	// The reused areas in their usual order, the queue-mode install checks right after `install`, `queue` last.
	modules: [
		...require('../test/e2e')
			.filter((m) => REUSED_AREAS.includes(m.area))
			.flatMap((m) => (m.area === 'install' ? [m, require('../test/e2e/queue-install')] : [m])),
		require('../test/e2e/queue'),
	],
	always: ['startup', 'install', 'queueInstall', 'queue'],
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
			return installed.length ? `installed ${installed.join(', ')}` : `present (${services.postgresBinDir()}, ${services.redisServerBin()})`;
		});
		await phase('start PostgreSQL and Redis (private, 127.0.0.1, temp folders)', async () => {
			const [pg, redis] = await Promise.all([services.startPostgres({ log: sub }), services.startRedis({ log: sub })]);
			resources.pg = pg;
			resources.redis = redis;
			return `postgres :${pg.port}, redis :${redis.port}`;
		});

		const encryptionKey = crypto.randomBytes(24).toString('hex');
		const webhookPort = await rt.freePort(0);
		const queueEnv = {
			...resources.pg.n8nEnv(),
			...resources.redis.n8nEnv(),
			...pkg.registry.n8nEnv(),
			EXECUTIONS_MODE: 'queue',
			// Manual runs (the editor's Execute button, used by the e2e steps) go to the worker too.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			// Every process builds the same production webhook URLs: the webhook process.
			WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/`,
			N8N_CONCURRENCY_PRODUCTION_LIMIT: String(CONFIG.workerConcurrency),
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '15',
		};
		const common = { runtime, encryptionKey, log: sub };
		/** Starts a worker or the webhook process; queue-install.js starts a late worker with it too. */
		const startProcess = (command, o = {}) => rt.startN8n({ ...common, command, port: o.port ?? 0, env: { ...queueEnv, ...(o.env || {}) } });

		const { client, installed } = await phase("start the main, worker and webhook process; install the package through the main's installer", async () => {
			const started = await rt.startN8nWithPackage({
				...common,
				pkg,
				owner: rt.DEMO_OWNER,
				expectNodeTypes: Object.values(rt.NODE_TYPES),
				command: 'start',
				port: 0,
				env: { ...queueEnv, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
				// The worker and the webhook process run before the install: they get it through pub/sub.
				async beforeInstall(main) {
					resources.main = main;
					const starting = [startProcess('webhook', { port: webhookPort })];
					for (let i = 0; i < CONFIG.workers; i++) starting.push(startProcess('worker'));
					const settled = await Promise.allSettled(starting);
					const [webhook, ...workers] = settled.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
					resources.webhook = webhook;
					resources.workers = workers.filter(Boolean);
					const failed = settled.find((r) => r.status === 'rejected');
					if (failed) throw failed.reason;
					if (webhook.port !== webhookPort) throw new Error(`port ${webhookPort} was taken before the webhook process started (WEBHOOK_URL points there); run again`);
				},
			});
			resources.main = started.n8n;
			return started;
		});
		const credentials = await phase('credentials for the sandbox keys (on the main)', async () => createCredentials(client, sandbox));
		const ctx = await baseContext({ client, n8n: resources.main, sandbox, pkg, runtime, credentials, installed });
		ctx.webhookBaseUrl = resources.webhook.baseUrl;
		ctx.queue = { main: resources.main, workers: resources.workers, webhook: resources.webhook, pg: resources.pg, redis: resources.redis, config: CONFIG, cpu: cpuNow, startProcess };
		ctx.state.figures = {};
		ctx.startInstance = async () => {
			throw new Error('a second n8n is offered by the single-process runner (scripts/e2e.js) only');
		};
		return ctx;
	},
	async stop() {
		const quiet = (p) => Promise.resolve(p).catch(() => {});
		await Promise.all([quiet(resources.webhook?.dispose()), ...resources.workers.map((w) => quiet(w.dispose()))]);
		await quiet(resources.main?.dispose());
		await Promise.all([quiet(resources.redis?.stop()), quiet(resources.pg?.stop())]);
		await quiet(resources.sandbox?.stop());
		await quiet(resources.pkg?.stop());
	},
});
