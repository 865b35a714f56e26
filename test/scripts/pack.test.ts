// scripts/n8n/pack.js packs a clean build made in a private copy of the package's sources: two
// packs at once (npm test's e2e lanes) and anything reading the package's dist/ meanwhile (the
// hostile step) never lose a file to each other, and no stale file of dist/ reaches a tarball.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PACK = join(__dirname, '..', '..', 'scripts', 'n8n', 'pack.js');

/** A package whose build (like tsc) adds dist/index.js to dist/, slowly enough for two to overlap. */
function fixturePackage(): string {
	const root = mkdtempSync(join(tmpdir(), 'bizops-pack-test-'));
	writeFileSync(
		join(root, 'package.json'),
		JSON.stringify({
			name: 'pack-fixture',
			version: '1.0.0',
			files: ['dist'],
			scripts: { build: 'node build.js' },
		}),
	);
	writeFileSync(
		join(root, 'build.js'),
		[
			"const fs = require('node:fs');",
			"fs.mkdirSync('dist', { recursive: true });",
			'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);',
			"fs.writeFileSync('dist/index.js', `module.exports = ${JSON.stringify(process.cwd())};\\n`);",
		].join('\n'),
	);
	// What a reader of the package's own dist/ holds while the packs run (an earlier build).
	mkdirSync(join(root, 'dist'));
	writeFileSync(join(root, 'dist', 'stale.js'), 'module.exports = "an earlier build";\n');
	return root;
}

/** packPackage in a child process (it is synchronous): resolves what it returned. */
function packInChild(
	root: string,
	outDir: string,
): Promise<{ file: string; files: string[]; dir: string }> {
	const code = `process.stdout.write(JSON.stringify(require(${JSON.stringify(PACK)}).packPackage({ root: ${JSON.stringify(root)}, outDir: ${JSON.stringify(outDir)} })))`;
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		let err = '';
		child.stdout.on('data', (c) => (out += c));
		child.stderr.on('data', (c) => (err += c));
		child.on('close', (status) =>
			status === 0 ? resolve(JSON.parse(out)) : reject(new Error(`pack exited ${status}: ${err}`)),
		);
	});
}

const listed = (tarball: string) =>
	spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
		.stdout.split('\n')
		.filter(Boolean)
		.sort();

test("two packs at once keep each other's build and the package's dist/, and pack only a clean build", async () => {
	const root = fixturePackage();
	const outs = [
		mkdtempSync(join(tmpdir(), 'bizops-pack-out-')),
		mkdtempSync(join(tmpdir(), 'bizops-pack-out-')),
	];
	try {
		const packed = await Promise.all(outs.map((out) => packInChild(root, out)));

		expect(readFileSync(join(root, 'dist', 'stale.js'), 'utf8')).toContain('an earlier build');
		expect(existsSync(join(root, 'dist', 'index.js'))).toBe(false);
		expect(packed[0].dir).not.toBe(packed[1].dir);
		for (const p of packed) {
			expect(p.files.sort()).toEqual(['dist/index.js', 'package.json']);
			expect(listed(p.file)).toEqual(['package/dist/index.js', 'package/package.json']);
			// each build is still whole after the other pack finished
			expect(readFileSync(join(p.dir, 'dist', 'index.js'), 'utf8')).toContain(
				JSON.stringify(p.dir),
			);
		}
	} finally {
		for (const dir of [root, ...outs]) rmSync(dir, { recursive: true, force: true });
	}
}, 60_000);
