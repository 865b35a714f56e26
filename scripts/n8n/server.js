// Starts and stops a real n8n headless on 127.0.0.1, with this package loaded through
// N8N_CUSTOM_EXTENSIONS: `n8n start` (the main process; the default), and for queue mode also
// `n8n worker` and `n8n webhook` (option `command`). Standard library only.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const HOST = '127.0.0.1';

/** Handles of the n8n processes this process started and has not stopped yet. */
const live = new Set();
let guardsInstalled = false;

/**
 * n8n runs in its own process group (detached), so it would outlive a script that dies without
 * stopping it. On exit, this kills the groups still running; on SIGINT/SIGTERM/SIGHUP, when the
 * script itself listens for none of them, it does the same and then dies of the signal as usual.
 */
function installGuards() {
	if (guardsInstalled) return;
	guardsInstalled = true;
	process.on('exit', () => {
		for (const h of live) {
			killNow(h);
			if (h.ownsUserFolder && !process.env.KEEP_N8N_FOLDER) fs.rmSync(h.userFolder, { recursive: true, force: true });
		}
	});
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		if (process.listenerCount(sig) > 0) continue;
		const onSignal = () => {
			for (const h of live) killNow(h);
			process.removeListener(sig, onSignal);
			process.kill(process.pid, sig);
		};
		process.on(sig, onSignal);
	}
}

