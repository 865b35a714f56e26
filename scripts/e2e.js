#!/usr/bin/env node
// End-to-end tests of this package in real n8n 2.41.1 against the local sandbox of the API.
//
//   npm run test:e2e                 all areas
//   node scripts/e2e.js contacts     only the named areas (startup and setup always run)
//   E2E_SKIP_BUILD=1                 use dist/ and build/sandbox/ as they are
//   KEEP_N8N_FOLDER=1                keep n8n's temp user folder (database, n8n.log) afterwards
//
// Prints one line per step, the tail of n8n's log for each failure, and closes with
// "N passed, N failed". Exits non-zero on any failure. Always stops what it started.
//
// The steps live in test/e2e/*.js, listed in test/e2e/index.js. Each gets `ctx`:
//   ctx.client       N8nClient (scripts/n8n/client.js), logged in as the owner, with a public-API key
//   ctx.n8n          the running n8n: baseUrl, port, userFolder, logFile, restart(), tail(n)
//   ctx.sandbox      the sandbox started in this process: baseUrl, controlUrl, keys, control
//   ctx.credentials  { admin, readOnly, contactsOnly, otherOrg }: n8n credentials ({id, name}) on the sandbox keys
//   ctx.nodeType     the Business Ops node description n8n serves (resources, operations)
//   ctx.requireOperation(resource, operation)  skips the step while the node has no such resource yet
//   ctx.state        a plain object steps may share within a run
'use strict';

const fs = require('node:fs');

const rt = require('./n8n');
const { requireOperationOf, runSteps, secs } = require('../test/e2e/runner');

const started = Date.now();
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const out = (line) => process.stdout.write(`${line}\n`);


let sandbox;
let n8n;
let stopped;
let interrupted = false;
const counts = { passed: 0, failed: 0, skipped: 0 };

/** Stops n8n and the sandbox (once; later calls get the same promise). */
function stopAll() {
	stopped ??= (async () => {
		if (n8n) await n8n.dispose().catch((e) => out(`[e2e] stopping n8n: ${e.message}`));
		if (sandbox) await sandbox.stop().catch((e) => out(`[e2e] stopping the sandbox: ${e.message}`));
	})();
	return stopped;
}

for (const sig of ['SIGINT', 'SIGTERM']) {
	process.once(sig, () => {
		interrupted = true;
		out(`[e2e] ${sig}: stopping n8n and the sandbox; no further steps run`);
		stopAll().finally(() => {
			out(`${counts.passed} passed, ${counts.failed + 1} failed`);
			process.exit(130);
		});
	});
}
process.on('exit', () => rt.killN8nNow(n8n));

function logSince(offset, maxLines = 60) {
	if (!n8n) return '';
	try {
		const fd = fs.openSync(n8n.logFile, 'r');
		const size = fs.fstatSync(fd).size;
		const buf = Buffer.alloc(Math.max(0, size - offset));
		fs.readSync(fd, buf, 0, buf.length, offset);
		fs.closeSync(fd);
		const lines = buf.toString('utf8').split('\n').filter(Boolean);
		return lines.slice(-maxLines).join('\n');
	} catch {
		return '';
	}
}

function logSize() {
	try {
		return fs.statSync(n8n.logFile).size;
	} catch {
		return 0;
	}
}

function printN8nLog(offset) {
	let text = logSince(offset);
	let what = 'n8n logged during this step';
	if (!text.trim()) {
		text = n8n ? n8n.tail(15) : '';
		what = 'n8n logged nothing during this step; the tail of its log';
	}
	if (!text.trim()) return;
	out(`    ----- ${what} -----`);
	for (const line of text.split('\n')) out(`    | ${line}`);
	out('    -----');
}

async function setup() {
	const phase = async (name, fn) => {
		const t = Date.now();
		out(`[e2e] setup: ${name} …`);
		const r = await fn();
		out(`[e2e] setup: ${name} … ok (${secs(Date.now() - t)})${typeof r === 'string' ? ` ${r}` : ''}`);
		return r;
	};

	const runtime = await phase('n8n runtime (pinned n8n 2.41.1 + Node 24)', async () =>
		rt.ensureRuntime({ log: (l) => out(`[e2e]   ${l}`) }),
	);
	if (!process.env.E2E_SKIP_BUILD) {
		await phase('npm run build', async () => rt.buildPackage());
		await phase('build the sandbox', async () => rt.buildSandbox());
	}
	sandbox = await phase('start the sandbox', async () =>
		// The per-key rate limit is raised so the run is not throttled; rate-limit steps lower it themselves.
		rt.startSandbox({ port: 0, rateLimit: { limit: 100_000, windowMs: 60_000 } }),
	);
	n8n = await phase('start n8n', async () =>
		rt.startN8n({ runtime, extensionsDir: rt.DIST_DIR, port: 0, log: (l) => out(`[e2e]   ${l}`) }),
	);
	const client = new rt.N8nClient(n8n.baseUrl);
	const credentials = {};
	await phase('owner, API key and credentials', async () => {
		await client.bootstrap(rt.DEMO_OWNER);
		for (const key of ['admin', 'readOnly', 'contactsOnly', 'otherOrg']) {
			const c = await client.createCredential({
				name: `Business Ops (${key})`,
				type: rt.CREDENTIAL_TYPE,
				data: rt.credentialData(sandbox, sandbox.keys[key]),
			});
			credentials[key] = { id: c.id, name: c.name };
		}
	});
	const nodeType = (await client.nodeTypes()).find((t) => t.name === rt.NODE_TYPES.action);
	const ctx = {
		client,
		n8n,
		sandbox,
		credentials,
		nodeType,
		state: {},
		requireOperation: requireOperationOf(nodeType, rt.NODE_TYPES.action),
	};
	return ctx;
}

async function main() {
	const modules = require('../test/e2e');
	const selected = modules.filter((m) => only.length === 0 || m.area === 'startup' || only.includes(m.area));
	const unknown = only.filter((a) => !modules.some((m) => m.area === a));
	if (unknown.length) throw new Error(`unknown area(s): ${unknown.join(', ')}; known: ${modules.map((m) => m.area).join(', ')}`);
	const steps = selected.flatMap((m) => m.steps.map((s) => ({ ...s, module: m })));

	let ctx;
	try {
		ctx = await setup();
	} catch (e) {
		out(`[e2e] setup FAILED: ${e.message}`);
		if (n8n && !e.n8nLogTail) printN8nLog(0);
		counts.failed = 1;
		counts.skipped = steps.length;
	}

	if (ctx) {
		await runSteps({
			steps,
			ctx,
			prefix: 'e2e',
			counts,
			out,
			isInterrupted: () => interrupted,
			markLogs: logSize,
			printLogsSince: printN8nLog,
		});
	}

	if (interrupted) return;
	await stopAll();
	const { passed, failed, skipped } = counts;
	out(`[e2e] finished in ${secs(Date.now() - started)}${n8n && process.env.KEEP_N8N_FOLDER ? `; n8n folder kept: ${n8n.userFolder}` : ''}`);
	out(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
	process.exitCode = failed ? 1 : 0;
}

main().catch(async (e) => {
	out(`[e2e] ${e.stack || e}`);
	await stopAll();
	out(`${counts.passed} passed, ${counts.failed + 1} failed`);
	process.exit(1);
});
