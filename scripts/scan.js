#!/usr/bin/env node
// `npm run test:scan`: n8n's verification scan (@n8n/scan-community-package, the check n8n runs
// before it verifies a community package), both of its lint legs, run locally:
//   1. the source: package.json + {nodes,credentials}/**/*.{js,ts,json} (what `n8n-node lint` covers);
//   2. the package as published: `npm pack` of a clean build, unpacked: **/*.js + package.json.
// Its third check, npm provenance, needs a version published from GitHub Actions (see docs/publishing.md,
// "Verification and n8n 3.0"), so it cannot run before the first release.
// Prints each leg's result (ESLint's report on failure) and exits non-zero when either fails.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { packPackage, unpack, REPO_ROOT } = require('./n8n/pack');

const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

async function main() {
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
		'@n8n/scan-community-package/scanner/scanner.mjs'
	);
	const version = require('@n8n/scan-community-package/package.json').version;
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bizops-scan-'));
	let failed = 0;
	const leg = async (name, dir, patterns) => {
		const t0 = Date.now();
		const result = await analyzePackage(dir, patterns);
		const secs = ((Date.now() - t0) / 1000).toFixed(1);
		if (result.passed) {
			console.log(`[scan] ${name}: passed (${patterns.join(' + ')}; ${secs} s)`);
		} else {
			failed++;
			console.log(`[scan] ${name}: FAILED: ${result.message} (${secs} s)`);
			if (result.details) console.log(result.details);
		}
	};
	try {
		console.log(`[scan] @n8n/scan-community-package ${version}`);
		await leg('source', REPO_ROOT, SOURCE_FILE_PATTERNS);
		const packed = packPackage({ outDir: work });
		const dir = path.join(unpack(packed.file), 'package');
		await leg(`tarball ${path.basename(packed.file)}`, dir, TARBALL_PATTERNS);
		fs.rmSync(path.dirname(dir), { recursive: true, force: true });
		console.log(
			'[scan] provenance: not checked here (it needs a version published from GitHub Actions with npm provenance)',
		);
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
	process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
	console.error(`[scan] ${e.stack || e}`);
	process.exit(1);
});
