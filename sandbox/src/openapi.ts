/** The OpenAPI 3.1 document, generated from the route table so that the two cannot drift. */
import type { Route } from './router';
import { componentSchemas } from './schemas';
import type { Schema } from './validation';

const ERROR_DESCRIPTIONS: Record<number, string> = {
	400: 'Validation error (invalid_request, naming the field) or malformed JSON (invalid_json).',
	401: 'Missing or invalid API key (unauthorized).',
	403: 'The key lacks the scope (insufficient_scope; error.scope names it).',
	404: 'Not found (not_found).',
	409: 'Conflict with an existing record (duplicate_resource).',
	422: 'Not allowed in the current state (invalid_state).',
	429: 'Rate limit exceeded (rate_limited); wait Retry-After seconds.',
};

/** Drops the sandbox's own `x-error` keyword; the rest is plain JSON Schema. */
function clean(schema: Schema): Schema {
	const out: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(schema)) {
		if (name === 'x-error') continue;
		if (name === 'properties') {
			out.properties = Object.fromEntries(
				Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, clean(v)]),
			);
		} else if (
			(name === 'items' || name === 'additionalProperties' || name === 'propertyNames') &&
			typeof value === 'object'
		) {
			out[name] = clean(value as Schema);
		} else out[name] = Array.isArray(value) ? [...value] : value;
	}
	return out as Schema;
}

function errorResponse(status: number) {
	const response: Record<string, unknown> = {
		description: ERROR_DESCRIPTIONS[status],
		content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
	};
	if (status === 429) {
		response.headers = {
			'Retry-After': {
				description: 'Seconds to wait before retrying.',
				schema: { type: 'integer', minimum: 1 },
			},
		};
	}
	return response;
}

function operation(route: Route) {
	const pathParams = Array.from(route.path.matchAll(/\{(\w+)\}/g), (m) => ({
		name: m[1],
		in: 'path',
		required: true,
		schema: { type: 'string' },
	}));
	const queryParams = Object.entries(route.query ?? {}).map(([name, schema]) => ({
		name,
		in: 'query',
		required: false,
		...(schema.description ? { description: schema.description } : {}),
		schema: clean({ ...schema, description: undefined }),
	}));
	const errors = route.scope ? [...route.errors, 401, 403, 429] : route.errors;
	const responses: Record<string, unknown> = {
		[route.response.status]:
			route.scope === null
				? {
						description: route.response.description,
						content: {
							'application/json': { schema: clean(route.response.schema) },
							'application/yaml': { schema: { type: 'string' } },
						},
					}
				: {
						description: route.response.description,
						content: { 'application/json': { schema: clean(route.response.schema) } },
					},
	};
	for (const status of [...new Set(errors)].sort()) responses[status] = errorResponse(status);
	const description = [
		route.description,
		route.scope ? `Scope: \`${route.scope}\`.` : 'No API key needed.',
	]
		.filter(Boolean)
		.join(' ');
	return {
		operationId: route.operationId,
		summary: route.summary,
		description,
		tags: [route.tag],
		...(route.scope ? { 'x-required-scope': route.scope } : { security: [] }),
		...(pathParams.length + queryParams.length > 0
			? { parameters: [...pathParams, ...queryParams] }
			: {}),
		...(route.body
			? {
					requestBody: {
						required: (route.body.required ?? []).length > 0,
						content: { 'application/json': { schema: clean(route.body) } },
					},
				}
			: {}),
		responses,
	};
}

export function buildOpenApi(routes: readonly Route[], origin: string): Record<string, unknown> {
	const paths: Record<string, Record<string, unknown>> = {};
	for (const route of routes) {
		paths[route.path] ??= {};
		paths[route.path][route.method.toLowerCase()] = operation(route);
	}
	return {
		openapi: '3.1.0',
		info: {
			title: 'Business Operations API (sandbox)',
			version: '1.0.0',
			description:
				'Contacts, quotes, invoices, organization settings, agents, customer requests and webhooks. ' +
				'Served by the local sandbox; the same routes answer under /v1 and the legacy /api/v1.',
		},
		servers: [
			{ url: `${origin}/v1`, description: 'Base URL' },
			{ url: `${origin}/api/v1`, description: 'Legacy base URL (same routes and behaviour)' },
		],
		security: [{ bearerAuth: [] }],
		tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
		paths,
		components: {
			securitySchemes: {
				bearerAuth: {
					type: 'http',
					scheme: 'bearer',
					description: 'Authorization: Bearer svc_<32 URL-safe characters>',
				},
			},
			schemas: Object.fromEntries(
				Object.entries(componentSchemas).map(([name, schema]) => [name, clean(schema)]),
			),
		},
	};
}
