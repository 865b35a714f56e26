#!/usr/bin/env node
// `npm run demo`: real n8n 2.41.x with this package installed the way users install it (built,
// packed, published to a local registry, installed by n8n's Community Nodes installer), next to
// the local sandbox of the Business Operations API, with a ready credential and the workflow
// templates of templates/ imported (those with a Business Ops Trigger published: they run on real
// events, and write to the sandbox). Before it downloads anything it checks the machine
// (demo-checks.js) and stops, naming each missing piece with its fix.
//
//   npm run demo                          n8n on 127.0.0.1:5678, sandbox on 127.0.0.1:4010
//   DEMO_N8N_PORT=5700 DEMO_SANDBOX_PORT=4100 npm run demo   other ports (taken ports are replaced by free ones)
//   DEMO_SKIP_BUILD=1 npm run demo        pack dist/ and use build/sandbox/ as they are
//
// Runs until Ctrl-C (SIGINT) or SIGTERM, then stops n8n, the registry and the sandbox and removes
// their temp folders; n8n's log stays in build/demo/n8n.log (replaced by the next demo).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const rt = require('./n8n');
const { importTemplates, PACKAGE_PREFIX } = require('./n8n/templates');
const { demoProblems, measure, portTaken, PIECES } = require('./demo-checks');
const { ensureDevDependencies, devDependenciesInstalled } = require('./ensure-install');

const LOG_FILE = path.join(rt.REPO_ROOT, 'build', 'demo', 'n8n.log');

const out = (line) => process.stdout.write(`${line}\n`);
const say = (line) => out(`[demo] ${line}`);

let sandbox;
let n8n;
let pkg;
let stopping = false;

async function stopAll(code) {
	if (stopping) return;
	stopping = true;
	say('stopping…');
	if (n8n) await n8n.dispose().catch((e) => say(`stopping n8n: ${e.message}`));
	if (sandbox) await sandbox.stop().catch((e) => say(`stopping the sandbox: ${e.message}`));
	if (pkg) await pkg.stop().catch((e) => say(`stopping the registry: ${e.message}`));
	say(`stopped; n8n's log is kept in ${path.relative(process.cwd(), LOG_FILE)}`);
	process.exit(code);
}

process.once('SIGINT', () => stopAll(0));
process.once('SIGTERM', () => stopAll(0));

function portFromEnv(name, fallback) {
	const v = Number(process.env[name]);
	return Number.isInteger(v) && v > 0 ? v : fallback;
}

/** Stops the process (having downloaded nothing) when the machine lacks what the demo needs. */
async function checkMachine(ports) {
	const toInstall = [
		...(devDependenciesInstalled() ? [] : ['devDependencies']),
		...['n8n2', 'registry'].filter((which) => !rt.isRuntimeInstalled(which)),
	];
	const dirs = {
		devDependencies: rt.REPO_ROOT,
		n8n2: rt.runtimeDir('n8n2'),
		registry: rt.runtimeDir('registry'),
	};
	const problems = demoProblems(measure({ toInstall, dirs }));
	if (problems.length) {
		say(
			`this machine cannot run the demo yet (nothing was downloaded); ${problems.length} thing(s) to fix:`,
		);
		for (const p of problems) out(`  - ${p.what}\n    fix: ${p.fix}`);
		process.exit(1);
	}
	say(
		`machine checked: Node.js ${process.version}, ${toInstall.length ? `to install: ${toInstall.map((p) => `${PIECES[p].what} ${(PIECES[p].bytes / 1e9).toFixed(1)} GB`).join(', ')} (build tools and disk present)` : 'everything installed'}`,
	);
	for (const [name, port] of Object.entries(ports))
		if (await portTaken(port))
			say(`port ${port} is taken: ${name} gets a free port instead (printed below)`);
}

/** What a template does, from its nodes: what starts it and which Business Ops nodes write. */
function whatItDoes(wf) {
	const trigger = wf.nodes.find((n) => /trigger$/i.test(n.type));
	const events = trigger?.parameters?.events;
	const start = events ? `each ${events.join(' or ')} event` : `"${trigger?.name}"`;
	const steps = wf.nodes
		.filter((n) => n.type.startsWith(PACKAGE_PREFIX) && n.parameters?.operation)
		.map((n) => `"${n.name}"${/^get/.test(n.parameters.operation) ? '' : ' (writes)'}`);
	return `${start} runs ${steps.length ? steps.join(', ') : 'its steps (none of them a Business Ops action: it changes nothing)'}`;
}

