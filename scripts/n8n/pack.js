// The package as it is published: `npm pack` of a clean build, made in a private copy of the
// repo's sources (so the repo's own dist/ is neither removed nor read: runs side by side, and
// whatever loads dist/ meanwhile, never see each other's builds), and re-versioned copies of that
// same tarball for the update tests (the repo's package.json is never touched). Standard library only.
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

/** Build outputs and installs, never copied: the copy's build starts from the sources alone. */
const NOT_SOURCES = new Set(['node_modules', 'dist', 'build', '.git', 'coverage', '.cache']);

/** `root`'s sources into `dir`, with `root`'s node_modules linked (the build's tools). */
function copySources(root, dir) {
	fs.cpSync(root, dir, {
		recursive: true,
		filter: (src) => {
			const rel = path.relative(root, src);
			return !NOT_SOURCES.has(rel.split(path.sep)[0]) && !rel.endsWith('.tgz') && src !== dir;
		},
	});
	if (fs.existsSync(path.join(root, 'node_modules')))
		fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}

/**
 * Builds the package from its sources (`npm run build` in a copy under `outDir`) and packs it into
 * `outDir`. Returns { file, name, version, integrity, size, files, dir } (`files`: paths in the
 * tarball; `dir`: the folder whose dist/ was packed, for anything that loads the built code).
 * @param {{ outDir: string, build?: boolean, root?: string }} o  build: false packs `root`'s dist/
 *   as it is; root: the package's folder (this repo)
 */
function packPackage({ outDir, build = true, root = REPO_ROOT }) {
	fs.mkdirSync(outDir, { recursive: true });
	let dir = root;
	if (build) {
		dir = fs.mkdtempSync(path.join(outDir, 'build-'));
		copySources(root, dir);
		run('npm', ['run', '--silent', 'build'], { cwd: dir });
	}
	const [info] = JSON.parse(
		run('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: dir }),
	);
	return {
		dir,
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
