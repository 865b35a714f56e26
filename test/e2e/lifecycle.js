// The package's life in n8n after the first install, as users go through it: the README's manual
// install and update commands, run exactly as written; an update from the editor to a higher
// version; an uninstall while a published workflow uses the trigger. Runs last: it changes the
// installed package.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const assert = require('node:assert/strict');
const h = require('./harness');
const { checkInstalledFolder } = require('./install');

/** The bash block under `<!-- test: <tag> … -->` in README.md. */
function readmeBlock(tag) {
	const readme = fs.readFileSync(path.join(h.rt.REPO_ROOT, 'README.md'), 'utf8');
	const m = new RegExp(`<!-- test: ${tag}\\b[^>]*-->\\s*\`\`\`bash\\n([\\s\\S]*?)\`\`\``).exec(
		readme,
	);
	assert.ok(m, `README.md has no "<!-- test: ${tag} -->" followed by a bash block`);
	return m[1];
}

/**
 * Runs a README block with bash as a user whose home is `home` and whose npm registry is the
 * local one (the README says nothing about registries: npm's default is the user's business).
 * `npmDir`: a folder whose `npm` goes first in PATH (npm 10); otherwise the machine's npm.
 */
function runReadmeBlock(ctx, tag, home, npmDir) {
	const script = readmeBlock(tag);
	// The environment of a shell, not of `npm run` (whose npm_* variables would configure npm).
	const shellEnv = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)),
	);
	const env = {
		...shellEnv,
		HOME: home,
		PATH: npmDir ? `${npmDir}${path.delimiter}${process.env.PATH}` : process.env.PATH,
		npm_config_registry: `${ctx.pkg.registry.url}/`,
		npm_config_cache: path.join(home, '.npm-cache'),
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
	};
	const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
		cwd: home,
		env,
		encoding: 'utf8',
		timeout: 120_000,
	});
	assert.equal(
		r.status,
		0,
		`README block "${tag}" failed (exit ${r.status}):\n${script}\n${r.stdout}${r.stderr}`,
	);
	const npmVersion = spawnSync('npm', ['--version'], { env, encoding: 'utf8' }).stdout.trim();
	return { script, npmVersion };
}

function installedVersion(nodesDir, name) {
	return JSON.parse(
		fs.readFileSync(path.join(nodesDir, 'node_modules', name, 'package.json'), 'utf8'),
	).version;
}

/** Emits invoice.paid and returns the sandbox's delivery attempts of it to workflow `id`'s subscription. */
async function deliveryAttempts(ctx, id) {
	ctx.sandbox.control.clearDeliveries();
	const ev = ctx.sandbox.control.emit({ type: 'invoice.paid' });
	await ctx.sandbox.control.waitForDeliveries();
	// (other areas may leave workflows published on the same event: only this workflow's subscription counts)
	const own = new Set(subscriptionsOf(ctx, id).map((w) => w.id));
	return ctx.sandbox.control
		.deliveries()
		.filter((d) => d.eventId === ev.id && own.has(d.subscriptionId));
}

function triggerWorkflow(ctx, name, cred) {
	const parameters = { events: ['invoice.paid'], options: {} };
	return h.triggerWorkflow(name, cred || ctx.credentials.admin, parameters);
}

/** Subscriptions in the sandbox that belong to workflow `id` of this n8n. */
function subscriptionsOf(ctx, id) {
	return ctx.sandbox.control
		.webhooks()
		.filter((w) => w.url.startsWith(`${ctx.n8n.baseUrl}/webhook/`) && w.name.includes(`(${id})`));
}

/** The next patch version: 0.1.0 → 0.1.1. */
function nextVersion(version) {
	const [major, minor, patch] = version.split(/[.-]/).map(Number);
	return `${major}.${minor}.${patch + 1}`;
}

