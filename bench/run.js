#!/usr/bin/env node
// `npm run bench`: measures what users of this package care about against what they would
// otherwise use, in the same run, and prints one table with a ratio per line. It reports; it
// does not fail on speed. It exits non-zero only when something broke: a benchmark could not
// run, or a correctness check failed (items missing or created twice).
//
//   node bench/run.js                       everything (about 10 minutes on 2 cores)
//   node bench/run.js returnAll trigger     only the named parts: package, startup, returnAll, rateLimit, upsert, retryMemory, trigger, polling, aiTool, hostile, scale
//   node bench/run.js --quick               fewer repetitions (a smoke run; figures are noisier)
//   node bench/run.js --out=bench/RESULTS.md   also write the table and the machine facts as Markdown
//   BENCH_SKIP_BUILD=1                      use dist/ and build/sandbox/ as they are
//
// Real n8n (pinned 2.41.1 on Node 24, scripts/n8n) runs the package and n8n's own nodes; the
// sandbox API (sandbox/) runs in this process. See bench/README.md for what each figure means.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const rt = require('../scripts/n8n');
const { toText, toMarkdown, detailsText } = require('./lib/table');
const { fmtMs } = require('./lib/stats');

const PARTS = [
	'package',
	'startup',
	'returnAll',
	'rateLimit',
	'upsert',
	'retryMemory',
	'trigger',
	'polling',
	'aiTool',
	'hostile',
	'scale',
];
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const outArg = argv.find((a) => a.startsWith('--out='));
const outFile = outArg ? path.resolve(outArg.slice('--out='.length)) : undefined;
const selected = argv.filter((a) => !a.startsWith('-'));
for (const s of selected)
	if (!PARTS.includes(s)) fail(`unknown part "${s}"; known: ${PARTS.join(', ')}`);
const wanted = (part) => selected.length === 0 || selected.includes(part);

const started = Date.now();
const out = (line) => process.stdout.write(`${line}\n`);
const rows = [];
const failures = [];
const errors = [];
let n8n;
const sandboxes = [];
/** Temp folders this run made (n8n user folders, a minimal package); removed at the end. */
const ownedFolders = [];
/** Environment of every n8n this run starts (on top of scripts/n8n/server.js's). */
const N8N_ENV = { N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL || 'warn' };

function fail(message) {
	process.stderr.write(`bench: ${message}\n`);
	process.exit(2);
}

function elapsed() {
	return `${((Date.now() - started) / 1000).toFixed(0)} s`;
}

