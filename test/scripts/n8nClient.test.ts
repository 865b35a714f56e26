// The e2e's n8n client (scripts/n8n/client.js) sends each request on a connection of its own: a
// write that went out on a kept-alive socket n8n was closing failed in CI without an answer.
// Its failures name the request; the e2e runner's failure line adds the cause.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { failureText } = require('../e2e/runner') as { failureText(e: unknown): string };

let server: Server;
let baseUrl: string;
const perSocket = new Map<Socket, number>();

beforeAll(async () => {
	// Like n8n closing an idle kept-alive socket just as a request arrives on it: a second request
	// on one socket gets no answer. /hang never answers; /cut answers half a body.
	server = createServer((req, res) => {
		const n = (perSocket.get(req.socket) ?? 0) + 1;
		perSocket.set(req.socket, n);
		req.resume();
		if (n > 1) return void req.socket.destroy();
		if (req.url === '/hang') return;
		if (req.url === '/cut') {
			res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
			return void res.write('{"data":', () => req.socket.destroy());
		}
		req.on('end', () => res.end('{"data":{}}'));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('no port');
	baseUrl = `http://127.0.0.1:${address.port}`;
});

beforeEach(() => perSocket.clear());

afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

type Step = { method: string; path: string; timeoutMs?: number; byFetch?: true };

/**
 * Sends the steps in a plain Node process, as the e2e does (in jest, nock's interception of
 * node:http hides how sockets are pooled); each step's answer status or failure line. Between two
 * steps the last one's socket goes back to its pool.
 */
function inNode(steps: Step[]): Promise<string[]> {
	const script = `
const { N8nClient } = require(${JSON.stringify(require.resolve('../../scripts/n8n/client'))});
const { failureText } = require(${JSON.stringify(require.resolve('../e2e/runner'))});
(async () => {
	const client = new N8nClient(${JSON.stringify(baseUrl)});
	const answers = [];
	for (const s of ${JSON.stringify(steps)}) {
		const answer = s.byFetch
			? fetch(${JSON.stringify(baseUrl)} + s.path, { method: s.method }).then(async (r) => (await r.text(), r))
			: client.request(s.method, s.path, { timeoutMs: s.timeoutMs });
		answers.push(await answer.then((r) => String(r.status), failureText));
		await new Promise((resolve) => setImmediate(resolve));
	}
	console.log(JSON.stringify(answers));
	process.exit(0);
})();`;
	return new Promise((resolve, reject) =>
		execFile(process.execPath, ['-e', script], (error, stdout) =>
			error ? reject(error) : resolve(JSON.parse(stdout)),
		),
	);
}

test('a write after a read goes out on a new socket, so a socket n8n closed cannot lose it', async () => {
	const answers = await inNode([
		{ method: 'GET', path: '/rest/community-packages' },
		{ method: 'DELETE', path: '/rest/community-packages' },
	]);
	expect(answers).toEqual(['200', '200']);
	expect([...perSocket.values()]).toEqual([1, 1]);
});

test('a write does not take a kept-alive socket another fetch to n8n left open', async () => {
	const answers = await inNode([
		{ method: 'DELETE', path: '/mcp/x', byFetch: true },
		{ method: 'POST', path: '/rest/owner/setup' },
	]);
	expect(answers).toEqual(['200', '200']);
	expect([...perSocket.values()]).toEqual([1, 1]);
});

test('no answer in time: the failure names the request and the wait', async () => {
	expect(await inNode([{ method: 'GET', path: '/hang', timeoutMs: 200 }])).toEqual([
		'GET /hang: no answer within 0.2 s',
	]);
});

test('an answer cut off mid-body: the failure names the request and the socket error', async () => {
	expect(await inNode([{ method: 'DELETE', path: '/cut' }])).toEqual([
		'DELETE /cut: aborted (ECONNRESET: aborted)',
	]);
});

test("the runner's failure line keeps a thrown object's message, and a cause without a code", () => {
	expect(failureText({ message: '3 of 4 contacts', stack: 'at test/e2e/contacts.js:12' })).toBe(
		'3 of 4 contacts',
	);
	const timeout = new Error('GET /x: fetch failed', {
		cause: new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
	});
	expect(failureText(timeout)).toBe(
		'GET /x: fetch failed (TimeoutError: The operation was aborted due to timeout)',
	);
});
