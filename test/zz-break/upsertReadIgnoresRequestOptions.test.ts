/**
 * Break b31: n8n gives every declarative node "Request Options" (Proxy, Timeout, Ignore SSL Issues),
 * and RoutingNode puts them on each item's request (`proxy`, `timeout`, `skipSslCertificateValidation`,
 * and the credential's `allowedDomains`). Create or Update's writes spread those options
 * (`{ ...options, method: 'POST' }`), but its list read builds a fresh request
 * (`{ method: 'GET', url: '/contacts', qs }`), so the read ignores them: with a Proxy set, the
 * GET /contacts goes straight to the API while the write goes through the proxy (and a network
 * that only lets n8n out through the proxy fails the read); the Timeout (300 s by default) does not
 * bound the read, nor does Ignore SSL Issues apply to it.
 *
 * Expected: with Request Options → Proxy set, no request of Create or Update bypasses the proxy.
 */
import http from 'node:http';
import nock from 'nock';
import type { AddressInfo } from 'node:net';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { fastClock } from '../harness/clock';
import { loadNodeType, runDeclarativeNode, TEST_API_KEY } from '../harness/engine';

const node = loadNodeType(new BusinessOps());
beforeEach(() => fastClock());

/** A local server that records what reaches it and answers like the API (list empty, create 201). */
async function recordingServer(seen: string[]) {
	const server = http.createServer((req, res) => {
		seen.push(`${req.method} ${req.url}`);
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			res.setHeader('content-type', 'application/json');
			if (req.method === 'GET') {
				res.end(JSON.stringify({ data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } }));
				return;
			}
			res.statusCode = 201;
			res.end(JSON.stringify({ data: { id: 'ctc_1', ...JSON.parse(body || '{}') } }));
		});
	});
	// A tunnelling proxy client: record it and close, so nothing waits for an answer.
	server.on('connect', (req, socket) => {
		seen.push(`CONNECT ${req.url}`);
		socket.destroy();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	return { server, port: (server.address() as AddressInfo).port };
}

test('with a Proxy in Request Options, the list read does not go around it', async () => {
	const viaProxy: string[] = [];
	const direct: string[] = [];
	// Real sockets to the two local servers: nock's interceptor does not hand a proxy agent a socket.
	nock.restore();
	const proxy = await recordingServer(viaProxy);
	const api = await recordingServer(direct);
	try {
		await runDeclarativeNode(
			node,
			{
				resource: 'contact',
				operation: 'upsert',
				email: '={{ $json.email }}',
				name: 'N',
				requestOptions: { proxy: `http://127.0.0.1:${proxy.port}`, timeout: 2_000 },
			},
			{ items: [{ json: { email: 'a@example.com' } }], credentials: { apiKey: TEST_API_KEY, baseUrl: `http://127.0.0.1:${api.port}/v1` } },
		).catch(() => undefined);
		// The write goes to the proxy (what it does there is not this test's concern); nothing may go
		// to the API directly. Before the fix: direct = ['GET /v1/contacts?page=1&pageSize=100'] (the read bypassed the proxy).
		expect(direct).toEqual([]);
		expect(viaProxy.some((line) => line.startsWith('GET ') && line.includes('/v1/contacts'))).toBe(true);
	} finally {
		proxy.server.close();
		api.server.close();
		nock.activate();
	}
}, 20_000);
