'use strict';
// The one main of the end-to-end runners. A runner (scripts/e2e.js: one n8n process, 2.x or 1.123;
// scripts/e2e-queue.js: queue mode) describes its topology — which step modules it offers, how it
// starts its processes — and `runE2e` does the rest the same way for all: picking areas from the
// command line, timed setup phases, one progress line per step with the logs of a failing step,
// stopping everything on SIGINT/SIGTERM, and the closing "N passed, N failed" with the exit code.
//
// The shared setup pieces are here too: the n8n runtime, the package built, packed and published
// to a local registry (n8n installs it from there with its own installer), the sandbox, and the
// credentials of the sandbox's keys.

const fs = require('node:fs');
const path = require('node:path');

const rt = require('../../scripts/n8n');

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const out = (line) => process.stdout.write(`${line}\n`);
const SANDBOX_KEYS = ['admin', 'readOnly', 'contactsOnly', 'otherOrg'];

/** A failure's text; for one with no answer ("fetch failed"), its cause and where it went. */
function failureText(e) {
	if (typeof e?.message !== 'string') return String(e);
	const { cause } = e;
	const code = typeof cause?.code === 'string' ? cause.code : cause?.name;
	const why = typeof cause?.message === 'string' ? ` (${code}: ${cause.message})` : '';
	const lines = why ? (String(e.stack).match(/test\/e2e\/[\w.-]+\.js:\d+/g) ?? []) : [];
	return `${e.message}${why}${lines.length ? ` at ${lines.join(' < ')}` : ''}`;
}

function withTimeout(promise, ms, what) {
	let timer;
	return Promise.race([
		promise,
		new Promise((_, reject) => {
			timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
		}),
	]).finally(() => clearTimeout(timer));
}

/**
 * `ctx.requireOperation(resource, operation)` fails a step when n8n's copy of the node lacks the
 * resource or the operation it exercises, naming what the node has instead.
 */
function requireOperationOf(nodeType, nodeTypeName) {
	return (resource, operation) => {
		if (!nodeType) throw new Error(`n8n does not know ${nodeTypeName}`);
		const resources =
			nodeType.properties.find((p) => p.name === 'resource')?.options?.map((o) => o.value) || [];
		if (!resources.includes(resource)) throw new Error(`the node has no resource "${resource}"`);
		const ops = nodeType.properties
			.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))
			.flatMap((p) => p.options || [])
			.map((o) => o.value);
		if (!ops.includes(operation)) {
			throw new Error(
				`the node's ${resource} resource has no operation "${operation}" (has: ${ops.join(', ')})`,
			);
		}
	};
}

// ----- logs of the processes of a run -----

function fileSize(file) {
	try {
		return fs.statSync(file).size;
	} catch {
		return 0;
	}
}

function textSince(file, offset) {
	try {
		const fd = fs.openSync(file, 'r');
		const size = fs.fstatSync(fd).size;
		const buf = Buffer.alloc(Math.max(0, size - offset));
		fs.readSync(fd, buf, 0, buf.length, offset);
		fs.closeSync(fd);
		return buf.toString('utf8');
	} catch {
		return '';
	}
}

function printBlock(title, text, maxLines) {
	const lines = text.split('\n').filter((l) => l.trim());
	if (!lines.length) return;
	out(`    ----- ${title} -----`);
	for (const line of lines.slice(-maxLines)) out(`    | ${line}`);
	out('    -----');
}

/** Log offsets of every process now: { name: bytes }. */
function markLogs(processes) {
	return Object.fromEntries(processes().map(([name, h]) => [name, fileSize(h.logFile)]));
}

/** What each process logged since `offsets` (a failing step); the tail of the log when nothing. */
function printLogsSince(processes, offsets, maxLines = 40) {
	for (const [name, h] of processes()) {
		const text = textSince(h.logFile, offsets[name] || 0);
		if (text.trim()) printBlock(`${name} logged during this step`, text, maxLines);
		else if (processes().length === 1)
			printBlock(`${name} logged nothing during this step; the tail of its log`, h.tail(15), 15);
	}
}

