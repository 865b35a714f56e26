// Headless Chromium for the browser test (scripts/browser.js): Debian's `chromium`, installed with
// apt-get when missing and running as root, driven by puppeteer-core (a dev dependency: no browser
// download). CHROMIUM_PATH names another binary (e.g. Google Chrome on a CI runner).
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

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

/** The Chromium binary, installed from Debian's packages when missing (root only). */
function ensureChromium(say) {
	const wanted = process.env.CHROMIUM_PATH || DEBIAN_CHROMIUM;
	if (fs.existsSync(wanted)) return wanted;
	if (process.env.CHROMIUM_PATH) throw new Error(`CHROMIUM_PATH=${wanted} does not exist`);
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		throw new Error(`${wanted} is missing; install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH, and run again`);
	}
	say(`${wanted} is missing: installing Debian's chromium with apt-get (about 30 s)…`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
		const res = spawnSync('apt-get', args, { env, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 10 * 60_000 });
		if (res.error || res.status !== 0) {
			const out = `${res.stdout || ''}${res.stderr || ''}`.trim().split('\n').slice(-20).join('\n');
			throw new Error(`apt-get ${args.join(' ')} failed (${res.error ? res.error.message : `exit ${res.status}`}):\n${out}`);
		}
	}
	if (!fs.existsSync(wanted)) throw new Error(`apt-get installed chromium, but ${wanted} is still missing`);
	return wanted;
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
	const executablePath = ensureChromium(say);
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

module.exports = { launchChromium, within, VIEWPORT };
