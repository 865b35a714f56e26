// The browser test's lookup of a browser (scripts/browser/chromium.js) on the machines it runs on:
// this Debian machine (Debian's chromium, installed with apt-get as root when missing) and
// GitHub's Ubuntu runners (Google Chrome preinstalled; the runner's user is not root).
// The machine is a stub: which files are executables, the environment, root or not, Debian or not.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findBrowser, ensureBrowser } = require('../../scripts/browser/chromium.js');

interface Machine {
	executables?: string[];
	env?: Record<string, string>;
	root?: boolean;
	debian?: boolean;
	/** What apt-get install chromium puts on the machine. */
	aptGives?: string[];
}

function machine({
	executables = [],
	env = { PATH: '/usr/local/bin:/usr/bin:/bin' },
	root = false,
	debian = false,
	aptGives = [],
}: Machine) {
	const files = new Set(executables);
	const calls = { apt: 0 };
	const system = {
		env,
		isExecutable: (file: string) => files.has(file),
		isRoot: () => root,
		isDebian: () => debian,
		aptInstallChromium: () => {
			calls.apt++;
			for (const f of aptGives) files.add(f);
		},
	};
	return { system, calls };
}

const say = () => undefined;

describe('the browser test finds a browser', () => {
	it("GitHub's Ubuntu runner: the workflows' CHROMIUM_PATH names Google Chrome; not root, nothing installed", () => {
		// The runner image links a Chromium snapshot as /usr/bin/chromium and chromium-browser beside Google Chrome.
		const { system, calls } = machine({
			env: { PATH: '/usr/local/bin:/usr/bin:/bin', CHROMIUM_PATH: '/usr/bin/google-chrome' },
			executables: [
				'/usr/bin/google-chrome',
				'/opt/google/chrome/chrome',
				'/usr/bin/chromium',
				'/usr/bin/chromium-browser',
			],
		});
		expect(ensureBrowser(say, system)).toBe('/usr/bin/google-chrome');
		expect(calls.apt).toBe(0);
	});

	it('a machine with only Google Chrome, not root: found without apt-get', () => {
		const { system, calls } = machine({
			executables: ['/usr/bin/google-chrome', '/opt/google/chrome/chrome'],
		});
		expect(ensureBrowser(say, system)).toBe('/usr/bin/google-chrome');
		expect(calls.apt).toBe(0);
	});

	it('Google Chrome only in its own folder (not linked into PATH)', () => {
		const { system } = machine({ executables: ['/opt/google/chrome/chrome'] });
		expect(findBrowser(system)).toBe('/opt/google/chrome/chrome');
	});

	it('a name on PATH comes before the fixed paths, in PATH order', () => {
		const { system } = machine({
			env: { PATH: '/home/me/bin:/usr/bin' },
			executables: ['/usr/bin/chromium', '/home/me/bin/chromium', '/opt/google/chrome/chrome'],
		});
		expect(findBrowser(system)).toBe('/home/me/bin/chromium');
	});

	it("Debian's chromium comes before Google Chrome when both are there", () => {
		const { system } = machine({
			executables: ['/usr/bin/google-chrome-stable', '/usr/bin/chromium'],
		});
		expect(findBrowser(system)).toBe('/usr/bin/chromium');
	});

	it("Ubuntu's chromium-browser is the last choice", () => {
		const { system } = machine({
			executables: ['/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable'],
		});
		expect(findBrowser(system)).toBe('/usr/bin/google-chrome-stable');
		expect(findBrowser(machine({ executables: ['/usr/bin/chromium-browser'] }).system)).toBe(
			'/usr/bin/chromium-browser',
		);
	});

	it('CHROMIUM_PATH wins over everything found', () => {
		const { system } = machine({
			env: { PATH: '/usr/bin', CHROMIUM_PATH: '/srv/chrome/chrome' },
			executables: ['/usr/bin/chromium', '/srv/chrome/chrome'],
		});
		expect(ensureBrowser(say, system)).toBe('/srv/chrome/chrome');
	});

	it('a CHROMIUM_PATH that is not there is an error naming it, not a silent fallback', () => {
		const { system, calls } = machine({
			env: { PATH: '/usr/bin', CHROMIUM_PATH: '/nope/chrome' },
			executables: ['/usr/bin/chromium'],
			root: true,
			debian: true,
		});
		expect(() => ensureBrowser(say, system)).toThrow(
			'CHROMIUM_PATH=/nope/chrome is not an executable file',
		);
		expect(calls.apt).toBe(0);
	});

	it("this machine: Debian, root, no browser: installs Debian's chromium with apt-get", () => {
		const { system, calls } = machine({
			root: true,
			debian: true,
			aptGives: ['/usr/bin/chromium'],
		});
		expect(ensureBrowser(say, system)).toBe('/usr/bin/chromium');
		expect(calls.apt).toBe(1);
	});

	it('apt-get that leaves no /usr/bin/chromium is an error', () => {
		const { system } = machine({ root: true, debian: true, aptGives: [] });
		expect(() => ensureBrowser(say, system)).toThrow(
			'apt-get installed chromium, but /usr/bin/chromium is still missing',
		);
	});

	it.each([
		['not root', { root: false, debian: true }],
		['Ubuntu (its chromium package is a snap)', { root: true, debian: false }],
	])('no browser, %s: no apt-get, an error that says what to install or set', (_, who) => {
		const { system, calls } = machine(who);
		expect(() => ensureBrowser(say, system)).toThrow(
			/No Chromium or Google Chrome found \(looked for chromium, google-chrome-stable, google-chrome, chromium-browser on PATH and at .*\/opt\/google\/chrome\/chrome\)\. Install one, or set CHROMIUM_PATH/,
		);
		expect(calls.apt).toBe(0);
	});
});