// ----- shared setup pieces -----

/**
 * The common first phases: the n8n runtime, the sandbox's build, the package published to a local
 * registry, the sandbox started. Returns { runtime, pkg, sandbox }; `resources` gets what to stop.
 */
async function preparePackageAndSandbox({ phase, sub, which, sandboxOptions, resources }) {
	const runtime = await phase(
		`n8n runtime (${which === 'n8n1' ? 'n8n 1.123 LTS' : 'n8n 2.x'} + Node 24)`,
		async () => rt.ensureRuntime({ which, log: sub }),
	);
	// The package and the sandbox are built in a private copy of the repo (pkg.root): a run beside
	// this one (npm test runs two) rebuilds its own, and the repo's dist/ and build/ are never touched.
	resources.pkg = await phase(
		'build, pack and publish the package to a local registry (verdaccio)',
		async () => rt.publishPackage({ log: sub }),
	);
	await phase('build the sandbox', async () => rt.buildSandbox(resources.pkg.root));
	resources.sandbox = await phase('start the sandbox', async () =>
		rt.startSandbox({ root: resources.pkg.root, port: 0, ...sandboxOptions }),
	);
	return { runtime, pkg: resources.pkg, sandbox: resources.sandbox };
}

/** One n8n credential per sandbox key: { admin, readOnly, contactsOnly, otherOrg } → { id, name }. */
async function createCredentials(client, sandbox) {
	const credentials = {};
	for (const key of SANDBOX_KEYS) {
		const c = await client.createCredential({
			name: `Business Ops (${key})`,
			type: rt.CREDENTIAL_TYPE,
			data: rt.credentialData(sandbox, sandbox.keys[key]),
		});
		credentials[key] = { id: c.id, name: c.name };
	}
	return credentials;
}

/** The fields of `ctx` every topology provides (see test/e2e/README.md). */
async function baseContext({ client, n8n, sandbox, pkg, runtime, credentials, installed }) {
	const nodeType = (await client.nodeTypes()).find((t) => t.name === rt.NODE_TYPES.action);
	return {
		client,
		n8n,
		sandbox,
		pkg,
		runtime,
		installed,
		credentials,
		nodeType,
		state: {},
		requireOperation: requireOperationOf(nodeType, rt.NODE_TYPES.action),
	};
}

// ----- the main -----

/**
 * Runs one e2e topology to the end and sets the exit code.
 * @param {object} t
 * @param {string} t.prefix  progress-line prefix, e.g. "e2e", "e2e n8n1", "queue"
 * @param {object[]} t.modules  the step modules this topology offers, in order
 * @param {string[]} [t.always]  areas that run even when others are picked on the command line
 * @param {(phase: Function, sub: Function) => Promise<object>} t.setup  starts everything; returns ctx
 * @param {() => Array<[string, {logFile: string, tail: Function}]>} t.processes  n8n processes whose logs a failing step shows
 * @param {() => Promise<void>} t.stop  stops everything the setup started (must tolerate half a setup)
 * @param {(ctx: object) => void} [t.report]  extra lines after the steps (figures)
 */
