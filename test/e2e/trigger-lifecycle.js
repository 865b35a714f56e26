// The trigger's subscription lifecycle in real n8n: an API that does not answer at publish time
// becomes an activation error n8n shows (not a workflow that looks published and receives
// nothing); a webhook URL only a local network knows is refused while the API is public; each
// activation error carries its fix in the message, read where the editor reads it (n8n 2.41: the
// publication status; n8n 1.123: the activate answer and the kept activation error). What n8n does
// with the subscription when a published workflow is renamed, its events change, its
// subscription was paused in Business Ops, or n8n restarts (docs/subscriptions.md, "Keeping the
// subscription in step").
'use strict';

const http = require('node:http');
const net = require('node:net');

const assert = require('node:assert/strict');
const h = require('./harness');

const TRIGGER = 'Business Ops Trigger';

function triggerWorkflow(name, credential, events) {
	return h.triggerWorkflow(name, credential, { events, options: {} });
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers (an API that hangs). */
async function silentServer() {
	const sockets = new Set();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}/v1`,
		close: async () => {
			for (const s of sockets) s.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

const PUBLIC_API_HOST = 'api.business-ops.example';

/** An HTTP proxy on 127.0.0.1 that forwards nothing: `hosts` lists each host:port asked for, in order. */
async function recordingProxy() {
	const hosts = [];
	const server = http.createServer((req, res) => {
		hosts.push(new URL(req.url, 'http://unknown').host);
		res.writeHead(502).end();
	});
	server.on('connect', (req, socket) => {
		hosts.push(req.url);
		socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		hosts,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

const unwrap = (answer) =>
	answer && typeof answer === 'object' && 'data' in answer ? answer.data : answer;

/**
 * The activation error as each place the editor reads it shows it: { where: message }. n8n 2.41
 * publishes through an outbox, and the editor polls each trigger's outcome from the publication
 * status (GET /rest/workflows/:id/publication-status: `triggers[].errorMessage`, the error's
 * message without its description). n8n 1.123 fails the activate call itself (the editor shows
 * its answer) and keeps the error's message for the workflow list
 * (GET /rest/active-workflows/error/:id).
 */
async function activationErrors(ctx, workflowId, publishError, timeoutMs) {
	const shown = {};
	if (ctx.client.major < 2) {
		assert.ok(publishError, 'n8n 1.123 published the workflow without an error');
		shown['the activate answer'] = String(publishError.body?.message ?? publishError.message);
	}
	await h.waitFor(
		async () => {
			if (ctx.client.major >= 2) {
				const status = unwrap(
					await ctx.client
						.rest('GET', `/workflows/${workflowId}/publication-status`)
						.catch(() => undefined),
				);
				const failed = (status?.triggers ?? []).filter(
					(t) => t.status === 'failed' && t.errorMessage,
				);
				if (failed.length)
					shown['the publication status'] = failed.map((t) => t.errorMessage).join('\n');
				return failed.length > 0;
			}
			const recorded = unwrap(
				await ctx.client
					.rest('GET', `/active-workflows/error/${workflowId}`)
					.catch(() => undefined),
			);
			if (typeof recorded === 'string' && recorded) shown['the kept activation error'] = recorded;
			return typeof recorded === 'string' && recorded !== '';
		},
		{ timeoutMs, what: 'an activation error n8n shows for the workflow' },
	);
	return shown;
}

/** Asserts that each place shows what is wrong (`what`) and the fix (`fixes`, every one). */
function assertShown(shown, what, ...fixes) {
	for (const [where, message] of Object.entries(shown)) {
		assert.match(message, what, `${where}: ${message}`);
		for (const fix of fixes)
			assert.match(message, fix, `${where} lacks the fix ${fix}: ${message}`);
	}
}

async function publishExpectingError(ctx, name, credential) {
	const wf = await ctx.client.createWorkflow(triggerWorkflow(name, credential, ['invoice.paid']));
	const started = Date.now();
	const publishError = await ctx.client.publishWorkflow(wf.id).then(
		() => undefined,
		(error) => error,
	);
	return { wf, started, publishError };
}

async function credentialFor(ctx, name, baseUrl) {
	return await ctx.client.createCredential({
		name,
		type: h.rt.CREDENTIAL_TYPE,
		data: { ...h.rt.credentialData(ctx.sandbox, ctx.sandbox.keys.admin), baseUrl },
	});
}

// ----- keeping the subscription in step: what n8n runs, and what the API then holds -----

/** The last request the sandbox answered (its `seq`): what comes after it came later. */
const lastAnswered = (ctx) => ctx.sandbox.control.requestLog().at(-1)?.seq ?? 0;

/**
 * The subscription API calls answered after `mark` (lastAnswered), e.g. ["GET /webhooks/whk_1",
 * "PATCH /webhooks/whk_1"]. By order, not time: the dashboard change just before can share the millisecond.
 */
function webhookCallsSince(ctx, mark) {
	return ctx.sandbox.control
		.requestLog()
		.filter(
			(e) => e.seq > mark && /\/webhooks(\/|$)/.test(e.path) && !/\/webhooks\/events/.test(e.path),
		)
		.map((e) => `${e.method} ${e.path.replace(/^.*(\/webhooks)/, '$1')}`);
}

/** The sandbox's subscriptions to this trigger's production URL (its webhook id is in the URL). */
function subscriptionsOf(ctx, webhookId) {
	return ctx.sandbox.control.webhooks().filter((w) => w.url.includes(`/webhook/${webhookId}/`));
}

/** What someone does in the Business Ops dashboard: PATCH /webhooks/{id} with the API. */
async function changeInDashboard(ctx, id, body) {
	const res = await fetch(`${ctx.sandbox.baseUrl}/webhooks/${id}`, {
		method: 'PATCH',
		headers: {
			authorization: `Bearer ${ctx.sandbox.keys.admin}`,
			'content-type': 'application/json',
		},
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(10_000),
	});
	assert.equal(res.status, 200, `PATCH /webhooks/${id}: ${await res.text()}`);
}

/**
 * Waits until n8n is done with a publication: n8n 2.41 answers POST /publish before its outbox has
 * run the trigger, n8n 1.123 after. Then a second more, for calls still on their way.
 */
async function settled(ctx, workflowId) {
	if (ctx.client.major >= 2) {
		await h.waitFor(
			async () => {
				const status = unwrap(
					await ctx.client
						.rest('GET', `/workflows/${workflowId}/publication-status`)
						.catch(() => undefined),
				);
				return status !== undefined && status.status !== 'in_progress';
			},
			{ timeoutMs: 60_000, what: 'the publication to finish' },
		);
	}
	await h.sleep(1500);
}

/** Saves a changed workflow as the editor's Save does (n8n 1.123 re-activates a published one there). */
async function saveWorkflow(ctx, workflowId, change) {
	const wf = await ctx.client.getWorkflow(workflowId);
	const next = change(wf);
	await ctx.client.api('PUT', `/workflows/${workflowId}`, {
		name: next.name,
		nodes: next.nodes,
		connections: next.connections,
		settings: next.settings,
	});
}

/** Publishes (again); n8n 1.123 answers a workflow that is already active at this version with no change. */
async function publish(ctx, workflowId) {
	await ctx.client.publishWorkflow(workflowId);
	await settled(ctx, workflowId);
}

/** Emits an event and waits for the workflow's execution of it: the subscription delivers and its secret verifies. */
async function deliveredOnce(ctx, workflowId) {
	const before = (await ctx.client.executions(workflowId, { includeData: false })).length;
	ctx.sandbox.control.emit({ type: 'invoice.paid' });
	await ctx.sandbox.control.waitForDeliveries();
	await ctx.client.waitForExecutions(workflowId, before + 1, { timeoutMs: 30_000 });
}

/** One case: does it, then answers { calls, subscription } as n8n left them. */
async function observe(ctx, workflowId, webhookId, action) {
	const since = lastAnswered(ctx);
	await action();
	const subs = subscriptionsOf(ctx, webhookId);
	assert.equal(subs.length, 1, `subscriptions to the trigger's URL: ${JSON.stringify(subs)}`);
	return { calls: webhookCallsSince(ctx, since), subscription: subs[0] };
}

