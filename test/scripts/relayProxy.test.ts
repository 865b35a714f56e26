import { spawn } from 'node:child_process';
import { createServer, type Server, request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';

/** Listens on a free port of 127.0.0.1; the server's URL. */
async function listening(server: Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const a = server.address();
	if (!a || typeof a === 'string') throw new Error('no port');
	return `http://127.0.0.1:${a.port}`;
}

/** Closes the server and every connection it holds. */
async function closed(server: Server): Promise<void> {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
}

// scripts/queue/relay.js says "each request goes, whole, to the next target" and the
// brief of the scale work says it forwards all headers unchanged. It rebuilds the headers from
// Node's parsed `req.headers`, which joins repeated lines with ", " and DROPS repeats of some
// (authorization, content-type, user-agent, …), and it overwrites a client's X-Forwarded-For.
// A target behind a real load balancer receives the header lines as sent (plus an appended
// X-Forwarded-For); behind this relay it does not.
describe('relay headers not forwarded unchanged', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { startRelay } = require('../../scripts/queue/relay') as {
		startRelay(o?: {
			targets?: string[];
		}): Promise<{ baseUrl: string; port: number; stop(): Promise<void> }>;
	};
	let target: Server;
	let targetUrl = '';
	const seen: string[][] = [];
	beforeAll(async () => {
		target = createServer((req, res) => {
			seen.push(req.rawHeaders);
			req.resume();
			req.on('end', () => res.writeHead(200, { connection: 'close' }).end('ok'));
		});
		targetUrl = await listening(target);
	});
	afterAll(() => closed(target));
	/** Raw HTTP/1.1 request with the given header lines (repeats allowed). */
	function rawPost(port: number, lines: [string, string][], body: string): Promise<string> {
		return new Promise((resolve, reject) => {
			const s = connect(port, '127.0.0.1', () => {
				const head = [
					`POST /webhook/x HTTP/1.1`,
					`Host: 127.0.0.1:${port}`,
					...lines.map(([n, v]) => `${n}: ${v}`),
					`Content-Length: ${Buffer.byteLength(body)}`,
					'Connection: close',
					'',
					'',
				].join('\r\n');
				s.write(head + body);
			});
			let out = '';
			s.setEncoding('utf8');
			s.on('data', (c: string) => (out += c));
			s.on('end', () => resolve(out));
			s.on('error', reject);
		});
	}
	const pairs = (raw: string[]) => {
		const out: string[] = [];
		for (let i = 0; i < raw.length; i += 2) out.push(`${raw[i].toLowerCase()}: ${raw[i + 1]}`);
		return out;
	};
	test('repeated header lines and a client X-Forwarded-For reach the target as sent', async () => {
		const relay = await startRelay({ targets: [targetUrl] });
		try {
			const lines: [string, string][] = [
				['Content-Type', 'application/json'],
				['Webhook-Signature', 'v1,AAAA'],
				['Webhook-Signature', 'v1,BBBB'],
				['Authorization', 'Bearer first'],
				['Authorization', 'Bearer second'],
				['X-Forwarded-For', '203.0.113.7'],
			];
			const answer = await rawPost(relay.port, lines, '{"a":1}');
			expect(answer).toMatch(/^HTTP\/1\.1 200/);
			const got = pairs(seen[seen.length - 1]);
			// every line the client sent is there, in the client's form (a proxy may add to X-Forwarded-For)
			expect(got.filter((l) => l.startsWith('webhook-signature:'))).toEqual([
				'webhook-signature: v1,AAAA',
				'webhook-signature: v1,BBBB',
			]);
			expect(got.filter((l) => l.startsWith('authorization:'))).toEqual([
				'authorization: Bearer first',
				'authorization: Bearer second',
			]);
			expect(got.find((l) => l.startsWith('x-forwarded-for:'))).toMatch(
				/^x-forwarded-for: 203\.0\.113\.7/,
			);
		} finally {
			await relay.stop();
		}
	});
});

// scripts/queue/relay.js never aborts the request it forwards when the client side goes
// away. (1) A client that disconnects halfway through its body leaves the webhook process holding
// a half-received POST until the relay's upstream timeout (60 s by default). (2) `stop()` says it
// "closes the server and its connections", but a forwarded request still waiting for its answer
// stays open to the target (and keeps the e2e's Node process alive) until that timeout.
describe('relay leaves upstream open', () => {
	/**
	 * The relay in a process of its own, on plain Node as in the e2e: in this one, nock's interceptor
	 * wraps every request the relay makes, and a destroyed request it wraps does not always close the
	 * real socket at once.
	 */
	async function startRelay(o: {
		targets: string[];
	}): Promise<{ baseUrl: string; port: number; stop(): Promise<void> }> {
		const relayFile = join(__dirname, '../../scripts/queue/relay.js');
		const code = `require(${JSON.stringify(relayFile)}).startRelay(${JSON.stringify(o)}).then((r) => {
		process.send(r.port);
		process.on('message', async () => { await r.stop(); process.send('stopped'); process.exit(0); });
	});`;
		const child = spawn(process.execPath, ['-e', code], {
			stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
		});
		const port = await new Promise<number>((resolve) =>
			child.once('message', (m) => resolve(Number(m))),
		);
		return {
			port,
			baseUrl: `http://127.0.0.1:${port}`,
			stop: async () => {
				await new Promise((resolve) => {
					child.once('message', resolve);
					child.send('stop');
				});
			},
		};
	}
	let target: Server;
	let targetUrl = '';
	let arrived: ((req: IncomingMessage) => void) | undefined;
	beforeAll(async () => {
		// never answers: like a webhook process still working on a delivery
		target = createServer((req) => arrived?.(req));
		targetUrl = await listening(target);
	});
	afterAll(() => closed(target));
	/** Resolves with ms until the target's side of the request closes, or 'still open' after `waitMs`. */
	function closedWithin(req: IncomingMessage, waitMs: number): Promise<number | 'still open'> {
		const t = Date.now();
		return new Promise((resolve) => {
			if (req.socket.destroyed) return resolve(0);
			const timer = setTimeout(() => resolve('still open'), waitMs);
			req.socket.once('close', () => {
				clearTimeout(timer);
				resolve(Date.now() - t);
			});
		});
	}
	test('a client that disconnects mid-body: the target is let go at once, not after the 60 s timeout', async () => {
		const relay = await startRelay({ targets: [targetUrl] });
		try {
			const got = new Promise<IncomingMessage>((resolve) => (arrived = resolve));
			const s = connect(relay.port, '127.0.0.1', () => {
				s.write(
					`POST /webhook/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"partial":`,
				);
			});
			s.on('error', () => {});
			const req = await got;
			const closed = closedWithin(req, 3000);
			s.destroy();
			expect(await closed).not.toBe('still open');
		} finally {
			await relay.stop();
		}
	});
	test('stop() with a forwarded request in flight closes the connection to the target too', async () => {
		const relay = await startRelay({ targets: [targetUrl] });
		const got = new Promise<IncomingMessage>((resolve) => (arrived = resolve));
		const client = request(`${relay.baseUrl}/webhook/y`, { method: 'POST', agent: false });
		client.on('error', () => {});
		client.end('{}');
		const req = await got;
		const closed = closedWithin(req, 3000);
		await relay.stop();
		expect(await closed).not.toBe('still open');
	});
});