async function runE2e(t) {
	const started = Date.now();
	const counts = { passed: 0, failed: 0, skipped: 0 };
	const failures = [];
	const timings = [];
	let interrupted = false;
	let stopping;
	const stopAll = () => {
		stopping ??= t.stop().catch((e) => out(`[${t.prefix}] stopping: ${e.message}`));
		return stopping;
	};
	for (const sig of ['SIGINT', 'SIGTERM']) {
		process.once(sig, () => {
			interrupted = true;
			out(`[${t.prefix}] ${sig}: stopping everything this run started; no further steps run`);
			setTimeout(() => process.exit(130), 90_000).unref();
			stopAll().finally(() => {
				out(`${counts.passed} passed, ${counts.failed + 1} failed`);
				process.exit(130);
			});
		});
	}

	const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
	const always = t.always || ['startup'];
	const known = t.modules.map((m) => m.area);
	const unknown = only.filter((a) => !known.includes(a));
	if (unknown.length) {
		out(`[${t.prefix}] unknown area(s): ${unknown.join(', ')}; known: ${known.join(', ')}`);
		process.exitCode = 2;
		return;
	}
	const selected = t.modules.filter(
		(m) => only.length === 0 || always.includes(m.area) || only.includes(m.area),
	);
	const steps = selected.flatMap((m) => m.steps.map((s) => ({ ...s, module: m })));

	const phase = async (name, fn) => {
		const t0 = Date.now();
		out(`[${t.prefix}] setup: ${name} …`);
		const r = await fn();
		timings.push([name, Date.now() - t0]);
		out(
			`[${t.prefix}] setup: ${name} … ok (${secs(Date.now() - t0)})${typeof r === 'string' ? ` ${r}` : ''}`,
		);
		return r;
	};
	const sub = (line) => out(`[${t.prefix}]   ${line}`);

	try {
		let ctx;
		try {
			ctx = await t.setup(phase, sub);
		} catch (e) {
			out(`[${t.prefix}] setup FAILED: ${e.stack && !e.n8nLogTail ? e.stack : e.message}`);
			for (const [name, h] of t.processes()) printBlock(`${name}: ${h.logFile}`, h.tail(30), 30);
			counts.failed = 1;
			counts.skipped = steps.length;
		}

		if (ctx) {
			const beforeDone = new Set();
			for (const [index, step] of steps.entries()) {
				if (interrupted) return;
				const label = `[${t.prefix}] ${index + 1}/${steps.length} ${step.module.area}: ${step.name}`;
				const t0 = Date.now();
				const mark = markLogs(t.processes);
				try {
					if (step.module.before && !beforeDone.has(step.module)) {
						beforeDone.add(step.module);
						await withTimeout(
							Promise.resolve(step.module.before(ctx)),
							120_000,
							`${step.module.area} before()`,
						);
					}
					const detail = await withTimeout(
						Promise.resolve(step.run(ctx)),
						step.timeoutMs || 180_000,
						'step',
					);
					if (interrupted) return;
					counts.passed++;
					out(`${label} … ok (${secs(Date.now() - t0)})${detail ? ` ${detail}` : ''}`);
				} catch (e) {
					if (interrupted) return;
					counts.failed++;
					out(`${label} … FAILED (${secs(Date.now() - t0)})`);
					const message = failureText(e);
					failures.push(`${label}: ${message.split('\n')[0]}`);
					for (const line of message.split('\n')) out(`    ${line}`);
					printLogsSince(t.processes, mark);
				}
			}
			t.report?.(ctx);
			if (counts.failed)
				for (const [name, h] of t.processes()) printBlock(`${name}: ${h.logFile}`, h.tail(25), 25);
		}
	} catch (e) {
		counts.failed++;
		out(`[${t.prefix}] ${e.stack || e}`);
	}
	if (interrupted) return;
	const tStop = Date.now();
	const kept = process.env.KEEP_N8N_FOLDER
		? `; n8n folders kept: ${t
				.processes()
				.map(([, h]) => h.userFolder)
				.join(', ')}`
		: '';
	await stopAll();
	const setupMs = timings.reduce((a, [, ms]) => a + ms, 0);
	out(
		`[${t.prefix}] setup ${secs(setupMs)} (${timings.map(([n, ms]) => `${n.split(' (')[0]} ${secs(ms)}`).join('; ')}); stopped in ${secs(Date.now() - tStop)}; finished in ${secs(Date.now() - started)}${kept}`,
	);
	const { passed, failed, skipped } = counts;
	// Repeated last: CI shows only the end of a failed phase's output.
	for (const f of failures) out(`FAILED ${f}`);
	out(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
	process.exitCode = failed ? 1 : 0;
}

module.exports = { runE2e, preparePackageAndSandbox, createCredentials, baseContext, failureText };
