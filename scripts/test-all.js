#!/usr/bin/env node
// `npm test` (= .ci/run): every check of the package, one phase after another, each phase's
// output as it runs, then a table of the phases with their durations. A failed build stops the
// run (nothing after it would mean anything); any other failed phase is reported and the run goes
// on, so that one run shows everything that is wrong. Exits non-zero when any phase failed.
// A failed phase's last lines are printed again under the table: a CI log is often read from its
// end, and the reason would otherwise sit thousands of lines above it.
//
//   node scripts/test-all.js                 everything
//   node scripts/test-all.js lint e2e-queue  only the named phases (names as in the table)
'use strict';

const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const node = process.execPath;

/** [name, what it checks, command, args] in the order they run. */
const PHASES = [
	['build', 'TypeScript to dist/, icons', 'npm', ['run', '--silent', 'build']],
	['lint', "n8n-node lint (strict, n8n's default config); the project's rules for test/ and sandbox/", 'npm', ['run', '--silent', 'lint']],
	['typecheck', 'nodes, tests, sandbox and scripts', 'npm', ['run', '--silent', 'typecheck']],
	['workflows', '.github/workflows validate (action-validator) and do what the README says', node, ['scripts/validate-workflows.js']],
	['scan', "n8n's verification scan: source and packed tarball", node, ['scripts/scan.js']],
	['node24', 'build, lint, unit and break-run tests on Node 24', node, ['scripts/test-node24.js']],
	['jest', 'all jest suites (unit, sandbox, robustness) on this Node', node, [require.resolve('jest/bin/jest')]],
	['e2e', 'n8n 2.41, installed from a local registry by its Community Nodes installer', node, ['scripts/e2e.js']],
	['browser', "the README's first workflow in n8n 2.41's editor, headless Chromium; refreshes docs/*.png", node, ['scripts/browser.js']],
	['e2e-n8n1', 'the same on n8n 1.123 LTS', node, ['scripts/e2e.js', '--n8n=1']],
	['e2e-queue', 'queue mode: main, 2 workers, 2 webhook processes behind a relay, PostgreSQL, Redis; a worker and the main killed', node, ['scripts/e2e-queue.js']],
];

const only = process.argv.slice(2);
const unknown = only.filter((n) => !PHASES.some(([name]) => name === n));
if (unknown.length) {
	console.error(`unknown phase(s): ${unknown.join(', ')}; known: ${PHASES.map(([n]) => n).join(', ')}`);
	process.exit(2);
}

const fmt = (ms) => {
	const s = Math.round(ms / 1000);
	return s >= 60 ? `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`;
};

const TAIL_LINES = 80;

/** Runs a phase with its output passed through as it comes; resolves { status, error, tail }. */
function runPhase(cmd, args) {
	return new Promise((resolve) => {
		const child = spawn(cmd, args, { cwd: ROOT, stdio: ['inherit', 'pipe', 'pipe'] });
		let tail = [];
		let partial = '';
		const keep = (chunk) => {
			const lines = (partial + chunk.toString('utf8')).split('\n');
			partial = lines.pop();
			tail = tail.concat(lines).slice(-TAIL_LINES);
		};
		child.stdout.on('data', (c) => (process.stdout.write(c), keep(c)));
		child.stderr.on('data', (c) => (process.stderr.write(c), keep(c)));
		child.on('error', (error) => resolve({ status: null, error, tail }));
		child.on('close', (status, signal) => resolve({ status, signal, tail: partial ? [...tail, partial].slice(-TAIL_LINES) : tail }));
	});
}

async function main() {
	const started = Date.now();
	const results = [];
	for (const [name, what, cmd, args] of PHASES) {
		if (only.length && !only.includes(name)) continue;
		console.log(`\n===== ${name}: ${what} =====`);
		const t0 = Date.now();
		const r = await runPhase(cmd, args);
		const ok = r.status === 0;
		results.push({ name, what, ok, ms: Date.now() - t0, tail: r.tail, why: ok ? '' : r.error ? r.error.message : `exit ${r.status ?? r.signal}` });
		console.log(`===== ${name}: ${ok ? 'passed' : 'FAILED'} in ${fmt(Date.now() - t0)} =====`);
		if (!ok && name === 'build') break;
	}

	const failed = results.filter((r) => !r.ok);
	for (const r of failed) {
		console.log(`\n----- ${r.name} FAILED; its last ${r.tail.length} lines of output again -----`);
		console.log(r.tail.join('\n'));
	}
	console.log('\nnpm test, phase by phase:');
	for (const r of results) console.log(`  ${r.ok ? 'passed' : 'FAILED'}  ${fmt(r.ms).padStart(10)}  ${r.name.padEnd(10)} ${r.what}${r.why ? ` (${r.why})` : ''}`);
	console.log(`total ${fmt(Date.now() - started)}: ${results.length - failed.length} of ${results.length} phase(s) passed${failed.length ? `; FAILED: ${failed.map((r) => r.name).join(', ')}` : ''}`);
	process.exitCode = failed.length ? 1 : 0;
}

main();