module.exports = {
	area: 'lifecycle',
	readmeBlock,
	steps: [
		{
			name: "with N8N_UNVERIFIED_PACKAGES_ENABLED=false (n8n 3.0's planned default) the installer refuses the package, which is not verified",
			timeoutMs: 240_000,
			async run(ctx) {
				const strict = await ctx.startInstance({
					install: false,
					expectNodeTypes: [],
					env: { N8N_UNVERIFIED_PACKAGES_ENABLED: 'false' },
					name: 'n8n (verified packages only)',
				});
				try {
					const refused = await strict.client
						.installCommunityPackage(ctx.pkg.name, ctx.pkg.version)
						.then(
							(r) => assert.fail(`installed ${r.packageName}@${r.installedVersion}`),
							(e) => e,
						);
					assert.ok(refused.status >= 400, String(refused.message));
					assert.match(
						String(refused.message),
						/Installation of unverified community packages is forbidden/,
					);
					const types = (await strict.client.nodeTypes()).map((t) => t.name);
					assert.ok(!types.includes(h.rt.NODE_TYPES.action), 'the node is there anyway');
					return `HTTP ${refused.status}: "${String(refused.body?.message ?? refused.message).slice(0, 120)}"`;
				} finally {
					await strict.dispose();
				}
			},
		},
		{
			name: "the README's manual install, run as written with npm 10.9 and the machine's npm, adds no n8n-workflow",
			async run(ctx) {
				const done = [];
				ctx.state.manualHomes = [];
				for (const npmDir of [ctx.pkg.registry.npm10BinDir, undefined]) {
					const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bizops-manual-'));
					ctx.state.manualHomes.push(home);
					const { npmVersion } = runReadmeBlock(ctx, 'manual-install', home, npmDir);
					const nodesDir = path.join(home, '.n8n', 'nodes');
					assert.equal(installedVersion(nodesDir, ctx.pkg.name), ctx.pkg.version);
					const copies = fs
						.readdirSync(path.join(nodesDir, 'node_modules'))
						.filter((n) => !n.startsWith('.'));
					assert.deepEqual(
						copies,
						[ctx.pkg.name],
						`~/.n8n/nodes/node_modules holds ${copies.join(', ')}`,
					);
					done.push(`npm ${npmVersion}: ${copies.join(', ')}`);
				}
				return done.join('; ');
			},
		},
		{
			name: 'n8n (re)started on the manually installed folder loads the package; its errors keep their HTTP code',
			timeoutMs: 240_000,
			async run(ctx) {
				const home = ctx.state.manualHomes?.[0];
				assert.ok(home, 'needs the previous step');
				const other = await ctx.startInstance({
					install: false,
					userFolder: home,
					name: 'n8n (manual install)',
				});
				try {
					const r = await h.runOperation(
						ctx,
						{ resource: 'contact', operation: 'get', contactId: h.byId('con_doesnotexist') },
						{ client: other.client, credentials: other.credentials },
					);
					const e = h.expectFailure(r, /404/);
					assert.equal(e.httpCode, '404', `httpCode: ${e.httpCode}`);
					const listed = await other.client.communityPackages();
					return `node types loaded; a 404 arrives with httpCode ${e.httpCode}; Settings → Community Nodes lists ${listed.length} package(s) (hand-installed ones are not listed)`;
				} finally {
					await other.dispose();
				}
			},
		},
		{
			name: 'update from the editor to a higher version (the same tarball re-versioned): saved and published workflows keep working',
			timeoutMs: 300_000,
			async run(ctx) {
				const next = nextVersion(ctx.pkg.version);
				ctx.state.nextVersion = next;
				const contactId = await h.sandboxFirstId(ctx, 'contacts');
				const saved = await h.runOnRecord(ctx, 'contact', 'get', contactId);
				h.expectSuccess(saved);
				const wf = await ctx.client.createWorkflow(triggerWorkflow(ctx, 'e2e lifecycle trigger'));
				ctx.state.lifecycleWorkflowId = wf.id;
				await ctx.client.publishWorkflow(wf.id);
				const [sub] = await h.waitFor(
					() => (subscriptionsOf(ctx, wf.id).length === 1 ? subscriptionsOf(ctx, wf.id) : null),
					{ timeoutMs: 30_000, what: 'the subscription' },
				);

				ctx.pkg.publishVersion(next);
				const listed = await h.waitFor(
					async () =>
						(await ctx.client.communityPackages()).find(
							(p) => p.packageName === ctx.pkg.name && p.updateAvailable,
						),
					{
						timeoutMs: 60_000,
						intervalMs: 2000,
						what: 'Settings → Community Nodes to offer the update',
					},
				);
				assert.equal(listed.updateAvailable, next);
				const updated = await ctx.client.updateCommunityPackage(ctx.pkg.name, next);
				assert.equal(updated.installedVersion, next);
				assert.equal(installedVersion(ctx.n8n.nodesDir, ctx.pkg.name), next);
				checkInstalledFolder(ctx, ctx.n8n.nodesDir);
				await h.rt.waitForNodeTypes(ctx.client, Object.values(h.rt.NODE_TYPES));

				const again = await ctx.client.runManually(saved.workflowId);
				assert.equal(
					again.status,
					'success',
					`the workflow saved before the update: ${again.status}`,
				);
				await h.sleep(1000);
				const subs = subscriptionsOf(ctx, wf.id);
				assert.deepEqual(
					subs.map((s) => s.id),
					[sub.id],
					'the update changed the subscription',
				);
				const before = (await ctx.client.executions(wf.id)).length;
				ctx.sandbox.control.emit({ type: 'invoice.paid' });
				await ctx.sandbox.control.waitForDeliveries();
				await ctx.client.waitForExecutions(wf.id, before + 1, { timeoutMs: 30_000 });
				return `${ctx.pkg.version} → ${next} (offered as an update, then installed); saved workflow ran; subscription ${sub.id} kept and delivering`;
			},
		},
		{
			name: "the README's manual update, run as written, installs the higher version (still without n8n-workflow)",
			async run(ctx) {
				const home = ctx.state.manualHomes?.[0];
				assert.ok(home && ctx.state.nextVersion, 'needs the manual install and the update steps');
				const { npmVersion } = runReadmeBlock(
					ctx,
					'manual-update',
					home,
					ctx.pkg.registry.npm10BinDir,
				);
				const nodesDir = path.join(home, '.n8n', 'nodes');
				assert.equal(installedVersion(nodesDir, ctx.pkg.name), ctx.state.nextVersion);
				const copies = fs
					.readdirSync(path.join(nodesDir, 'node_modules'))
					.filter((n) => !n.startsWith('.'));
				assert.deepEqual(copies, [ctx.pkg.name]);
				for (const h of ctx.state.manualHomes) fs.rmSync(h, { recursive: true, force: true });
				return `npm ${npmVersion}: ${ctx.pkg.name}@${ctx.state.nextVersion}`;
			},
		},
		{
			name: 'uninstall while a published workflow uses the trigger: it stays published, the subscription stays, deliveries fail and start nothing',
			timeoutMs: 300_000,
			async run(ctx) {
				const id = ctx.state.lifecycleWorkflowId;
				assert.ok(id, 'needs the update step');
				const [sub] = subscriptionsOf(ctx, id);
				assert.ok(sub, 'the workflow has no subscription before the uninstall');
				await ctx.client.uninstallCommunityPackage(ctx.pkg.name);
				await h.rt.waitForNodeTypes(ctx.client, Object.values(h.rt.NODE_TYPES), { present: false });
				assert.equal(
					fs.existsSync(path.join(ctx.n8n.nodesDir, 'node_modules', ctx.pkg.name)),
					false,
					'the package folder is still there',
				);
				await h.sleep(2000);
				assert.equal(
					(await ctx.client.getWorkflow(id)).active,
					true,
					'n8n unpublished the workflow',
				);
				assert.deepEqual(
					subscriptionsOf(ctx, id).map((x) => x.id),
					[sub.id],
					'the subscription changed',
				);
				const before = (await ctx.client.executions(id)).length;
				const attempts = await deliveryAttempts(ctx, id);
				// n8n 2.x answers 400, n8n 1.123 500 (and logs the unknown node type).
				const status = ctx.client.major >= 2 ? 400 : 500;
				assert.ok(
					attempts.length >= 1 && attempts.every((d) => d.statusCode === status),
					`delivery answers: ${attempts.map((d) => d.statusCode).join(', ')}`,
				);
				const answer = await h.post(sub.url, {
					headers: { 'content-type': 'application/json' },
					body: '{}',
				});
				assert.equal(answer.status, status);
				const unknown = `Unrecognized node type: ${h.rt.NODE_TYPES.trigger}`;
				assert.ok(
					answer.text.includes(unknown) || (status === 500 && ctx.n8n.tail(40).includes(unknown)),
					`answer ${answer.status}: ${answer.text.slice(0, 200)}`,
				);
				await h.sleep(1000);
				assert.equal(
					(await ctx.client.executions(id)).length,
					before,
					'a delivery started an execution',
				);
				ctx.state.orphan = sub;
				return `workflow still published; ${sub.id} still subscribed; ${attempts.length} delivery attempt(s), all ${status} ("${unknown}"); no execution`;
			},
		},
		{
			name: 'installing the package again makes the deliveries work; unpublishing then deletes the subscription',
			timeoutMs: 300_000,
			async run(ctx) {
				const id = ctx.state.lifecycleWorkflowId;
				const sub = ctx.state.orphan;
				assert.ok(sub, 'needs the uninstall step');
				const again = await ctx.client.installCommunityPackage(ctx.pkg.name, ctx.state.nextVersion);
				assert.equal(again.installedVersion, ctx.state.nextVersion);
				await h.rt.waitForNodeTypes(ctx.client, Object.values(h.rt.NODE_TYPES));
				const before = (await ctx.client.executions(id)).length;
				const attempts = await deliveryAttempts(ctx, id);
				assert.deepEqual(
					attempts.map((d) => d.statusCode),
					[200],
				);
				await ctx.client.waitForExecutions(id, before + 1, { timeoutMs: 30_000 });
				await ctx.client.unpublishWorkflow(id);
				await h.waitFor(() => subscriptionsOf(ctx, id).length === 0, {
					timeoutMs: 30_000,
					what: 'the subscription to be deleted',
				});
				return `reinstalled ${ctx.state.nextVersion}: delivery 200 and an execution; unpublished: ${sub.id} deleted`;
			},
		},
	],
};
