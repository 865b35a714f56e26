/**
 * The HTTP side: base paths, fail-next and latency switches, authentication, rate limiting,
 * scopes, body parsing and validation, then the route's handler; every answer is logged.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';

import type { FailRule, RequestLogEntry, SandboxApp } from './app';
import { requireScope } from './auth';
import { afterListPage, handleControlRequest } from './controls';
import { ApiError, codeForStatus, invalidRequest } from './errors';
import { RawResponse, Router, type RequestContext } from './router';
import { apiRoutes } from './routes';
import { coerceQuery, validate } from './validation';

export const BASE_PATHS = ['/v1', '/api/v1'] as const;
export const MAX_BODY_BYTES = 1_048_576;
const SUNSET_DAYS = 365;

export const router = new Router(apiRoutes);

function splitBase(pathname: string): { base: string; path: string } | undefined {
	for (const base of BASE_PATHS) {
		if (pathname === base || pathname.startsWith(`${base}/`)) {
			const rest = pathname.slice(base.length) || '/';
			return { base, path: rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest };
		}
	}
	return undefined;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY_BYTES) {
			throw new ApiError(
				413,
				'payload_too_large',
				`The request body is larger than ${MAX_BODY_BYTES} bytes`,
				{},
				{ Connection: 'close' },
			);
		}
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

function parseJsonObject(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
	const text = raw.toString('utf8');
	if (text.trim() === '') return {};
	if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType ?? '')) {
		throw invalidRequest(
			'Request bodies must be JSON sent with the header "Content-Type: application/json"',
		);
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (err) {
		throw new ApiError(
			400,
			'invalid_json',
			`The request body is not valid JSON: ${(err as Error).message}`,
		);
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw invalidRequest('The request body must be a JSON object');
	}
	return value as Record<string, unknown>;
}

function matchesRule(
	rule: FailRule,
	method: string,
	fullPath: string,
	apiPath: string,
	body: string,
): boolean {
	if (rule.method && rule.method.toUpperCase() !== method) return false;
	if (rule.bodyContains !== null && !body.includes(rule.bodyContains)) return false;
	if (!rule.path) return true;
	const wanted = rule.path;
	if (wanted.endsWith('*')) {
		const prefix = wanted.slice(0, -1);
		return apiPath.startsWith(prefix) || fullPath.startsWith(prefix);
	}
	return apiPath === wanted || fullPath === wanted;
}

/** Takes one use of the first fail-next rule that matches this request. */
function takeFailRule(
	app: SandboxApp,
	method: string,
	fullPath: string,
	apiPath: string,
	body: string,
): FailRule | undefined {
	const index = app.failRules.findIndex((rule) => {
		if (!matchesRule(rule, method, fullPath, apiPath, body)) return false;
		if (rule.skip === 0) return true;
		rule.skip -= 1; // let through (to the later rules), counted
		return false;
	});
	if (index < 0) return undefined;
	const rule = app.failRules[index];
	rule.remaining -= 1;
	if (rule.remaining <= 0) app.failRules.splice(index, 1);
	return rule;
}

/**
 * An after-write fail-next rule: the API handled the request (its write is stored) and its answer
 * is lost on the way back, `ms` later: no answer at all, or a gateway's page instead of it.
 */
async function loseAnswer(
	app: SandboxApp,
	rule: FailRule,
	req: IncomingMessage,
	res: ServerResponse,
	entry: RequestLogEntry,
	apiStatus: number,
): Promise<void> {
	if (rule.ms > 0 && !(await app.timers.delay(rule.ms))) return void req.socket.destroy();
	const dropped = rule.mode === 'drop-after-write';
	entry.status = dropped ? null : rule.status;
	entry.durationMs = Date.now() - Date.parse(entry.time);
	app.logRequest(entry);
	app.options.log(
		`${entry.method} ${entry.path} ${apiStatus} lost: ${dropped ? 'connection closed' : entry.status}`,
	);
	if (dropped || res.destroyed) return void req.socket.destroy();
	const status = rule.status ?? 502;
	const text = STATUS_CODES[status] ?? 'Bad Gateway';
	const json = rule.gatewayBody === 'json';
	res.writeHead(status, {
		'Content-Type': json ? 'application/json' : 'text/html',
		Connection: 'close',
	});
	res.end(
		json
			? JSON.stringify({ message: rule.message ?? text })
			: `<html><head><title>${status} ${text}</title></head><body><center><h1>${status} ${text}</h1></center><hr><center>nginx</center></body></html>\n`,
	);
}

