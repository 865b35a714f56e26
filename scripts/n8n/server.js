// Starts and stops a real n8n headless on 127.0.0.1: `n8n start` (the main process; the default),
// and for queue mode also `n8n worker` and `n8n webhook` (option `command`). Community packages
// come in the way users get them (see registry.js and index.js: n8n's own installer, from a local
// registry); `extensionsDir` (N8N_CUSTOM_EXTENSIONS) remains for the benchmarks that compare loaders.
// Works with n8n 2.x and 1.x (the runtime says which). Standard library only.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { budgetWindowsEnv } = require('./budgetWindows');
const {
	HOST,
	sleep,
	spawnGroup,
	stopGroup,
	killNow: killGroupNow,
	freePort,
	tailOf,
} = require('./processes');

/**
 * Starts n8n and waits until `/healthz/readiness` answers 200.
 *
 * @param {object} o
 * @param {{nodeBin: string, n8nBin: string, n8nVersion: string}} o.runtime  from ensureRuntime()
 * @param {'start'|'worker'|'webhook'} [o.command]  which n8n process: `start` (main, default),
 *   `worker` (queue mode: executes jobs; `port` is then its health server, QUEUE_HEALTH_CHECK_PORT),
 *   `webhook` (queue mode: serves production webhooks on `port`). Queue mode itself
 *   (EXECUTIONS_MODE, DB_*, QUEUE_BULL_*) comes through `env`.
 * @param {string} [o.encryptionKey]  N8N_ENCRYPTION_KEY (random by default; processes of one
 *   queue-mode setup must share it)
 * @param {string} [o.extensionsDir]  N8N_CUSTOM_EXTENSIONS (the benchmarks only; tests install the package)
 * @param {number} [o.port]  preferred port (a free one is used if it is taken); 0 = any
 * @param {string} [o.userFolder]  N8N_USER_FOLDER; a fresh temp folder by default
 * @param {string} [o.logFile]  where n8n's stdout+stderr go; inside userFolder by default
 * @param {Record<string,string>} [o.env]  extra environment
 * @param {number} [o.readyTimeoutMs]
 * @param {(line: string) => void} [o.log]
 */
async function startN8n(o) {
	const log = o.log || (() => {});
	const userFolder = o.userFolder || fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bizops-'));
	const ownsUserFolder = !o.userFolder;
	const logFile = o.logFile || path.join(userFolder, 'n8n.log');
	const encryptionKey = o.encryptionKey || crypto.randomBytes(24).toString('hex');
	const command = o.command || 'start';
	if (!['start', 'worker', 'webhook'].includes(command))
		throw new Error(`unknown n8n command "${command}"`);
	const handle = {
		command,
		userFolder,
		ownsUserFolder,
		logFile,
		encryptionKey,
		port: 0,
		brokerPort: 0,
		baseUrl: '',
		n8nVersion: o.runtime.n8nVersion,
		major: Number(String(o.runtime.n8nVersion || '2').split('.')[0]),
		proc: null,
		child: null,
		/** Where n8n's Community Nodes installer puts packages (~/.n8n/nodes of this instance). */
		nodesDir: path.join(userFolder, '.n8n', 'nodes'),
		tail: (lines) => tailOf(logFile, lines),
		stop: () => stopN8n(handle),
		/** Stops n8n and starts it again with the same user folder, database and ports (if free). */
		restart: async () => {
			await stopN8n(handle);
			await launch(handle, o, handle.port, log);
			return handle;
		},
		/** Stops n8n and removes its temp user folder (when this module created it). */
		dispose: async () => {
			await stopN8n(handle);
			if (ownsUserFolder && !process.env.KEEP_N8N_FOLDER)
				fs.rmSync(userFolder, { recursive: true, force: true });
		},
	};
	try {
		await launch(handle, o, o.port ?? 0, log);
	} catch (e) {
		// The error carries the tail of the log; the temp folder goes unless KEEP_N8N_FOLDER is set.
		await handle.dispose();
		throw e;
	}
	return handle;
}