/**
 * The subscription was deleted (n8n deregistered the trigger) and a new one made with a new id and
 * signing secret (n8n registered it: checkExists found no record, create looked for one left behind
 * at this URL, then subscribed).
 */
function assertReplaced({ calls, subscription }, oldId, what) {
	assert.deepEqual(calls, [`DELETE /webhooks/${oldId}`, 'GET /webhooks', 'POST /webhooks'], what);
	assert.notEqual(subscription.id, oldId, what);
}

const say = ({ calls, subscription }) =>
	`${calls.join(', ') || 'no call'} → ${subscription.id}${subscription.active ? '' : ' (paused)'}`;

module.exports = {
	area: 'trigger-lifecycle',
	steps: [
		{
			name: 'an API that does not answer at publish time: an activation error n8n shows, within its publication deadline',
			timeoutMs: 150_000,
			async run(ctx) {
				const api = await silentServer();
				try {
					const credential = await credentialFor(ctx, 'Business Ops (API not answering)', api.url);
					const { wf, started, publishError } = await publishExpectingError(
						ctx,
						'e2e lifecycle: API not answering',
						credential,
					);
					// n8n 2.41 aborts publication work after 84 s (0.7 of its 120 s lease); the trigger gives up after 10 s
					const shown = await activationErrors(ctx, wf.id, publishError, 80_000);
					assertShown(
						shown,
						/Could not complete GET \/webhooks\S*: no answer within the timeout/,
						/Check that n8n reaches the Base URL in the Business Ops API credential, then publish the workflow again/,
					);
					const seconds = (Date.now() - started) / 1000;
					// before n8n 2.41 abandons the publication at 84 s (then it records no error at all)
					assert.ok(seconds < 84, `the activation error took ${seconds.toFixed(0)} s`);
					await ctx.client.unpublishWorkflow(wf.id).catch(() => undefined);
					return `activation error after ${seconds.toFixed(0)} s, with its fix in ${Object.keys(shown).join(' and ')}`;
				} finally {
					await api.close();
				}
			},
		},
		{
			name: 'a webhook URL only a local network knows, with a public API: refused with the URL and the fixes in the message the editor shows, nothing sent',
			timeoutMs: 150_000,
			async run(ctx) {
				// The API's host resolves nowhere, so a request to it would fail unseen. A second n8n sends
				// its https requests through a proxy that forwards nothing and records each host asked for.
				const proxy = await recordingProxy();
				const other = await ctx.startInstance({
					name: 'n8n behind a recording proxy',
					env: { HTTPS_PROXY: proxy.url, https_proxy: proxy.url },
				});
				try {
					const there = { ...ctx, client: other.client, n8n: other.n8n };
					const credential = await credentialFor(
						there,
						'Business Ops (public API)',
						`https://${PUBLIC_API_HOST}/v1`,
					);
					const { wf, publishError } = await publishExpectingError(
						there,
						'e2e lifecycle: reachability',
						credential,
					);
					const shown = await activationErrors(there, wf.id, publishError, 60_000);
					assertShown(
						shown,
						/The webhook URL http:\/\/127\.0\.0\.1:\d+\/webhook\/\S+ points at a loopback address \(127\.0\.0\.1\), which the API at api\.business-ops\.example cannot reach/,
						/N8N_WEBHOOK_URL \(n8n 2\.x\) or WEBHOOK_URL \(n8n 1\.x\)/,
						/Skip Reachability Check/,
					);
					await other.client.unpublishWorkflow(wf.id).catch(() => undefined);
					const toApi = () => proxy.hosts.filter((h) => h.startsWith(`${PUBLIC_API_HOST}:`));
					assert.deepEqual(
						toApi(),
						[],
						'the trigger sent a request to the API before or instead of refusing',
					);
					// The proxy does see this n8n's requests to the API: the credential test sends GET /me.
					await other.client.testCredential(credential.id, h.rt.CREDENTIAL_TYPE, {
						...h.rt.credentialData(ctx.sandbox, ctx.sandbox.keys.admin),
						baseUrl: `https://${PUBLIC_API_HOST}/v1`,
					});
					assert.ok(
						toApi().length > 0,
						`the proxy saw no request of the credential test: ${JSON.stringify(proxy.hosts)}`,
					);
					return `refused: loopback webhook URL, public API; no request to the API (the proxy saw the credential test's); the fix in ${Object.keys(shown).join(' and ')}`;
				} finally {
					await other.dispose();
					await proxy.close();
				}
			},
		},

		{
			// n8n 2.41 registers a trigger again only when its node changed (name, type, version, webhook
			// id, credentials, parameters): then it deletes first and creates anew. n8n 1.123 unpublishes
			// and publishes again on every save of a published workflow. Neither runs checkExists on a
			// publication that keeps the trigger, so no publication reaches the update in place.
			name: 'a published workflow renamed, its events changed, its subscription paused in Business Ops and published again: what n8n runs, what the subscription becomes',
			timeoutMs: 240_000,
			async run(ctx) {
				const n8n2 = ctx.client.major >= 2;
				const wf = await ctx.client.createWorkflow(
					triggerWorkflow('e2e lifecycle: in step', ctx.credentials.admin, ['invoice.paid']),
				);
				const webhookId = wf.nodes.find((n) => n.name === TRIGGER).webhookId;
				ctx.state.inStep = { workflowId: wf.id, webhookId };
				const first = await observe(ctx, wf.id, webhookId, () => publish(ctx, wf.id));
				assert.deepEqual(first.calls, ['GET /webhooks', 'POST /webhooks'], 'the first publication');
				await deliveredOnce(ctx, wf.id);

				const renamed = await observe(ctx, wf.id, webhookId, async () => {
					await saveWorkflow(ctx, wf.id, (w) => ({ ...w, name: 'e2e lifecycle: renamed' }));
					await publish(ctx, wf.id);
				});
				if (n8n2) {
					assert.deepEqual(renamed.calls, [], 'n8n 2.41 keeps a trigger whose node did not change');
					assert.equal(renamed.subscription.id, first.subscription.id);
					assert.match(
						renamed.subscription.name,
						/^n8n: e2e lifecycle: in step \//,
						'the name stays until the trigger is registered again',
					);
				} else {
					assertReplaced(
						renamed,
						first.subscription.id,
						'n8n 1.123 unpublishes and publishes a saved workflow',
					);
					assert.match(renamed.subscription.name, /^n8n: e2e lifecycle: renamed \//);
				}

				const events = await observe(ctx, wf.id, webhookId, async () => {
					await saveWorkflow(ctx, wf.id, (w) => ({
						...w,
						nodes: w.nodes.map((n) =>
							n.name === TRIGGER
								? {
										...n,
										parameters: { ...n.parameters, events: ['invoice.paid', 'quote.approved'] },
									}
								: n,
						),
					}));
					await publish(ctx, wf.id);
				});
				assertReplaced(events, renamed.subscription.id, 'changed events');
				assert.deepEqual([...events.subscription.events].sort(), [
					'invoice.paid',
					'quote.approved',
				]);
				assert.match(
					events.subscription.name,
					/^n8n: e2e lifecycle: renamed \//,
					'the new subscription has the new name',
				);
				await deliveredOnce(ctx, wf.id);

				await changeInDashboard(ctx, events.subscription.id, { active: false });
				const paused = await observe(ctx, wf.id, webhookId, () => publish(ctx, wf.id));
				assert.deepEqual(
					paused.calls,
					[],
					'publishing an unchanged published workflow runs nothing',
				);
				assert.equal(paused.subscription.active, false, 'the paused subscription stays paused');

				const republished = await observe(ctx, wf.id, webhookId, async () => {
					await ctx.client.unpublishWorkflow(wf.id);
					await settled(ctx, wf.id);
					await publish(ctx, wf.id);
				});
				assertReplaced(republished, events.subscription.id, 'unpublished and published');
				assert.equal(republished.subscription.active, true);
				await deliveredOnce(ctx, wf.id);
				return [
					`renamed: ${say(renamed)}`,
					`events changed: ${say(events)}`,
					`paused, published: ${say(paused)}`,
					`unpublished, published: ${say(republished)}`,
				].join('; ');
			},
		},
		{
			// n8n 2.41 keeps published webhooks across a restart and runs no lifecycle call; n8n 1.123
			// registers every published workflow at startup: checkExists, which updates in place.
			name: 'n8n restarts while the workflow is published and its subscription was paused and renamed in Business Ops: what n8n runs at startup',
			timeoutMs: 240_000,
			async run(ctx) {
				const n8n2 = ctx.client.major >= 2;
				const { workflowId, webhookId } = ctx.state.inStep ?? {};
				assert.ok(workflowId, 'needs the workflow of the previous step');
				const [before] = subscriptionsOf(ctx, webhookId);
				await changeInDashboard(ctx, before.id, {
					active: false,
					name: 'renamed in the dashboard',
				});
				const restarted = await observe(ctx, workflowId, webhookId, async () => {
					await ctx.n8n.restart();
					await h.waitFor(
						async () =>
							(
								await fetch(before.url, {
									method: 'POST',
									headers: { connection: 'close' },
									body: '{}',
									signal: AbortSignal.timeout(10_000),
								}).catch(() => ({ status: 0 }))
							).status !== 404,
						{
							timeoutMs: 60_000,
							what: 'the trigger webhook to be registered again',
						},
					);
					await h.sleep(3000);
				});
				const after = restarted.subscription;
				assert.equal(after.id, before.id, 'the subscription (and its signing secret) is kept');
				if (n8n2) {
					assert.deepEqual(restarted.calls, [], 'n8n 2.41 runs no lifecycle call at startup');
					assert.equal(after.active, false, 'still paused');
					assert.equal(after.name, 'renamed in the dashboard');
					// resumed by hand: the secret kept in the workflow's static data still verifies after the restart
					await changeInDashboard(ctx, before.id, { active: true });
				} else {
					assert.deepEqual(
						restarted.calls,
						[`GET /webhooks/${before.id}`, `PATCH /webhooks/${before.id}`],
						'n8n 1.123 runs checkExists at startup',
					);
					assert.equal(after.active, true, 'made active again');
					assert.equal(after.name, before.name, "its name is the trigger's again");
				}
				await deliveredOnce(ctx, workflowId);
				await ctx.client.unpublishWorkflow(workflowId).catch(() => undefined);
				return `restart: ${say(restarted)} "${after.name}"; a delivery verified`;
			},
		},
	],
};
