// PostgreSQL and Redis for the queue-mode e2e (scripts/e2e-queue.js): installed from Debian's
// packages when missing, each started as a private server in its own temp folder on a free
// 127.0.0.1 port, and stopped (folder removed) afterwards. System-wide services are never
// started, stopped or reconfigured. Plain CommonJS, standard library only.
//
//   const svc = require('./queue/services');
//   svc.ensureDebianPackages({ log });          // apt-get install postgresql redis-server, if missing
//   const pg = await svc.startPostgres({ log }); // { host, port, user, password, database, query(sql), stop() }
//   const redis = await svc.startRedis({ log });  // { host, port, stop() }
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const { HOST, freePort, spawnGroup, stopGroup, tailOf, waitUntil } = require('../n8n/processes');

// ----- Debian packages -----

/** The newest PostgreSQL server's bin folder (/usr/lib/postgresql/<version>/bin), or undefined. */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	let versions = [];
	try {
		versions = fs
			.readdirSync(root)
			.filter(
				(v) =>
					fs.existsSync(path.join(root, v, 'bin', 'postgres')) &&
					fs.existsSync(path.join(root, v, 'bin', 'initdb')),
			);
	} catch {
		return undefined;
	}
	versions.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(root, versions[0], 'bin') : undefined;
}

function redisServerBin() {
	for (const p of ['/usr/bin/redis-server', '/usr/local/bin/redis-server'])
		if (fs.existsSync(p)) return p;
	return undefined;
}

function isRoot() {
	return typeof process.getuid === 'function' && process.getuid() === 0;
}