/** Resolves to `preferred` when it is free on 127.0.0.1, otherwise to a free port. */
function freePort(preferred = 0) {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', (err) => {
			if (preferred && (err.code === 'EADDRINUSE' || err.code === 'EACCES')) resolve(freePort(0));
			else reject(err);
		});
		srv.listen({ port: preferred, host: HOST, exclusive: true }, () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function tailOf(file, lines = 60) {
	try {
		const text = fs.readFileSync(file, 'utf8');
		return text.split('\n').slice(-lines - 1).join('\n');
	} catch {
		return '(no n8n log)';
	}
}

/**
 * Starts n8n and waits until `/healthz/readiness` answers 200.
 *
 * @param {object} o
 * @param {{nodeBin: string, n8nBin: string}} o.runtime  from ensureRuntime()
 * @param {'start'|'worker'|'webhook'} [o.command]  which n8n process: `start` (main, default),
 *   `worker` (queue mode: executes jobs; `port` is then its health server, QUEUE_HEALTH_CHECK_PORT),
 *   `webhook` (queue mode: serves production webhooks on `port`). Queue mode itself
 *   (EXECUTIONS_MODE, DB_*, QUEUE_BULL_*) comes through `env`.
 * @param {string} [o.encryptionKey]  N8N_ENCRYPTION_KEY (random by default; processes of one
 *   queue-mode setup must share it)
 * @param {string} o.extensionsDir  the package's dist/ (N8N_CUSTOM_EXTENSIONS)
 * @param {number} [o.port]  preferred port (a free one is used if it is taken); 0 = any
 * @param {string} [o.userFolder]  N8N_USER_FOLDER; a fresh temp folder by default
 * @param {string} [o.logFile]  where n8n's stdout+stderr go; inside userFolder by default
 * @param {Record<string,string>} [o.env]  extra environment
 * @param {number} [o.readyTimeoutMs]
 * @param {(line: string) => void} [o.log]
 */
async function startN8n(o) {
	installGuards();
	const log = o.log || (() => {});
	const userFolder = o.userFolder || fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bizops-'));
	const ownsUserFolder = !o.userFolder;
	const logFile = o.logFile || path.join(userFolder, 'n8n.log');
	const encryptionKey = o.encryptionKey || crypto.randomBytes(24).toString('hex');
	const command = o.command || 'start';
	if (!['start', 'worker', 'webhook'].includes(command)) throw new Error(`unknown n8n command "${command}"`);
	const handle = {
		command,
		userFolder,
		ownsUserFolder,
		logFile,
		encryptionKey,
		port: 0,
		brokerPort: 0,
		baseUrl: '',
		child: null,
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
			if (ownsUserFolder && !process.env.KEEP_N8N_FOLDER) fs.rmSync(userFolder, { recursive: true, force: true });
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
		...process.env,
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
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_CUSTOM_EXTENSIONS: o.extensionsDir,
		N8N_PUBLIC_API_DISABLED: 'false',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL || 'info',
		N8N_LOG_OUTPUT: 'console',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		GENERIC_TIMEZONE: 'UTC',
		NO_PROXY: [process.env.NO_PROXY, '127.0.0.1', 'localhost'].filter(Boolean).join(','),
		no_proxy: [process.env.no_proxy, '127.0.0.1', 'localhost'].filter(Boolean).join(','),
		NODE_OPTIONS: '',
		// A worker listens on no N8N_PORT; its health server (/healthz, /healthz/readiness) is how
		// readiness is seen. Harmless for the other commands, which read none of these.
		...(handle.command === 'worker'
			? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port), N8N_WORKER_SERVER_ADDRESS: HOST }
			: {}),
		...(o.env || {}),
	};
	fs.appendFileSync(handle.logFile, `\n===== n8n ${handle.command} ${new Date().toISOString()} on port ${port} =====\n`);
	const fd = fs.openSync(handle.logFile, 'a');
	const child = spawn(o.runtime.nodeBin, [o.runtime.n8nBin, handle.command], {
		cwd: handle.userFolder,
		env,
		detached: true, // own process group: stop() kills n8n and its task runner together
		stdio: ['ignore', fd, fd],
	});
	fs.closeSync(fd);
	handle.child = child;
	live.add(handle);
	let exited = null;
	child.once('exit', (code, signal) => {
		exited = { code, signal };
	});
	const what = handle.command === 'start' ? 'n8n' : `n8n ${handle.command}`;
	log(`${what} starting on ${handle.baseUrl} (pid ${child.pid}, log ${handle.logFile})`);

	const deadline = Date.now() + (o.readyTimeoutMs || 180_000);
	for (;;) {
		if (exited) {
			throw Object.assign(new Error(`${what} exited before it was ready (code ${exited.code}, signal ${exited.signal})\n${tailOf(handle.logFile)}`), { n8nLogTail: true });
		}
		try {
			const res = await fetch(`${handle.baseUrl}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
			if (res.status === 200) break;
		} catch {
			/* not listening yet */
		}
		if (Date.now() > deadline) {
			await stopN8n(handle);
			throw Object.assign(new Error(`${what} was not ready after ${(o.readyTimeoutMs || 180_000) / 1000} s\n${tailOf(handle.logFile)}`), { n8nLogTail: true });
		}
		await sleep(300);
	}
	return handle;
}

function groupKill(pid, signal) {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		try {
			process.kill(pid, signal);
			return true;
		} catch {
			return false;
		}
	}
}

function groupAlive(pid) {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** SIGTERM to n8n's process group, SIGKILL after 20 s; resolves when the group is gone (bounded). */
async function stopN8n(handle) {
	const child = handle.child;
	live.delete(handle);
	if (!child || !child.pid) return;
	handle.child = null;
	const pid = child.pid;
	if (!groupAlive(pid)) return;
	groupKill(pid, 'SIGTERM');
	const deadline = Date.now() + 20_000;
	while (groupAlive(pid) && Date.now() < deadline) await sleep(200);
	if (groupAlive(pid)) {
		groupKill(pid, 'SIGKILL');
		const d2 = Date.now() + 5_000;
		while (groupAlive(pid) && Date.now() < d2) await sleep(100);
	}
}

/** Synchronous best effort for process 'exit' handlers. */
function killNow(handle) {
	if (handle?.child?.pid) groupKill(handle.child.pid, 'SIGKILL');
}

module.exports = { startN8n, stopN8n, killNow, freePort, tailOf, groupKill, groupAlive, HOST };
