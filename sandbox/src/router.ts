import type { ApiKeyRecord } from './auth';
import type { SandboxApp } from './app';
import type { OrgData } from './store';
import type { Schema } from './validation';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RequestContext {
	app: SandboxApp;
	/** Undefined only for routes without a scope (the OpenAPI document). */
	org: OrgData;
	key: ApiKeyRecord;
	params: Record<string, string>;
	query: Record<string, unknown>;
	body: Record<string, unknown>;
	headers: Record<string, string | string[] | undefined>;
	/** http://127.0.0.1:<port>/v1 or .../api/v1: the base the request came in on. */
	baseUrl: string;
}

/** A response that is not a JSON envelope (the YAML form of the OpenAPI document). */
export class RawResponse {
	constructor(
		readonly body: string,
		readonly contentType: string,
	) {}
}

export interface Route {
	method: Method;
	/** Relative to the base URL, with `{name}` parameters: `/contacts/{id}`. */
	path: string;
	operationId: string;
	summary: string;
	description?: string;
	tag: string;
	/** Scope needed; null means no API key is needed. */
	scope: string | null;
	query?: Record<string, Schema>;
	body?: Schema;
	response: { status: 200 | 201; description: string; schema: Schema };
	/** Error statuses this operation can answer besides 401/403/429 (which every secured one can). */
	errors: number[];
	handler: (ctx: RequestContext) => unknown | Promise<unknown>;
}

interface CompiledRoute {
	route: Route;
	pattern: RegExp;
	paramNames: string[];
}

export type RouteMatch =
	| { kind: 'found'; route: Route; params: Record<string, string> }
	| { kind: 'method_not_allowed'; allowed: Method[] }
	| { kind: 'not_found' };

export class Router {
	private readonly compiled: CompiledRoute[];

	constructor(readonly routes: Route[]) {
		this.compiled = routes
			.map((route) => {
				const paramNames: string[] = [];
				const source = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
					paramNames.push(name);
					return '([^/]+)';
				});
				return { route, pattern: new RegExp(`^${source}$`), paramNames };
			})
			// Literal segments win over parameters: /webhooks/events before /webhooks/{id}.
			.sort((a, b) => a.paramNames.length - b.paramNames.length);
	}

	match(method: string, path: string): RouteMatch {
		const allowed: Method[] = [];
		for (const { route, pattern, paramNames } of this.compiled) {
			const found = pattern.exec(path);
			if (!found) continue;
			if (route.method !== method) {
				if (!allowed.includes(route.method)) allowed.push(route.method);
				continue;
			}
			const params: Record<string, string> = {};
			try {
				paramNames.forEach((name, i) => (params[name] = decodeURIComponent(found[i + 1])));
			} catch {
				return { kind: 'not_found' };
			}
			return { kind: 'found', route, params };
		}
		return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
	}
}