async function main() {
	const t0 = Date.now();
	const ports = {
		n8n: portFromEnv('DEMO_N8N_PORT', 5678),
		sandbox: portFromEnv('DEMO_SANDBOX_PORT', 4010),
	};
	await checkMachine(ports);
	ensureDevDependencies();
	say('preparing the n8n runtime (the first run installs it: several minutes)…');
	const runtime = rt.ensureRuntime({ log: (l) => say(`  ${l}`) });
	say('building, packing and publishing the package to a local registry…');
	pkg = await rt.publishPackage({ build: !process.env.DEMO_SKIP_BUILD, log: (l) => say(`  ${l}`) });
	if (!process.env.DEMO_SKIP_BUILD) {
		say('building the sandbox…');
		rt.buildSandbox(pkg.root);
	}

	sandbox = await rt.startSandbox({
		root: pkg.root,
		port: await rt.freePort(ports.sandbox),
		log: process.env.DEMO_VERBOSE ? (l) => say(`sandbox: ${l}`) : undefined,
	});
	say(`sandbox listening on ${sandbox.baseUrl}`);

	say('starting n8n and installing the package with its Community Nodes installer…');
	fs.mkdirSync(path.dirname(LOG_FILE), { recursive: true });
	fs.rmSync(LOG_FILE, { force: true });
	const started = await rt.startN8nWithPackage({
		runtime,
		pkg,
		owner: rt.DEMO_OWNER,
		expectNodeTypes: Object.values(rt.NODE_TYPES),
		port: ports.n8n,
		logFile: LOG_FILE,
		log: (l) => say(l),
	});
	n8n = started.n8n;
	const client = started.client;
	say(
		`installed ${pkg.name}@${started.installed.installedVersion} (Settings → Community Nodes lists it)`,
	);
	const credential = await client.createCredential({
		name: 'Business Ops API',
		type: rt.CREDENTIAL_TYPE,
		data: rt.credentialData(sandbox, sandbox.keys.admin),
	});
	const test = await client
		.testCredentialPublic(credential.id)
		.catch((e) => ({ status: 'Error', message: e.message }));
	say(
		`credential "Business Ops API" (admin key, ${sandbox.baseUrl}): test ${test.status} ${test.message}`,
	);

	const { imported: templates, skipped } = await importTemplates(client, credential);
	for (const s of skipped) say(`skipping ${s}`);
	const imported = [];
	for (const { wf, id, usesBusinessOpsTrigger } of templates) {
		let state = 'imported';
		if (usesBusinessOpsTrigger) {
			try {
				const before = sandbox.control.webhooks().length;
				await client.publishWorkflow(id);
				// n8n 2.41 publishes through an outbox: the trigger subscribes a moment after the answer.
				const deadline = Date.now() + 30_000;
				while (sandbox.control.webhooks().length === before && Date.now() < deadline)
					await new Promise((r) => setTimeout(r, 250));
				const sub =
					sandbox.control.webhooks().length > before
						? sandbox.control.webhooks().at(-1)
						: undefined;
				state = sub
					? `published (subscription ${sub.id} on ${sub.events.join(', ')})`
					: 'published, but no subscription appeared within 30 s (see the n8n log)';
			} catch (e) {
				state = `imported, publishing failed: ${e.message}`;
			}
		}
		imported.push({ name: wf.name, id, state, does: whatItDoes(wf) });
	}

	const line = '-'.repeat(72);
	out(line);
	out(`n8n          ${n8n.baseUrl}/   (ready in ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
	out(`login        ${rt.DEMO_OWNER.email} / ${rt.DEMO_OWNER.password}`);
	out(`sandbox API  ${sandbox.baseUrl}   (controls: ${sandbox.controlUrl})`);
	out('API keys     (the credential "Business Ops API" uses the admin key)');
	for (const [name, key] of Object.entries(sandbox.keys)) out(`  ${name.padEnd(13)}${key}`);
	out('workflows    (the published ones run on real events; "(writes)": they change the sandbox)');
	if (imported.length === 0) out('  (none imported)');
	for (const w of imported)
		out(`  ${w.name}  ${n8n.baseUrl}/workflow/${w.id}\n    ${w.state}: ${w.does}`);
	out('real event   (the sandbox delivers it to every published workflow listening for it)');
	out(
		`  curl -X POST ${sandbox.controlUrl}/emit -H 'content-type: application/json' -d '{"type":"invoice.paid"}'`,
	);
	out(`n8n log      ${path.relative(process.cwd(), LOG_FILE)}   (kept after the demo stops)`);
	out('Ctrl-C stops n8n, the registry and the sandbox.');
	out(line);

	// Stay up; if n8n dies, say so and stop.
	n8n.child.once('exit', (code, signal) => {
		if (stopping) return;
		say(`n8n exited (code ${code}, signal ${signal}); last lines of its log:`);
		out(n8n.tail(40));
		n8n.child = null;
		stopAll(1);
	});
	setInterval(() => {}, 1 << 30);
}

main().catch(async (e) => {
	say(`failed: ${e.message}`);
	if (n8n && !e.n8nLogTail) out(n8n.tail(40));
	if (e.stack) out(e.stack);
	await stopAll(1);
});
