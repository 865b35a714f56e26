// zz-break: scripts/queue/relay.js says "each request goes, whole, to the next target" and the
// brief of the scale work says it forwards all headers unchanged. It rebuilds the headers from
// Node's parsed `req.headers`, which joins repeated lines with ", " and DROPS repeats of some
// (authorization, content-type, user-agent, …), and it overwrites a client's X-Forwarded-For.
// A target behind a real load balancer receives the header lines as sent (plus an appended
// X-Forwarded-For); behind this relay it does not.
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';

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
	await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
	const a = target.address();
	if (!a || typeof a === 'string') throw new Error('no port');
	targetUrl = `http://127.0.0.1:${a.port}`;
});

afterAll(async () => {
	target.closeAllConnections();
	await new Promise((resolve) => target.close(resolve));
});

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
