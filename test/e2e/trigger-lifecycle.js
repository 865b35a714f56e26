// The trigger's subscription lifecycle in real n8n (issue 19): an API that does not answer at
// publish time becomes an activation error n8n shows (not a workflow that looks published and
// receives nothing); a webhook URL only a local network knows is refused while the API is public.
// (Updating a subscription in place, the instance id and the 404 warning are covered against the
// sandbox in test/robustness/subscriptions.test.ts and test/trigger/trigger.test.ts.)
'use strict';

const crypto = require('node:crypto');
const net = require('node:net');

const { assert, node, chain, credentialRef, waitFor, logText, rt } = require('./harness');

const TRIGGER = 'Business Ops Trigger';

function triggerWorkflow(name, credential, events) {
	return {
		name,
		nodes: [
			node(TRIGGER, rt.NODE_TYPES.trigger, { events, options: {} }, { position: [0, 0], credentials: credentialRef(credential), webhookId: crypto.randomUUID() }),
			node('No Operation', 'n8n-nodes-base.noOp', {}, { position: [220, 0] }),
		],
		connections: chain(TRIGGER, 'No Operation'),
		settings: { executionOrder: 'v1' },
	};
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

/**
 * The activation error n8n shows for a workflow. n8n 2.41 publishes through an outbox and keeps
 * each trigger's outcome in its publication status (GET /rest/workflows/:id/publication-status,
 * what the editor shows); n8n 1.x fails the activate call itself and keeps the error
 * (GET /rest/active-workflows/error/:id).
 */
async function activationError(ctx, workflowId, publishError, timeoutMs) {
	let message = publishError ? String(publishError.message) : '';
	const unwrap = (answer) => (answer && typeof answer === 'object' && 'data' in answer ? answer.data : answer);
	await waitFor(
		async () => {
			if (ctx.client.major >= 2) {
				const status = unwrap(await ctx.client.rest('GET', `/workflows/${workflowId}/publication-status`).catch(() => undefined));
				const failed = (status?.triggers ?? []).filter((t) => t.status === 'failed' && t.errorMessage);
				if (failed.length) message = `${message}\n${failed.map((t) => t.errorMessage).join('\n')}`;
			} else {
				const recorded = unwrap(await ctx.client.rest('GET', `/active-workflows/error/${workflowId}`).catch(() => undefined));
				if (typeof recorded === 'string' && recorded) message = `${message}\n${recorded}`;
			}
			return message.trim() !== '';
		},
		{ timeoutMs, what: 'an activation error n8n shows for the workflow' },
	);
	return message;
}

async function publishExpectingError(ctx, name, credential) {
	const wf = await ctx.client.createWorkflow(triggerWorkflow(name, credential, ['invoice.paid']));
	const started = Date.now();
	const publishError = await ctx.client.publishWorkflow(wf.id).then(() => undefined, (error) => error);
	return { wf, started, publishError };
}

async function credentialFor(ctx, name, baseUrl) {
	return await ctx.client.createCredential({
		name,
		type: rt.CREDENTIAL_TYPE,
		data: { ...rt.credentialData(ctx.sandbox, ctx.sandbox.keys.admin), baseUrl },
	});
}

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
					const { wf, started, publishError } = await publishExpectingError(ctx, 'e2e lifecycle: API not answering', credential);
					// n8n 2.41 aborts publication work after 84 s (0.7 of its 120 s lease); the trigger gives up after 10 s
					const message = await activationError(ctx, wf.id, publishError, 80_000);
					// n8n 1.123 replaces a timeout's message with its own ("The connection was aborted, …")
					assert.match(message, /Could not complete GET \/webhooks\S*: no answer within the timeout|The connection was aborted, perhaps the server is offline/);
					const seconds = (Date.now() - started) / 1000;
					// before n8n 2.41 abandons the publication at 84 s (then it records no error at all)
					assert.ok(seconds < 84, `the activation error took ${seconds.toFixed(0)} s`);
					await ctx.client.unpublishWorkflow(wf.id).catch(() => undefined);
					return `activation error after ${seconds.toFixed(0)} s: ${message.trim().split('\n').pop().slice(0, 90)}`;
				} finally {
					await api.close();
				}
			},
		},
		{
			name: 'a webhook URL only a local network knows, with a public API: refused with the URL and the fixes, nothing sent',
			timeoutMs: 90_000,
			async run(ctx) {
				// A public-looking Base URL that resolves nowhere: the check refuses before any request.
				const logStart = logText(ctx.n8n).length;
				const credential = await credentialFor(ctx, 'Business Ops (public API)', 'https://api.business-ops.example/v1');
				const { wf, publishError } = await publishExpectingError(ctx, 'e2e lifecycle: reachability', credential);
				const message = await activationError(ctx, wf.id, publishError, 60_000);
				assert.match(message, /The webhook URL http:\/\/127\.0\.0\.1:\d+\/webhook\/\S+ points at a loopback address \(127\.0\.0\.1\), which the API at api\.business-ops\.example cannot reach/);
				// Nothing sent: api.business-ops.example resolves nowhere, so any request the trigger had
				// made (before or instead of the check) would have failed with a name lookup error.
				const lookupErrors = /ENOTFOUND|EAI_AGAIN|getaddrinfo|Could not complete|The connection was aborted/;
				assert.doesNotMatch(message, lookupErrors, 'a request to the API was attempted');
				const logSince = logText(ctx.n8n).slice(logStart);
				assert.doesNotMatch(logSince, /api\.business-ops\.example\S*\s*(ENOTFOUND|EAI_AGAIN)|(ENOTFOUND|EAI_AGAIN)\s+api\.business-ops\.example/, 'n8n logged a request to the API');
				await ctx.client.unpublishWorkflow(wf.id).catch(() => undefined);
				return 'refused: loopback webhook URL, public API; no request attempted';
			},
		},
	],
};
