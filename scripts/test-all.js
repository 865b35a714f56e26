#!/usr/bin/env node
// `npm test` (= .ci/run): every check of the package, phase by phase, each phase's output
// as it runs, then a table of the phases with their durations. A failed build stops the
// run (nothing after it would mean anything); any other failed phase is reported and the run goes
// on, so that one run shows everything that is wrong. Exits non-zero when any phase failed.
// A failed phase's last lines are printed again under the table: a CI log is often read from its
// end, and the reason would otherwise sit thousands of lines above it.
//
// The e2e run on n8n 2.41 and the browser phase run beside a lane of the e2e on n8n 1.123 and the
// queue e2e (the two lanes take about as long): each run has its own sandbox, registry, n8n and
// temp folders, and most of their time is spent waiting for n8n (schedules, restarts, deadlines),
// so two cores serve both lanes. Each run builds
// and packs the package in its own copy of the sources (scripts/n8n/pack.js), so no lane removes
// or reads the dist/ of another, nor the repo's. The second lane prints each phase's output whole
// when the phase ends.
//
//   node scripts/test-all.js                 everything
//   node scripts/test-all.js lint e2e-queue  only the named phases (names as in the table)
'use strict';

const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const node = process.execPath;

const phase = (name, what, cmd, args) => ({ name, what, cmd, args });

/** The phases in the order they run; { lanes } runs its lanes side by side, each lane's phases in order. */
const PLAN = [
	phase('build', 'TypeScript to dist/, icons', 'npm', ['run', '--silent', 'build']),
	phase(
		'lint',
		"n8n-node lint (strict, n8n's default config); the project's rules for test/ and sandbox/",
		'npm',
		['run', '--silent', 'lint'],
	),
	phase('typecheck', 'nodes, tests, sandbox and scripts', 'npm', ['run', '--silent', 'typecheck']),
	phase(
		'workflows',
		'.github/workflows validate (action-validator) and do what the README says',
		node,
		['scripts/validate-workflows.js'],
	),
	phase('scan', "n8n's verification scan: source and packed tarball", node, ['scripts/scan.js']),
	phase('node24', 'build, lint, unit and engine tests on Node 24', node, [
		'scripts/test-node24.js',
	]),
	phase('jest', 'all jest suites (unit, sandbox, robustness) on this Node', node, [
		require.resolve('jest/bin/jest'),
	]),
	{
		lanes: [
			[
				phase(
					'e2e',
					'n8n 2.41, installed from a local registry by its Community Nodes installer',
					node,
					['scripts/e2e.js'],
				),
				phase(
					'browser',
					"the README's first workflow in n8n 2.41's editor, headless Chromium; refreshes docs/*.png",
					node,
					['scripts/browser.js'],
				),
			],
			[
				phase('e2e-n8n1', 'the same on n8n 1.123 LTS', node, ['scripts/e2e.js', '--n8n=1']),
				phase(
					'e2e-queue',
					'queue mode: main, 2 workers, 2 webhook processes behind a relay, PostgreSQL, Redis; a worker and the main killed',
					node,
					['scripts/e2e-queue.js'],
				),
			],
		],
	},
];
const PHASES = PLAN.flatMap((p) => (p.lanes ? p.lanes.flat() : [p]));

const only = process.argv.slice(2);
const unknown = only.filter((n) => !PHASES.some((p) => p.name === n));
if (unknown.length) {
	console.error(
		`unknown phase(s): ${unknown.join(', ')}; known: ${PHASES.map((p) => p.name).join(', ')}`,
	);
	process.exit(2);
}

const fmt = (ms) => {
	const s = Math.round(ms / 1000);
	return s >= 60 ? `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`;
};

const TAIL_LINES = 80;

/**
 * Runs a phase; its output goes to `write` line by line as it comes (whole lines only, so that two
 * phases side by side never split each other's lines). Resolves { status, error, tail }.
 */
function runPhase(cmd, args, write) {
	return new Promise((resolve) => {
		const child = spawn(cmd, args, { cwd: ROOT, stdio: ['inherit', 'pipe', 'pipe'] });
		let tail = [];
		const partial = { stdout: '', stderr: '' };
		const take = (stream) => (chunk) => {
			const lines = (partial[stream] + chunk.toString('utf8')).split('\n');
			partial[stream] = lines.pop();
			if (!lines.length) return;
			write(stream, `${lines.join('\n')}\n`);
			tail = tail.concat(lines).slice(-TAIL_LINES);
		};
		child.stdout.on('data', take('stdout'));
		child.stderr.on('data', take('stderr'));
		const end = () => {
			for (const [stream, text] of Object.entries(partial)) if (text) take(stream)('\n');
			return tail;
		};
		child.on('error', (error) => resolve({ status: null, error, tail: end() }));
		child.on('close', (status, signal) => resolve({ status, signal, tail: end() }));
	});
}

const live = (stream, text) => process[stream].write(text);

/** Runs `p`, adds its result to `results`; `aside`: the output is held and printed whole at the end. */
async function runOne(p, results, aside) {
	const held = [];
	const write = aside ? (stream, text) => held.push([stream, text]) : live;
	const header = `\n===== ${p.name}: ${p.what} =====`;
	if (aside)
		console.log(
			`\n===== ${p.name} started beside the phase above; its output follows when it ends =====`,
		);
	else console.log(header);
	const t0 = Date.now();
	const r = await runPhase(p.cmd, p.args, write);
	const ok = r.status === 0;
	if (aside) {
		console.log(header);
		for (const [stream, text] of held) live(stream, text);
	}
	results.push({
		...p,
		ok,
		ms: Date.now() - t0,
		tail: r.tail,
		why: ok ? '' : r.error ? r.error.message : `exit ${r.status ?? r.signal}`,
	});
	console.log(`===== ${p.name}: ${ok ? 'passed' : 'FAILED'} in ${fmt(Date.now() - t0)} =====`);
	return ok;
}

const picked = (p) => !only.length || only.includes(p.name);

async function main() {
	const started = Date.now();
	const results = [];
	for (const step of PLAN) {
		if (step.lanes) {
			const lanes = step.lanes.map((lane) => lane.filter(picked)).filter((lane) => lane.length);
			await Promise.all(
				lanes.map(async (lane, i) => {
					for (const p of lane) await runOne(p, results, i > 0);
				}),
			);
		} else if (picked(step) && !(await runOne(step, results, false)) && step.name === 'build')
			break;
	}
	const order = PHASES.map((p) => p.name);
	results.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));

	const failed = results.filter((r) => !r.ok);
	for (const r of failed) {
		console.log(`\n----- ${r.name} FAILED; its last ${r.tail.length} lines of output again -----`);
		console.log(r.tail.join('\n'));
	}
	console.log('\nnpm test, phase by phase:');
	for (const r of results)
		console.log(
			`  ${r.ok ? 'passed' : 'FAILED'}  ${fmt(r.ms).padStart(10)}  ${r.name.padEnd(10)} ${r.what}${r.why ? ` (${r.why})` : ''}`,
		);
	console.log(
		`total ${fmt(Date.now() - started)}: ${results.length - failed.length} of ${results.length} phase(s) passed${failed.length ? `; FAILED: ${failed.map((r) => r.name).join(', ')}` : ''}`,
	);
	process.exitCode = failed.length ? 1 : 0;
}

main();
