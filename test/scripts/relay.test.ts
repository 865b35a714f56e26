// The queue e2e's load balancer (scripts/queue/relay.js): each request goes, whole, to the next
// webhook process in turn, and the answer comes back unchanged; a target that is down gives 502.
import { createServer, request, type Server } from 'node:http';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startRelay } = require('../../scripts/queue/relay') as {
	startRelay(o?: { targets?: string[]; by?: 'turn' | 'path' }): Promise<{
		baseUrl: string;
		counts(): Record<string, number>;
		setTargets(t: string[]): void;
		stop(): Promise<void>;
	}>;
};

const targets: { server: Server; url: string; seen: string[] }[] = [];

/** One request on a connection of its own (no keep-alive left behind): status, a header, body. */
function send(
	url: string,
	o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; target: string; text: string }> {
	return new Promise((resolve, reject) => {
		const req = request(
			url,
			{ method: o.method ?? 'POST', headers: o.headers, agent: false },
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (c: string) => (text += c));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, target: String(res.headers['x-target']), text }),
				);
			},
		);
		req.on('error', reject);
		req.end(o.body ?? '{}');
	});
}

beforeAll(async () => {
	for (let i = 0; i < 2; i++) {
		const seen: string[] = [];
		const server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				seen.push(
					`${req.method} ${req.url} ${req.headers['webhook-id']} ${Buffer.concat(chunks).toString('utf8')}`,
				);
				res
					.writeHead(i === 0 ? 200 : 401, {
						'content-type': 'application/json',
						'x-target': String(i),
					})
					.end(JSON.stringify({ target: i }));
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const address = server.address();
		if (!address || typeof address === 'string') throw new Error('no port');
		targets.push({ server, url: `http://127.0.0.1:${address.port}`, seen });
	}
});

afterAll(async () => {
	for (const t of targets) {
		t.server.closeAllConnections();
		await new Promise((resolve) => t.server.close(resolve));
	}
});

test('round robin: each request to the next target, body, path and headers intact, answer unchanged', async () => {
	const relay = await startRelay({ targets: targets.map((t) => t.url) });
	try {
		const answers = [];
		for (let i = 0; i < 4; i++) {
			const res = await send(`${relay.baseUrl}/webhook/abc?x=${i}`, {
				headers: { 'webhook-id': `msg_${i}`, 'content-type': 'application/json' },
				body: `{"n":${i}}`,
			});
			answers.push(`${res.status} ${res.target} ${res.text}`);
		}
		expect(answers).toEqual([
			'200 0 {"target":0}',
			'401 1 {"target":1}',
			'200 0 {"target":0}',
			'401 1 {"target":1}',
		]);
		expect(targets[0].seen).toEqual([
			'POST /webhook/abc?x=0 msg_0 {"n":0}',
			'POST /webhook/abc?x=2 msg_2 {"n":2}',
		]);
		expect(targets[1].seen).toEqual([
			'POST /webhook/abc?x=1 msg_1 {"n":1}',
			'POST /webhook/abc?x=3 msg_3 {"n":3}',
		]);
		expect(Object.values(relay.counts())).toEqual([2, 2]);
		// everything to one target
		relay.setTargets([targets[1].url]);
		expect((await send(`${relay.baseUrl}/x`)).status).toBe(401);
		expect(Object.values(relay.counts())).toEqual([2, 3]);
	} finally {
		await relay.stop();
	}
});

test('started without targets it answers 503 until they are set', async () => {
	const relay = await startRelay();
	try {
		expect((await send(`${relay.baseUrl}/a`)).status).toBe(503);
		relay.setTargets([targets[0].url]);
		expect((await send(`${relay.baseUrl}/b`)).status).toBe(200);
	} finally {
		await relay.stop();
	}
});

test('a target that is down answers 502, the next request goes on to the next target', async () => {
	const dead = createServer();
	await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
	const address = dead.address();
	if (!address || typeof address === 'string') throw new Error('no port');
	await new Promise((resolve) => dead.close(resolve));
	const relay = await startRelay({ targets: [`http://127.0.0.1:${address.port}`, targets[0].url] });
	try {
		expect((await send(`${relay.baseUrl}/a`)).status).toBe(502);
		expect((await send(`${relay.baseUrl}/b`)).status).toBe(200);
	} finally {
		await relay.stop();
	}
});

test('affinity by path: every request for one path goes to one target, whatever its query; other paths may go elsewhere', async () => {
	const relay = await startRelay({ targets: targets.map((t) => t.url), by: 'path' });
	try {
		const targetOf = async (path: string) => (await send(`${relay.baseUrl}${path}`)).target;
		const paths = Array.from({ length: 8 }, (_, i) => `/webhook/wf${i}/webhook`);
		const first = await Promise.all(paths.map(targetOf));
		const again = await Promise.all(paths.map((path) => targetOf(`${path}?retry=1`)));
		expect(again).toEqual(first);
		expect(new Set(first).size).toBe(2);
	} finally {
		await relay.stop();
	}
});
