// A tiny HTTP relay on 127.0.0.1: the load balancer in front of several n8n webhook processes in
// the queue-mode e2e (scripts/e2e-queue.js points WEBHOOK_URL at it). Each request goes, whole
// (its header lines as sent, X-Forwarded-For appended), to the next target in turn, or with
// `by: 'path'` always to the same target for the same path (a load balancer's affinity by URL);
// the target's answer goes back unchanged. A request is sent once, never again on an error, and
// given up when its client goes. Standard library only; stopped by its handle (`stop()`), which
// closes the server, its connections and the requests it forwarded.
//
//   const relay = await startRelay({ targets: ['http://127.0.0.1:5679', 'http://127.0.0.1:5680'], by: 'turn' });
//   relay.baseUrl           http://127.0.0.1:<port>
//   relay.counts()          { 'http://127.0.0.1:5679': 12, … }: requests forwarded to each target
//   relay.setTargets([...])  change the rotation (the e2e starts the relay with none, so that its port
//                            is taken before WEBHOOK_URL names it, and sets the webhook processes
//                            once they listen); with no target it answers 503
//   await relay.stop()
'use strict';

const http = require('node:http');

const { HOST, freePort } = require('../n8n/processes');

/** Request headers that belong to one hop (RFC 9110 7.6.1), not forwarded. */
const HOP_BY_HOP = new Set([
	'connection',
	'keep-alive',
	'proxy-connection',
	'transfer-encoding',
	'te',
	'trailer',
	'upgrade',
]);

/**
 * @param {object} o
 * @param {string[]} [o.targets]  base URLs (http://127.0.0.1:<port>) of the processes to rotate over
 * @param {number} [o.port]  preferred port; a free one when taken or 0
 * @param {number} [o.timeoutMs]  per forwarded request (answers 504 after it)
 * @param {'turn' | 'path'} [o.by]  round robin, or the same target for the same path
 */
async function startRelay({ targets = [], port = 0, timeoutMs = 60_000, by = 'turn' } = {}) {
	let rotation = targets.map((t) => new URL(t));
	let next = 0;
	const counts = new Map(targets.map((t) => [new URL(t).origin, 0]));
	const byPath = (url) =>
		[...String(url).split('?')[0]].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) %
		rotation.length;

	const server = http.createServer((req, res) => {
		if (rotation.length === 0) {
			req.resume();
			res.writeHead(503, { 'content-type': 'text/plain' });
			return res.end('relay: no target yet');
		}
		let target;
		if (by === 'path') target = rotation[byPath(req.url)];
		else {
			target = rotation[next % rotation.length];
			next = (next + 1) % rotation.length;
		}
		counts.set(target.origin, (counts.get(target.origin) || 0) + 1);
		// the header lines as sent, repeats included (Node's parsed headers join or drop repeats)
		const headers = [];
		const forwardedFor = [];
		for (let i = 0; i < req.rawHeaders.length; i += 2) {
			const [name, value] = [req.rawHeaders[i], req.rawHeaders[i + 1]];
			const lower = name.toLowerCase();
			if (lower === 'x-forwarded-for') forwardedFor.push(value);
			else if (!HOP_BY_HOP.has(lower)) headers.push(name, value);
		}
		headers.push('X-Forwarded-For', [...forwardedFor, req.socket.remoteAddress || HOST].join(', '));
		const upstream = http.request(
			// A connection per request (agent: false): a kept-alive socket that the webhook process closes
			// as it is reused would fail the request ("socket hang up"), and a POST must not be sent twice.
			{
				host: target.hostname,
				port: target.port,
				method: req.method,
				path: req.url,
				headers,
				agent: false,
				timeout: timeoutMs,
			},
			(answer) => {
				const out = {};
				for (const [name, value] of Object.entries(answer.headers))
					if (!HOP_BY_HOP.has(name)) out[name] = value;
				res.writeHead(answer.statusCode || 502, out);
				answer.pipe(res);
			},
		);
		// the client went (or stop() closed its connection) before it had its answer: give the forwarded request up too
		res.on('close', () => {
			if (!res.writableFinished) upstream.destroy();
		});
		upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
		upstream.on('error', (e) => {
			if (res.headersSent) return res.destroy(e);
			res.writeHead(/timeout/.test(e.message) ? 504 : 502, { 'content-type': 'text/plain' });
			res.end(`relay: ${target.origin}: ${e.message}`);
		});
		req.pipe(upstream);
	});
	const listenOn = await freePort(port);
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen({ port: listenOn, host: HOST }, resolve);
	});
	return {
		port: listenOn,
		baseUrl: `http://${HOST}:${listenOn}`,
		counts: () => Object.fromEntries(counts),
		setTargets(list) {
			rotation = list.map((t) => new URL(t));
			next = 0;
			for (const t of rotation) if (!counts.has(t.origin)) counts.set(t.origin, 0);
		},
		stop: () =>
			new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections?.();
			}),
	};
}

module.exports = { startRelay };
