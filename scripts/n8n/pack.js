// The package as it is published: `npm pack` of a clean build (dist/ removed, `npm run build`),
// and re-versioned copies of that same tarball for the update tests (the repo's package.json is
// never touched). Standard library only.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

function run(cmd, args, opts = {}) {
	const res = spawnSync(cmd, args, {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		maxBuffer: 64 << 20,
		...opts,
	});
	if (res.error) throw res.error;
	if (res.status !== 0) {
		const out = `${res.stdout || ''}${res.stderr || ''}`.trim().split('\n').slice(-40).join('\n');
		throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.status}):\n${out}`);
	}
	return res.stdout;
}

/**
 * Builds the package from scratch and packs it into `outDir`.
 * Returns { file, name, version, integrity, size, files } (`files`: paths in the tarball).
 * @param {{ outDir: string, build?: boolean }} o  build: false packs dist/ as it is
 */
function packPackage({ outDir, build = true }) {
	if (build) {
		fs.rmSync(path.join(REPO_ROOT, 'dist'), { recursive: true, force: true });
		run('npm', ['run', '--silent', 'build']);
	}
	fs.mkdirSync(outDir, { recursive: true });
	const [info] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', outDir]));
	return {
		file: path.join(outDir, info.filename),
		name: info.name,
		version: info.version,
		integrity: info.integrity,
		size: info.size,
		files: info.files.map((f) => f.path),
	};
}

/** Unpacks a tarball into a new temp folder; returns the folder holding `package/`. */
function unpack(tarball) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizops-unpacked-'));
	run('tar', ['-xzf', tarball, '-C', dir]);
	return dir;
}

/** A copy of `tarball` whose package.json says `version`; returns its path (in `outDir`). */
function reversionTarball(tarball, version, outDir) {
	const dir = unpack(tarball);
	try {
		const pkgFile = path.join(dir, 'package', 'package.json');
		const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
		pkg.version = version;
		fs.writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
		const out = path.join(outDir, `${pkg.name}-${version}.tgz`);
		run('tar', ['-czf', out, '-C', dir, 'package']);
		return out;
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

module.exports = { packPackage, reversionTarball, unpack, REPO_ROOT };
