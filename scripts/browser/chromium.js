// Headless Chromium for the browser test (scripts/browser.js), driven by puppeteer-core (a dev
// dependency: no browser download). The browser is CHROMIUM_PATH when set, else the first
// Chromium or Google Chrome found (findBrowser: the usual names on PATH, then their usual
// paths): Debian's /usr/bin/chromium here, Google Chrome on GitHub's Ubuntu runners. When none
// is found, Debian's `chromium` is installed with apt-get, on Debian and as root only.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/** The names looked up on PATH, in order: Debian's Chromium, Google Chrome, Ubuntu's Chromium. */
const NAMES = ['chromium', 'google-chrome-stable', 'google-chrome', 'chromium-browser'];
/** Then these paths (a PATH without /usr/bin, Google Chrome's own folder). */
const PATHS = [...NAMES.map((n) => `/usr/bin/${n}`), '/opt/google/chrome/chrome'];
const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-dev-shm-usage',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];
const VIEWPORT = { width: 1440, height: 900, deviceScaleFactor: 1 };

/** An executable file (symlinks followed). */
function isExecutable(file) {
	try {
		fs.accessSync(file, fs.constants.X_OK);
		return fs.statSync(file).isFile();
	} catch {
		return false;
	}
}

/** What the machine offers, replaced by stubs in the unit test. */
const SYSTEM = {
	env: process.env,
	isExecutable,
	isRoot: () => typeof process.getuid === 'function' && process.getuid() === 0,
	isDebian: () =>
		/^ID=debian$/m.test(
			fs.existsSync('/etc/os-release') ? fs.readFileSync('/etc/os-release', 'utf8') : '',
		),
	aptInstallChromium,
};

/** Every path looked at, in order: PATH's folders for each name, then PATHS. */
function candidates(env) {
	const dirs = (env.PATH || '').split(path.delimiter).filter((d) => path.isAbsolute(d));
	const all = NAMES.flatMap((name) => dirs.map((dir) => path.join(dir, name))).concat(PATHS);
	return [...new Set(all)];
}

/** CHROMIUM_PATH (which must exist), else the first candidate that is an executable file, else undefined. */
function findBrowser(system = SYSTEM) {
	const wanted = system.env.CHROMIUM_PATH;
	if (wanted) {
		if (!system.isExecutable(wanted))
			throw new Error(`CHROMIUM_PATH=${wanted} is not an executable file`);
		return wanted;
	}
	return candidates(system.env).find((file) => system.isExecutable(file));
}

/** The browser binary; Debian's chromium is installed with apt-get when none is found (Debian, root). */
function ensureBrowser(say, system = SYSTEM) {
	const found = findBrowser(system);
	if (found) return found;
	const none = `No Chromium or Google Chrome found (looked for ${NAMES.join(', ')} on PATH and at ${PATHS.join(', ')})`;
	if (!system.isDebian() || !system.isRoot()) {
		throw new Error(
			`${none}. Install one, or set CHROMIUM_PATH to its binary, and run again (on Debian as root, this script installs Debian's chromium itself)`,
		);
	}
	say(`${none}: installing Debian's chromium with apt-get (about 30 s)…`);
	system.aptInstallChromium();
	if (!system.isExecutable(DEBIAN_CHROMIUM))
		throw new Error(`apt-get installed chromium, but ${DEBIAN_CHROMIUM} is still missing`);
	return DEBIAN_CHROMIUM;
}

function aptInstallChromium() {
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [
		['update', '-qq'],
		['install', '-y', '-qq', 'chromium'],
	]) {
		const res = spawnSync('apt-get', args, {
			env,
			encoding: 'utf8',
			maxBuffer: 64 << 20,
			timeout: 10 * 60_000,
		});
		if (res.error || res.status !== 0) {
			const out = `${res.stdout || ''}${res.stderr || ''}`.trim().split('\n').slice(-20).join('\n');
			throw new Error(
				`apt-get ${args.join(' ')} failed (${res.error ? res.error.message : `exit ${res.status}`}):\n${out}`,
			);
		}
	}
}

/** Resolves to the promise's value, or rejects after `ms`. */
function within(ms, promise, what) {
	let timer;
	return Promise.race([
		promise.finally(() => clearTimeout(timer)),
		new Promise((_, reject) => {
			timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms / 1000} s`)), ms);
		}),
	]);
}

/**
 * Starts headless Chromium with a fresh profile in a temp folder. Returns { browser, profileDir, close() };
 * close() stops the browser (SIGKILL when it does not close) and removes the profile unless `keep`.
 */
async function launchChromium({ say, keep = false }) {
	const executablePath = ensureBrowser(say);
	say(`browser: ${executablePath}`);
	const puppeteer = require('puppeteer-core');
	const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizops-browser-'));
	const browser = await puppeteer.launch({
		executablePath,
		headless: true,
		args: [...FLAGS, `--user-data-dir=${path.join(profileDir, 'profile')}`],
		defaultViewport: VIEWPORT,
		timeout: 60_000,
		protocolTimeout: 120_000,
	});
	const proc = browser.process();
	const kill = () => {
		if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
	};
	process.once('exit', kill);
	return {
		browser,
		profileDir,
		async close() {
			await within(10_000, browser.close(), 'closing Chromium').catch((e) => say(e.message));
			kill();
			if (!keep) fs.rmSync(path.join(profileDir, 'profile'), { recursive: true, force: true });
		},
	};
}

module.exports = { launchChromium, within, VIEWPORT, findBrowser, ensureBrowser };