async function launch(handle, o, preferredPort, log) {
	const port = await freePort(preferredPort);
	const brokerPort = await freePort(0);
	handle.port = port;
	handle.brokerPort = brokerPort;
	handle.baseUrl = `http://${HOST}:${port}`;
	const env = {
		// Not the npm_* variables of an `npm run` that started this script: they would configure
		// the npm calls of n8n's installer.
		...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
		// A user-level nodedir in ~/.npmrc (Node 20's headers) would reach npm calls of the installer.
		npm_config_nodedir: path.dirname(path.dirname(o.runtime.nodeBin)),
		N8N_USER_FOLDER: handle.userFolder,
		N8N_ENCRYPTION_KEY: handle.encryptionKey,
		N8N_LISTEN_ADDRESS: HOST,
		N8N_HOST: HOST,
		N8N_PORT: String(port),
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `http://${HOST}:${port}/`,
		N8N_EDITOR_BASE_URL: `http://${HOST}:${port}/`,
		DB_TYPE: 'sqlite',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		// n8n 2.x: stops failed look-ups of outside hosts. n8n 1.123 exits on this unknown module.
		...(handle.major >= 2 ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
		...(o.extensionsDir ? { N8N_CUSTOM_EXTENSIONS: o.extensionsDir } : {}),
		N8N_PUBLIC_API_DISABLED: 'false',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL || 'info',
		N8N_LOG_OUTPUT: 'console',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		GENERIC_TIMEZONE: 'UTC',
		NO_PROXY: [process.env.NO_PROXY, '127.0.0.1', 'localhost'].filter(Boolean).join(','),
		no_proxy: [process.env.no_proxy, '127.0.0.1', 'localhost'].filter(Boolean).join(','),
		// NODE_OPTIONS: only the harness's preload (scaled rate windows for new keys, budgetWindows.js).
		...budgetWindowsEnv(),
		// A worker listens on no N8N_PORT; its health server (/healthz, /healthz/readiness) is how
		// readiness is seen. Harmless for the other commands, which read none of these.
		...(handle.command === 'worker'
			? {
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(port),
					N8N_WORKER_SERVER_ADDRESS: HOST,
				}
			: {}),
		...(o.env || {}),
	};
	fs.appendFileSync(
		handle.logFile,
		`\n===== n8n ${handle.command} ${new Date().toISOString()} on port ${port} =====\n`,
	);
	const proc = spawnGroup(o.runtime.nodeBin, [o.runtime.n8nBin, handle.command], {
		cwd: handle.userFolder,
		env,
		logFile: handle.logFile,
		onExit: () => {
			if (handle.ownsUserFolder && !process.env.KEEP_N8N_FOLDER)
				fs.rmSync(handle.userFolder, { recursive: true, force: true });
		},
	});
	handle.proc = proc;
	handle.child = proc.child;
	const exited = () => proc.exited;
	const what = handle.command === 'start' ? 'n8n' : `n8n ${handle.command}`;
	log(
		`${what} ${handle.n8nVersion} starting on ${handle.baseUrl} (pid ${proc.pid}, log ${handle.logFile})`,
	);

	// Readiness; the main also answers /rest/settings (n8n 1.x reports ready during migrations).
	const probes = ['/healthz/readiness', ...(handle.command === 'start' ? ['/rest/settings'] : [])];
	const deadline = Date.now() + (o.readyTimeoutMs || 180_000);
	for (;;) {
		if (exited()) {
			const { code, signal } = exited();
			throw Object.assign(
				new Error(
					`${what} exited before it was ready (code ${code}, signal ${signal})\n${tailOf(handle.logFile)}`,
				),
				{ n8nLogTail: true },
			);
		}
		let ready = 0;
		for (const probe of probes) {
			const res = await fetch(`${handle.baseUrl}${probe}`, {
				headers: { connection: 'close' },
				signal: AbortSignal.timeout(2000),
			}).catch(() => undefined);
			await res?.body?.cancel();
			if (res?.status !== 200) break;
			ready++;
		}
		if (ready === probes.length) break;
		if (Date.now() > deadline) {
			await stopN8n(handle);
			throw Object.assign(
				new Error(
					`${what} was not ready after ${(o.readyTimeoutMs || 180_000) / 1000} s\n${tailOf(handle.logFile)}`,
				),
				{ n8nLogTail: true },
			);
		}
		await sleep(300);
	}
	return handle;
}

/** Stops n8n's process group (SIGTERM, SIGKILL after 20 s); resolves when it is gone (bounded). */
async function stopN8n(handle) {
	const proc = handle.proc;
	handle.proc = null;
	handle.child = null;
	await stopGroup(proc, 'SIGTERM', 20_000);
}

/** Synchronous best effort for process 'exit' handlers. */
function killNow(handle) {
	killGroupNow(handle?.proc);
}

module.exports = { startN8n, killNow, freePort, tailOf };