function run(cmd, args, opts = {}) {
	const res = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
	if (res.error) throw res.error;
	if (res.status !== 0) {
		const out = `${res.stdout || ''}${res.stderr || ''}`.trim().split('\n').slice(-30).join('\n');
		throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.status}):\n${out}`);
	}
	return res.stdout;
}

/**
 * Installs Debian's `postgresql` and `redis-server` when their servers are missing
 * (apt-get update first, non-interactive). While apt runs, a temporary policy-rc.d (exit 101)
 * keeps the packages' maintainer scripts from starting the system-wide services; this script
 * starts its own private servers instead. Needs root. Returns what it installed.
 */
function ensureDebianPackages({ log = () => {} } = {}) {
	const missing = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (!redisServerBin()) missing.push('redis-server');
	if (missing.length === 0) return [];
	if (!isRoot()) {
		throw new Error(
			`${missing.join(' and ')} missing; install them (apt-get install ${missing.join(' ')}) or run this as root, which installs them`,
		);
	}
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', NEEDRESTART_MODE: 'a' };
	const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];
	log(`apt-get update`);
	run('apt-get', [...lockWait, 'update', '-qq'], { env });
	const policy = '/usr/sbin/policy-rc.d';
	const ownPolicy = !fs.existsSync(policy);
	if (ownPolicy)
		fs.writeFileSync(
			policy,
			'#!/bin/sh\n# written by n8n-nodes-business-ops scripts/queue/services.js while apt-get runs\nexit 101\n',
			{ mode: 0o755 },
		);
	try {
		log(`apt-get install ${missing.join(' ')}`);
		run('apt-get', [...lockWait, 'install', '-y', '-qq', '--no-install-recommends', ...missing], {
			env,
		});
	} finally {
		if (ownPolicy) fs.rmSync(policy, { force: true });
	}
	if (!postgresBinDir())
		throw new Error('postgresql was installed but no /usr/lib/postgresql/*/bin/postgres was found');
	if (!redisServerBin()) throw new Error('redis-server was installed but not found');
	return missing;
}

// ----- a private server process -----

/** uid/gid of a system user, or undefined. */
function userIds(name) {
	const res = spawnSync('id', ['-u', name], { encoding: 'utf8' });
	if (res.status !== 0) return undefined;
	const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
	return { uid: Number(res.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function chownTree(dir, ids) {
	if (!ids) return;
	fs.chownSync(dir, ids.uid, ids.gid);
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, entry.name);
		if (entry.isDirectory()) chownTree(p, ids);
		else fs.chownSync(p, ids.uid, ids.gid);
	}
}

/** Spawns a server in its own process group, output to `logFile`; removes `folder` when stopped. */
function spawnServer(name, bin, args, { folder, logFile, ids, env, exitSignal }) {
	const removeFolder = () => {
		if (!process.env.KEEP_QUEUE_FOLDERS) fs.rmSync(folder, { recursive: true, force: true });
	};
	const proc = spawnGroup(bin, args, {
		cwd: folder,
		env,
		logFile,
		ids,
		exitSignal,
		onExit: removeFolder,
	});
	return { name, pid: proc.pid, proc, folder, logFile, removeFolder };
}

/** signal to the group, SIGKILL after `graceMs`; bounded; removes the folder. */
async function stopServer(rec, signal = 'SIGTERM', graceMs = 15_000) {
	await stopGroup(rec.proc, signal, graceMs);
	rec.removeFolder();
}

// ----- PostgreSQL -----

/**
 * initdb into a fresh temp folder and `postgres` on a free 127.0.0.1 port (no Unix socket
 * outside that folder). As root, the server runs as the `postgres` system user that Debian's
 * package creates (PostgreSQL refuses to run as root); otherwise as the current user.
 * Password authentication (scram-sha-256) for the one role, `n8n`, which owns database `n8n`.
 */
async function startPostgres({ log = () => {}, timeoutMs = 60_000 } = {}) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres)');
	const ids = isRoot() ? userIds('postgres') : undefined;
	if (isRoot() && !ids)
		throw new Error('running as root, but there is no "postgres" user to run PostgreSQL as');
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bizops-pg-'));
	const dataDir = path.join(folder, 'data');
	const logFile = path.join(folder, 'postgres.log');
	const user = 'n8n';
	const password = crypto.randomBytes(18).toString('hex');
	const pwFile = path.join(folder, 'pw');
	fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
	fs.writeFileSync(logFile, '');
	chownTree(folder, ids);
	const asUser = ids ? { uid: ids.uid, gid: ids.gid } : {};
	const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
	try {
		run(
			path.join(bin, 'initdb'),
			[
				'-D',
				dataDir,
				'-U',
				user,
				`--pwfile=${pwFile}`,
				'--auth=scram-sha-256',
				'-E',
				'UTF8',
				'--locale=C',
				'--no-sync',
			],
			{ ...asUser, env, cwd: folder },
		);
	} catch (e) {
		fs.rmSync(folder, { recursive: true, force: true });
		throw e;
	}
	fs.rmSync(pwFile, { force: true });
	const port = await freePort(0);
	const rec = spawnServer(
		'postgres',
		path.join(bin, 'postgres'),
		[
			'-D',
			dataDir,
			'-c',
			`listen_addresses=${HOST}`,
			'-c',
			`port=${port}`,
			'-c',
			`unix_socket_directories=${folder}`,
			'-c',
			'max_connections=100',
			// PostgreSQL: SIGQUIT (the exit guard's signal) makes the postmaster end its backends, which are not in its group.
		],
		{ folder, logFile, ids, env, exitSignal: 'SIGQUIT' },
	);
	log(`postgres starting on ${HOST}:${port} (pid ${rec.pid}, folder ${folder})`);
	const pgEnv = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5' };
	const conn = ['-h', HOST, '-p', String(port), '-U', user];
	try {
		await waitUntil(
			rec.proc,
			async () =>
				spawnSync(path.join(bin, 'pg_isready'), [...conn, '-d', 'postgres', '-q'], { env: pgEnv })
					.status === 0,
			timeoutMs,
			'postgres',
		);
		run(path.join(bin, 'createdb'), [...conn, 'n8n'], { env: pgEnv });
	} catch (e) {
		await stopServer(rec);
		throw e;
	}
	const handle = {
		host: HOST,
		port,
		user,
		password,
		database: 'n8n',
		folder,
		logFile,
		pid: rec.pid,
		tail: (lines) => tailOf(logFile, lines),
		/** Runs SQL with psql; returns the rows as arrays of strings (tab-separated, unaligned). */
		query(sql) {
			const outText = run(
				path.join(bin, 'psql'),
				[...conn, '-d', 'n8n', '-X', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql],
				{ env: pgEnv },
			);
			return outText
				.split('\n')
				.filter((l) => l !== '')
				.map((l) => l.split('\t'));
		},
		/** The n8n environment for this database. */
		n8nEnv() {
			return {
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: HOST,
				DB_POSTGRESDB_PORT: String(port),
				DB_POSTGRESDB_DATABASE: 'n8n',
				DB_POSTGRESDB_USER: user,
				DB_POSTGRESDB_PASSWORD: password,
			};
		},
		// SIGINT = PostgreSQL's "fast" shutdown.
		stop: () => stopServer(rec, 'SIGINT', 20_000),
	};
	return handle;
}

// ----- Redis -----

function redisPing(port) {
	return new Promise((resolve) => {
		const sock = net.connect({ host: HOST, port });
		let buf = '';
		const done = (ok) => {
			sock.destroy();
			resolve(ok);
		};
		sock.setTimeout(2000, () => done(false));
		sock.on('error', () => done(false));
		sock.on('connect', () => sock.write('PING\r\n'));
		sock.on('data', (d) => {
			buf += d.toString('latin1');
			if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
		});
	});
}

/** redis-server on a free 127.0.0.1 port, no persistence, its folder a fresh temp one. */
async function startRedis({ log = () => {}, timeoutMs = 30_000 } = {}) {
	const bin = redisServerBin();
	if (!bin) throw new Error('redis-server is not installed');
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bizops-redis-'));
	const logFile = path.join(folder, 'redis.log');
	const port = await freePort(0);
	const rec = spawnServer(
		'redis',
		bin,
		[
			'--bind',
			HOST,
			'--port',
			String(port),
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			folder,
			'--daemonize',
			'no',
			'--protected-mode',
			'yes',
			'--logfile',
			'',
		],
		{ folder, logFile },
	);
	log(`redis starting on ${HOST}:${port} (pid ${rec.pid}, folder ${folder})`);
	try {
		await waitUntil(rec.proc, () => redisPing(port), timeoutMs, 'redis');
	} catch (e) {
		await stopServer(rec);
		throw e;
	}
	return {
		host: HOST,
		port,
		folder,
		logFile,
		pid: rec.pid,
		tail: (lines) => tailOf(logFile, lines),
		n8nEnv: () => ({ QUEUE_BULL_REDIS_HOST: HOST, QUEUE_BULL_REDIS_PORT: String(port) }),
		stop: () => stopServer(rec, 'SIGTERM', 10_000),
	};
}

// ----- CPU accounting (Linux /proc) -----

let clockTicks;

/**
 * CPU seconds (user + system) used so far by a process and all its descendants: the n8n
 * processes with their task runners, PostgreSQL's postmaster with its backends (which start
 * sessions of their own, so neither process group nor session finds them). Children that have
 * exited count through their parent's cutime/cstime once reaped. Undefined without /proc.
 */
function treeCpuSeconds(rootPid) {
	if (!rootPid || !fs.existsSync('/proc/self/stat')) return undefined;
	clockTicks ??=
		Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
	const procs = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat;
		try {
			stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue;
		}
		// Fields after "(comm)": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
		const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		procs.set(Number(entry), {
			ppid: Number(f[1]),
			ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]),
		});
	}
	if (!procs.has(rootPid)) return undefined;
	const children = new Map();
	for (const [pid, p] of procs) {
		if (!children.has(p.ppid)) children.set(p.ppid, []);
		children.get(p.ppid).push(pid);
	}
	let ticks = 0;
	const stack = [rootPid];
	while (stack.length) {
		const pid = stack.pop();
		ticks += procs.get(pid)?.ticks || 0;
		stack.push(...(children.get(pid) || []));
	}
	return ticks / clockTicks;
}

/** CPU seconds the whole machine has been busy (all cores, from /proc/stat), or undefined. */
function machineBusyCpuSeconds() {
	try {
		clockTicks ??=
			Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
		const [, user, nice, system, , , irq, softirq, steal] = fs
			.readFileSync('/proc/stat', 'utf8')
			.split('\n')[0]
			.trim()
			.split(/\s+/)
			.map(Number);
		return (user + nice + system + irq + softirq + (steal || 0)) / clockTicks;
	} catch {
		return undefined;
	}
}

module.exports = {
	ensureDebianPackages,
	postgresBinDir,
	redisServerBin,
	startPostgres,
	startRedis,
	treeCpuSeconds,
	machineBusyCpuSeconds,
};