async function stopAll() {
	if (n8n) await n8n.dispose().catch((e) => out(`[bench] stopping n8n: ${e.message}`));
	n8n = undefined;
	for (const s of sandboxes.splice(0)) await s.stop().catch(() => {});
	if (!process.env.KEEP_N8N_FOLDER)
		for (const dir of ownedFolders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

for (const sig of ['SIGINT', 'SIGTERM']) {
	process.once(sig, () => {
		out(`[bench] ${sig}: stopping n8n and the sandboxes`);
		stopAll().finally(() => process.exit(130));
	});
}
process.on('exit', () => n8n && rt.killN8nNow(n8n));

function machineFacts(runtime) {
	const cpus = os.cpus();
	const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout?.trim();
	return {
		date: new Date().toISOString(),
		cpu: `${cpus.length} × ${cpus[0]?.model?.trim() || 'unknown'}`,
		memory: `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
		os: `${os.type()} ${os.release()} (${os.arch()})`,
		benchNode: process.version,
		n8nNode: runtime?.nodeVersion,
		n8n: runtime?.n8nVersion,
		npm: npmVersion,
		packageVersion: JSON.parse(fs.readFileSync(path.join(rt.REPO_ROOT, 'package.json'), 'utf8'))
			.version,
		quick,
	};
}

async function startSandbox(options) {
	const s = await rt.startSandbox({ port: 0, ...options });
	sandboxes.push(s);
	return s;
}

async function main() {
	out(
		`[bench] n8n-nodes-business-ops benchmarks${quick ? ' (quick)' : ''}: ${selected.length ? selected.join(', ') : PARTS.join(', ')}`,
	);
	const runtime = rt.ensureRuntime({ log: (l) => out(`[bench]   ${l}`) });
	runtime.nodeVersion = spawnSync(runtime.nodeBin, ['--version'], {
		encoding: 'utf8',
	}).stdout.trim();
	if (!process.env.BENCH_SKIP_BUILD) {
		out('[bench] npm run build, sandbox build …');
		rt.buildPackage();
		rt.buildSandbox();
	}

	const ctx = {
		runtime,
		quick,
		log: (line) => out(`[bench]   ${line}`),
		row: (r) => rows.push(r),
		fail: (name, message) => {
			failures.push({ name, message });
			out(`[bench]   CORRECTNESS FAILURE ${name}: ${message}`);
		},
		startSandbox,
		n8nEnv: N8N_ENV,
		ownFolder: (dir) => ownedFolders.push(dir),
		/** Restarts n8n on the same database, port and API key with extra environment. */
		restartN8n: async (env) => {
			const old = n8n;
			await old.stop();
			if (old.ownsUserFolder) ownedFolders.push(old.userFolder);
			n8n = await rt.startN8n({
				runtime,
				extensionsDir: rt.DIST_DIR,
				port: old.port,
				userFolder: old.userFolder,
				encryptionKey: old.encryptionKey,
				env: { ...N8N_ENV, ...env },
			});
			if (n8n.port !== old.port)
				throw new Error(`n8n came back on port ${n8n.port}, not ${old.port}`);
			ctx.n8n = n8n;
		},
		client: undefined,
		n8n: undefined,
		sandbox: undefined,
	};

	const runPart = async (part, fn) => {
		const t = Date.now();
		out(`[bench] ${part} … (${elapsed()})`);
		try {
			await fn();
			out(`[bench] ${part} done in ${fmtMs(Date.now() - t)}`);
		} catch (e) {
			errors.push({ part, message: e.message });
			out(`[bench] ${part} FAILED: ${e.stack || e.message}`);
			if (n8n) out(`[bench] n8n log tail:\n${n8n.tail(20)}`);
		}
	};

	if (wanted('package')) await runPart('package', () => require('./package').run(ctx));
	if (wanted('polling')) await runPart('polling', () => require('./polling').run(ctx));
	// Queue mode with processes, PostgreSQL and Redis of its own; before the single n8n of the other parts starts.
	if (wanted('scale')) await runPart('scale', () => require('./scale').run(ctx));

	const needsN8n = PARTS.filter((part) => !['package', 'scale'].includes(part)).some(wanted);
	if (needsN8n) {
		if (wanted('startup')) {
			await runPart('startup', async () => {
				n8n = await require('./startup').run(ctx);
				ownedFolders.push(n8n.userFolder);
			});
		}
		if (!n8n) {
			out('[bench] starting n8n …');
			n8n = await rt.startN8n({ runtime, extensionsDir: rt.DIST_DIR, port: 0, env: N8N_ENV });
		}
		ctx.n8n = n8n;
		ctx.client = await new rt.N8nClient(n8n.baseUrl).bootstrap(rt.DEMO_OWNER);
		ctx.sandbox = await startSandbox({
			seed: false,
			rateLimit: { limit: 1_000_000, windowMs: 60_000 },
		});
		if (wanted('returnAll')) await runPart('returnAll', () => require('./returnAll').run(ctx));
		if (wanted('rateLimit')) await runPart('rateLimit', () => require('./rateLimit').run(ctx));
		if (wanted('upsert')) await runPart('upsert', () => require('./upsert').run(ctx));
		if (wanted('retryMemory'))
			await runPart('retryMemory', () => require('./retryMemory').run(ctx));
		if (wanted('trigger')) await runPart('trigger', () => require('./trigger').run(ctx));
		if (wanted('aiTool')) await runPart('aiTool', () => require('./aiTool').run(ctx));
		if (wanted('hostile')) await runPart('hostile', () => require('./hostile').run(ctx));
	}
	await stopAll();

	const facts = machineFacts(runtime);
	out('');
	out(toText(rows));
	out('');
	out('How each figure is measured:');
	out(detailsText(rows));
	out('');
	out(
		`Machine: ${facts.cpu}, ${facts.memory}; ${facts.os}; bench on Node ${facts.benchNode}, n8n ${facts.n8n} on Node ${facts.n8nNode}; ${facts.date}`,
	);
	for (const f of failures) out(`CORRECTNESS FAILURE: ${f.name}: ${f.message}`);
	for (const e of errors) out(`BENCHMARK ERROR: ${e.part}: ${e.message.split('\n')[0]}`);
	const missed = rows.filter((r) => r.verdict === 'missed');
	out(
		`[bench] finished in ${elapsed()}: ${rows.filter((r) => r.verdict === 'met').length} within target, ${missed.length} over target, ${failures.length} correctness failure(s), ${errors.length} error(s)`,
	);

	if (outFile) {
		fs.writeFileSync(outFile, report(rows, facts));
		out(`[bench] wrote ${path.relative(process.cwd(), outFile) || outFile}`);
		if (outFile === RESULTS_FILE) {
			writeDocsTable(rows, facts);
			out(`[bench] wrote the same table into ${path.relative(process.cwd(), DOCS_FILE)}`);
		}
	}
	process.exitCode = failures.length || errors.length ? 1 : 0;
}

const RESULTS_FILE = path.join(rt.REPO_ROOT, 'bench', 'RESULTS.md');
const DOCS_FILE = path.join(rt.REPO_ROOT, 'docs', 'benchmarks.md');
const DOCS_START =
	'<!-- bench table: written by `npm run bench -- --out=bench/RESULTS.md` from the run of bench/RESULTS.md; do not edit -->';
const DOCS_END = '<!-- end of bench table -->';

/** Which run this is: the command and the parts it ran. */
function runLine(facts) {
	const args = [...selected, ...(quick ? ['--quick'] : []), '--out=bench/RESULTS.md'];
	const parts = selected.length ? selected.join(', ') : `all parts (${PARTS.join(', ')})`;
	return `Run of ${facts.date.slice(0, 10)}: \`npm run bench -- ${args.join(' ')}\`, ${parts}.`;
}

/** docs/benchmarks.md shows the table of the same run, between its markers. */
function writeDocsTable(rows, facts) {
	const docs = fs.readFileSync(DOCS_FILE, 'utf8');
	const start = docs.indexOf(DOCS_START);
	const end = docs.indexOf(DOCS_END);
	if (start < 0 || end < start) throw new Error(`${DOCS_FILE} has no bench table markers`);
	const table = [DOCS_START, runLine(facts), '', toMarkdown(rows), '', ''].join('\n');
	fs.writeFileSync(DOCS_FILE, docs.slice(0, start) + table + docs.slice(end));
}

function report(rows, facts) {
	return [
		'# Benchmark results',
		'',
		`${runLine(facts)} Produced by bench/run.js; every ratio compares two figures measured in this run; lower is better.`,
		'',
		toMarkdown(rows),
		'',
		'## How each figure is measured',
		'',
		detailsText(rows, '- '),
		'',
		'## Machine',
		'',
		`- CPU: ${facts.cpu}; memory ${facts.memory}; ${facts.os}`,
		`- n8n ${facts.n8n} on Node ${facts.n8nNode} (the pinned runtime of scripts/n8n); bench, sandbox and loader checks on Node ${facts.benchNode}; npm ${facts.npm}`,
		`- n8n-nodes-business-ops ${facts.packageVersion}`,
		'',
	].join('\n');
}

main()
	.catch(async (e) => {
		out(`[bench] ${e.stack || e}`);
		errors.push({ part: 'run', message: e.message });
		process.exitCode = 1;
	})
	.finally(stopAll);
