import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { startSandbox, type Sandbox, type SandboxOptions } from '../src/index';

/** Response bodies are checked field by field in the tests, so they are loosely typed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export interface ApiResult<T = Loose> {
	status: number;
	headers: Headers;
	body: T;
}

export type Api = (
	method: string,
	path: string,
	body?: unknown,
	headers?: Record<string, string>,
) => Promise<ApiResult>;

/** A fetch wrapper bound to a base URL and a key; `body` objects are sent as JSON. */
export function apiClient(baseUrl: string, key: string | null): Api {
	return async (method, path, body, headers = {}) => {
		const init: RequestInit = {
			method,
			headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers },
		};
		if (body !== undefined) {
			init.body = typeof body === 'string' ? body : JSON.stringify(body);
			(init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
		}
		const response = await fetch(`${baseUrl}${path}`, init);
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = text === '' ? null : JSON.parse(text);
		} catch {
			// not JSON (YAML): keep the text
		}
		return { status: response.status, headers: response.headers, body: parsed };
	};
}

export interface TestSandbox {
	sandbox: Sandbox;
	admin: Api;
	as: (key: string | null) => Api;
	control: Sandbox['control'];
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
	const sandbox = await startSandbox({
		rateLimit: { limit: 100_000, windowMs: 60_000 },
		...options,
	});
	return {
		sandbox,
		admin: apiClient(sandbox.baseUrl, sandbox.keys.admin),
		as: (key) => apiClient(sandbox.baseUrl, key),
		control: sandbox.control,
	};
}

export interface ReceivedDelivery {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	body: string;
	receivedAt: number;
}

export interface Receiver {
	url: string;
	received: ReceivedDelivery[];
	/** Status to answer the n-th delivery (0-based); default 200. */
	respond: (index: number) => number;
	waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
	close(): Promise<void>;
}

/** A tiny webhook receiver on 127.0.0.1:<free port>. */
export async function startReceiver(
	respond: (index: number) => number = () => 200,
): Promise<Receiver> {
	const received: ReceivedDelivery[] = [];
	const waiters: Array<() => void> = [];
	const receiver = { respond } as Receiver;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const index = received.length;
			received.push({
				method: req.method ?? '',
				path: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
				receivedAt: Date.now(),
			});
			res.writeHead(receiver.respond(index), { 'Content-Type': 'text/plain' });
			res.end('ok');
			waiters.splice(0).forEach((wake) => wake());
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	receiver.url = `http://127.0.0.1:${port}/hook`;
	receiver.received = received;
	receiver.waitFor = async (count, timeoutMs = 5000) => {
		const deadline = Date.now() + timeoutMs;
		while (received.length < count) {
			const left = deadline - Date.now();
			if (left <= 0) throw new Error(`expected ${count} deliveries, got ${received.length}`);
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, Math.min(left, 200));
				waiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
		return received.slice(0, count);
	};
	receiver.close = () =>
		new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	return receiver;
}
