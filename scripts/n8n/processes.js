// The servers the test scripts start (n8n, verdaccio, PostgreSQL, Redis) each run in their own
// process group (detached), so that stopping one stops its children too (n8n's task runner,
// PostgreSQL's backends). Such a group would outlive a script that dies without stopping it:
// a guard kills every group still running when the script exits, and on SIGINT/SIGTERM/SIGHUP
// (when the script itself listens for none of them) does the same and then dies of the signal.
// Standard library only.
'use strict';

const fs = require('node:fs');
const net = require('node:net');
const { spawn } = require('node:child_process');

const HOST = '127.0.0.1';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Process groups started and not stopped yet: { pid, exitSignal, onExit }. */
const live = new Set();
let guardsInstalled = false;

function installGuards() {
	if (guardsInstalled) return;
	guardsInstalled = true;
	process.on('exit', () => {
		for (const rec of live) {
			groupKill(rec.pid, rec.exitSignal || 'SIGKILL');
			try {
				rec.onExit?.();
			} catch {
				/* best effort while exiting */
			}
		}
	});
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		if (process.listenerCount(sig) > 0) continue;
		const onSignal = () => {
			for (const rec of live) groupKill(rec.pid, rec.exitSignal || 'SIGKILL');
			process.removeListener(sig, onSignal);
			process.kill(process.pid, sig);
		};
		process.on(sig, onSignal);
	}
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

/**
 * Spawns `bin args` in its own process group, stdout and stderr appended to `logFile`.
 * Returns { pid, child, logFile, exited } (`exited` is set to { code, signal } when it ends).
 * @param {object} o
 * @param {string} o.logFile
 * @param {string} [o.cwd]
 * @param {NodeJS.ProcessEnv} [o.env]
 * @param {{uid: number, gid: number}} [o.ids]  run as this user
 * @param {NodeJS.Signals} [o.exitSignal]  what the exit guard sends (SIGKILL by default)
 * @param {() => void} [o.onExit]  synchronous clean-up the exit guard runs after the kill
 */
function spawnGroup(bin, args, o) {
	installGuards();
	const fd = fs.openSync(o.logFile, 'a');
	const child = spawn(bin, args, {
		cwd: o.cwd,
		env: o.env || process.env,
		detached: true,
		stdio: ['ignore', fd, fd],
		...(o.ids ? { uid: o.ids.uid, gid: o.ids.gid } : {}),
	});
	fs.closeSync(fd);
	const rec = {
		pid: child.pid,
		child,
		logFile: o.logFile,
		exitSignal: o.exitSignal,
		onExit: o.onExit,
		exited: null,
	};
	child.once('exit', (code, signal) => {
		rec.exited = { code, signal };
	});
	live.add(rec);
	return rec;
}

/** `signal` to the group, SIGKILL after `graceMs`; resolves when the group is gone (bounded). */
async function stopGroup(rec, signal = 'SIGTERM', graceMs = 20_000) {
	if (!rec || !live.has(rec)) return;
	live.delete(rec);
	if (!groupAlive(rec.pid)) return;
	groupKill(rec.pid, signal);
	const deadline = Date.now() + graceMs;
	while (groupAlive(rec.pid) && Date.now() < deadline) await sleep(100);
	if (groupAlive(rec.pid)) {
		groupKill(rec.pid, 'SIGKILL');
		const d2 = Date.now() + 5_000;
		while (groupAlive(rec.pid) && Date.now() < d2) await sleep(100);
	}
}

/** Synchronous SIGKILL of a group (for 'exit' handlers). */
function killNow(rec) {
	if (rec?.pid) groupKill(rec.pid, 'SIGKILL');
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

/** The last `lines` lines of a log file. */
function tailOf(file, lines = 60) {
	try {
		return fs
			.readFileSync(file, 'utf8')
			.split('\n')
			.slice(-lines - 1)
			.join('\n');
	} catch {
		return '(no log)';
	}
}

/** Polls `check` until it is true; fails when the process ends first or after `timeoutMs`. */
async function waitUntil(rec, check, timeoutMs, what) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (rec.exited)
			throw new Error(
				`${what} exited (code ${rec.exited.code}, signal ${rec.exited.signal})\n${tailOf(rec.logFile, 40)}`,
			);
		if (await check()) return;
		if (Date.now() > deadline)
			throw new Error(
				`${what} was not ready after ${timeoutMs / 1000} s\n${tailOf(rec.logFile, 40)}`,
			);
		await sleep(200);
	}
}

module.exports = {
	HOST,
	sleep,
	spawnGroup,
	stopGroup,
	killNow,
	groupKill,
	groupAlive,
	freePort,
	tailOf,
	waitUntil,
};
