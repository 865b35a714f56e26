// The e2e's n8n client (scripts/n8n/client.js) sends each request on a socket of its own: a
// write that went out on a kept-alive socket n8n was closing failed in CI without an answer.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { N8nClient } = require('../../scripts/n8n/client') as {
	N8nClient: new (baseUrl: string) => {
		request(method: string, pathname: string): Promise<{ status: number }>;
	};
};

let server: Server;
let baseUrl: string;
const perSocket = new Map<Socket, number>();

beforeAll(async () => {
	// Like n8n closing an idle kept-alive socket just as a request arrives on it: a second request
	// on one socket gets no answer.
	server = createServer((req, res: ServerResponse) => {
		const n = (perSocket.get(req.socket) ?? 0) + 1;
		perSocket.set(req.socket, n);
		if (n > 1) req.socket.destroy();
		else res.end('{}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('no port');
	baseUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('a write after a read goes out on a new socket, so a socket n8n closed cannot lose it', async () => {
	const client = new N8nClient(baseUrl);
	await client.request('GET', '/rest/community-packages');
	// Lets the read's socket go back to the pool, as any pause between two requests does.
	await new Promise((resolve) => setImmediate(resolve));
	const answer = await client.request('DELETE', '/rest/community-packages');
	expect(answer.status).toBe(200);
	expect([...perSocket.values()]).toEqual([1, 1]);
});