export function createRequestListener(app: SandboxApp, origin: () => string) {
	return (req: IncomingMessage, res: ServerResponse): void => {
		handle(app, origin(), req, res).catch((err: unknown) => {
			app.options.log(
				`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
			);
			if (!res.headersSent && !res.destroyed) {
				res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
				res.end(
					JSON.stringify({
						error: { code: 'internal_error', message: 'Internal error in the sandbox' },
					}),
				);
			}
		});
	};
}

async function handle(
	app: SandboxApp,
	origin: string,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
	if (url.pathname === '/__sandbox' || url.pathname.startsWith('/__sandbox/')) {
		return handleControlRequest(app, origin, req, res, url);
	}
	const started = Date.now();
	const method = (req.method ?? 'GET').toUpperCase();
	const entry: RequestLogEntry = {
		seq: 0,
		time: new Date(started).toISOString(),
		method,
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		status: null,
		keyId: null,
		organizationId: null,
		durationMs: 0,
		injected: null,
	};
	const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
	if (app.deprecated) {
		headers.Deprecation = 'true';
		headers.Sunset = new Date(started + SUNSET_DAYS * 86_400_000).toUTCString();
	}
	let lost: FailRule | undefined;
	const send = (status: number, body: unknown, extra: Record<string, string> = {}): void => {
		if (lost)
			return void loseAnswer(app, lost, req, res, entry, status).catch(() => req.socket.destroy());
		entry.status = status;
		entry.durationMs = Date.now() - started;
		app.logRequest(entry);
		app.options.log(
			`${method} ${url.pathname} ${status} ${entry.durationMs}ms${entry.keyId ? ` key=${entry.keyId}` : ''}`,
		);
		if (res.destroyed) return;
		const raw = body instanceof RawResponse;
		res.writeHead(status, {
			...headers,
			...extra,
			'Content-Type': raw ? body.contentType : 'application/json; charset=utf-8',
		});
		res.end(raw ? body.body : JSON.stringify(body));
	};
	const sendError = (err: ApiError): void => send(err.status, err.body(), err.headers);

	const split = splitBase(url.pathname);
	const apiPath = split?.path ?? url.pathname;

	// Read at once (a rule may match on the body); a read error is answered below, in order.
	const body = readBody(req);
	body.catch(() => undefined);
	const bodyText = app.failRules.some((r) => r.bodyContains !== null)
		? await body.then(
				(b) => b.toString('utf8'),
				() => '',
			)
		: '';
	const rule = takeFailRule(app, method, url.pathname, apiPath, bodyText);
	if (rule) entry.injected = rule.mode;
	if (rule?.mode === 'drop-after-write' || rule?.mode === 'gateway-after-write') lost = rule;
	else if (rule) {
		if (rule.mode === 'reset') {
			entry.durationMs = Date.now() - started;
			app.logRequest(entry);
			req.socket.destroy();
			return;
		}
		if (rule.mode === 'hang' && !(await app.timers.delay(rule.ms)))
			return void req.socket.destroy();
		if (rule.mode === 'status' || rule.status !== null) {
			const status = rule.status ?? 500;
			const extra: Record<string, string> =
				rule.retryAfter !== null ? { 'Retry-After': String(rule.retryAfter) } : {};
			const message =
				rule.message ??
				`Simulated failure (status ${status}) injected by the sandbox's fail-next control`;
			return send(status, { error: { code: rule.code ?? codeForStatus(status), message } }, extra);
		}
	}
	if (app.latencyMs > 0 && !(await app.timers.delay(app.latencyMs)))
		return void req.socket.destroy();

	try {
		const raw = await body;
		if (!split) {
			throw new ApiError(
				404,
				'not_found',
				`No route for ${method} ${url.pathname}; the API lives under /v1 (or the legacy /api/v1)`,
			);
		}
		const match = router.match(method, split.path);
		if (match.kind === 'not_found')
			throw new ApiError(404, 'not_found', `No route for ${method} ${url.pathname}`);
		if (match.kind === 'method_not_allowed') {
			throw new ApiError(
				405,
				'method_not_allowed',
				`${method} is not allowed on ${url.pathname}; allowed: ${match.allowed.join(', ')}`,
				{},
				{ Allow: match.allowed.join(', ') },
			);
		}
		const { route, params } = match;
		const ctx = {
			app,
			params,
			headers: req.headers,
			baseUrl: `${origin}${split.base}`,
			query: {},
			body: {},
		} as unknown as RequestContext;
		if (route.scope !== null) {
			const key = app.keys.authenticate(req.headers.authorization);
			entry.keyId = key.id;
			entry.organizationId = key.organizationId;
			const decision = app.rateLimiter.take(key.id);
			headers['X-RateLimit-Limit'] = String(decision.limit);
			if (!decision.allowed) {
				headers['X-RateLimit-Remaining'] = '0';
				const seconds = decision.retryAfterSeconds;
				throw new ApiError(
					429,
					'rate_limited',
					`Rate limit of ${decision.limit} requests exceeded; retry after ${seconds} s`,
					{},
					{ 'Retry-After': String(seconds) },
				);
			}
			headers['X-RateLimit-Remaining'] = String(decision.remaining);
			requireScope(key, route.scope);
			const org = app.store.org(key.organizationId);
			if (!org)
				throw new ApiError(
					401,
					'unauthorized',
					'The organization of this API key no longer exists',
				);
			ctx.key = key;
			ctx.org = org;
		}
		for (const [name, schema] of Object.entries(route.query ?? {})) {
			const value = url.searchParams.get(name);
			if (value !== null) ctx.query[name] = coerceQuery(value, schema, name);
		}
		if (route.body) {
			ctx.body = parseJsonObject(raw, req.headers['content-type']);
			validate(ctx.body, route.body, '');
		}
		const result = await route.handler(ctx);
		send(route.response.status, result);
		if (method === 'GET' && ctx.org)
			afterListPage(app, ctx.org, split.path, (ctx.query.page as number | undefined) ?? 1);
	} catch (err) {
		if (err instanceof ApiError) return sendError(err);
		app.options.log(
			`internal error on ${method} ${url.pathname}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
		);
		return send(500, {
			error: { code: 'internal_error', message: 'Internal error in the sandbox' },
		});
	}
}
