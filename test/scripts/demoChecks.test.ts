// `npm run demo` checks the machine before it downloads anything (scripts/demo-checks.js): each
// check is given the machine (a PATH, free-space figures), so these tests need no uninstalling.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const checks = require('../../scripts/demo-checks');

const ROOT = join(__dirname, '..', '..');
const GB = 1e9;
let dir: string;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'bizops-demo-checks-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A folder holding executable stand-ins named `bins` (and `plain`: files that are not executable). */
function binDir(name: string, bins: string[], plain: string[] = []): string {
	const d = join(dir, name);
	mkdirSync(d);
	for (const bin of [...bins, ...plain]) {
		writeFileSync(join(d, bin), '#!/bin/sh\n');
		chmodSync(join(d, bin), bins.includes(bin) ? 0o755 : 0o644);
	}
	return d;
}

const machine = (o: Record<string, unknown> = {}) => ({
	node: 'v22.12.0',
	engines: '>=20.15',
	platform: 'linux',
	arch: 'x64',
	PATH: binDir(`all-${Math.random()}`, ['python3', 'make', 'g++']),
	toInstall: ['devDependencies', 'n8n2', 'registry'],
	disks: [{ pieces: ['devDependencies', 'n8n2', 'registry'], free: 50 * GB, where: '/' }],
	...o,
});

test('a machine with everything has no problem', () => {
	expect(checks.demoProblems(machine())).toEqual([]);
});

test('build tools: each missing one is named with its package, across every folder of PATH', () => {
	const first = binDir('first', ['python3']);
	const second = binDir('second', ['make'], ['g++']); // g++ present but not executable
	const [problem, ...others] = checks.demoProblems(
		machine({ PATH: [first, join(dir, 'absent'), second].join(':') }),
	);
	expect(others).toEqual([]);
	expect(problem.what).toMatch(/build tools missing: g\+\+ \(/);
	expect(problem.fix).toBe('sudo apt-get install -y g++   (Fedora: sudo dnf install -y gcc-c++)');
	expect(checks.missingOnPath(['python3', 'make', 'g++'], '')).toEqual(['python3', 'make', 'g++']);
});

test('build tools are not needed once the n8n runtime is installed', () => {
	const problems = checks.demoProblems(
		machine({ PATH: binDir('none', []), toInstall: ['registry'], disks: [] }),
	);
	expect(problems).toEqual([]);
});

test.each([
	['v20.14.9', true],
	['v20.15.0', false],
	['v21.0.0', false],
	['v18.20.4', true],
	['v9.99.99', true],
])('Node.js %s against >=20.15: problem %s', (node, problem) => {
	const found = checks.demoProblems(machine({ node }));
	expect(found.length).toBe(problem ? 1 : 0);
	if (problem) expect(found[0].fix).toMatch(/^install Node\.js 20\.15\.0 or newer/);
});

test('an engines range of another form fails loudly', () => {
	expect(() => checks.checkNode('v22.0.0', '^20.15')).toThrow(/not of the form >=X.Y.Z/);
});

test('the pinned runtime is Linux x64 only', () => {
	const [problem] = checks.demoProblems(machine({ platform: 'darwin', arch: 'arm64' }));
	expect(problem.what).toMatch(/Linux x64, and this is darwin arm64/);
});

test('free disk: what each filesystem must hold for the pieces not installed, and where to put the cache', () => {
	const disks = [
		{ pieces: ['n8n2', 'registry'], free: 3.7 * GB, where: '/home' },
		{ pieces: ['devDependencies'], free: 1.3 * GB, where: '/work' },
	];
	const problems = checks.demoProblems(machine({ disks }));
	expect(problems).toHaveLength(1);
	expect(problems[0].what).toBe(
		'not enough free disk on /home: 3.7 GB free, 3.8 GB needed for n8n 2.41 and its Node 24 (runtime cache) 3.4 GB, verdaccio, the local registry (runtime cache) 0.4 GB',
	);
	expect(problems[0].fix).toMatch(/^free 0\.1 GB there, or point XDG_CACHE_HOME at a disk/);
	const [devOnly] = checks.demoProblems(
		machine({ disks: [{ pieces: ['devDependencies'], free: 1.2 * GB, where: '/work' }] }),
	);
	expect(devOnly.fix).toBe('free 0.1 GB there');
});

test('measure: the pieces on one filesystem are counted together, from the nearest existing folder', () => {
	const m = checks.measure({
		toInstall: ['n8n2', 'registry'],
		dirs: { n8n2: join(dir, 'not', 'yet', 'there'), registry: dir },
	});
	expect(m.disks).toHaveLength(1);
	expect(m.disks[0].pieces).toEqual(['n8n2', 'registry']);
	expect(m.disks[0].where).toBe(dir);
	expect(m.disks[0].free).toBeGreaterThan(0);
	expect(m.toInstall).toEqual(['n8n2', 'registry']);
});

test('the demo without g++ and without its runtime stops at once, names the fix, installs nothing', () => {
	const cache = join(dir, 'cache');
	const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'demo.js')], {
		cwd: ROOT,
		encoding: 'utf8',
		env: { ...process.env, XDG_CACHE_HOME: cache, PATH: binDir('no-gxx', ['python3', 'make']) },
		timeout: 20_000,
	});
	expect(r.status).toBe(1);
	expect(r.stdout).toContain('build tools missing: g++');
	expect(r.stdout).toContain('fix: sudo apt-get install -y g++');
	expect(existsSync(cache)).toBe(false);
});
