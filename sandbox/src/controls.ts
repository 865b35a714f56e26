/**
 * Test controls, outside the API's own routes: in-process through `sandbox.control`, and over
 * HTTP under /__sandbox/ (no API key; loopback clients only).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type {
	EmittedEvent,
	FailMode,
	FailRule,
	ListChangeRule,
	RequestLogEntry,
	SandboxApp,
} from './app';
import { KNOWN_SCOPES, randomKey, type ApiKeyRecord } from './auth';
import { ApiError, invalidRequest } from './errors';
import { newId } from './ids';
import {
	asListed,
	LIST_ORDERS,
	readingsOf,
	resetReadings,
	setReadings,
	type SpecReadings,
} from './readings';
import type { RateLimitConfig } from './rateLimit';
import { seedBulk } from './seed';
import { SIGNING_SCHEMES, type SigningScheme } from './signing';
import { contractSchema, defaultContract, type DeliveryContract } from './webhooks/contract';
import type { BulkResource, Collection, OrgData } from './store';
import type { Contact, CustomerRequest, Webhook } from './types';
import { validate, type Schema } from './validation';
import { webhookView } from './views';
import type { DeliveryAttempt } from './webhooks/delivery';
import { EVENT_TYPE_NAMES, type EventType } from './webhooks/events';
import { sampleRecord } from './webhooks/samples';

export interface SeedInput {
	resource: BulkResource;
	count: number;
	/** Organization id, or "primary" (default) / "other". */
	organization?: string;
}

export interface FailNextInput {
	/** How many matching requests fail (default 1). */
	count?: number;
	/** How many matching requests go through first, untouched (default 0): `skip: n - 1` fails the n-th. */
	skip?: number;
	/**
	 * Instead of the API: "status" (default) answers `status` with an error envelope; "reset"
	 * destroys the socket; "hang" waits `ms`, then answers `status` if given, else normally.
	 * After the API handled the request (its write is stored), `ms` later: "drop-after-write"
	 * destroys the socket without any answer; "gateway-after-write" answers `status` (default 502)
	 * with a gateway's page, not the API's error body.
	 */
	mode?: FailMode;
	status?: number;
	code?: string;
	message?: string;
	/** Retry-After header (seconds) to send with the injected answer. */
	retryAfter?: number;
	ms?: number;
	/** Path relative to the base ("/contacts") or full ("/v1/contacts"); a trailing * matches a prefix. Default: any. */
	path?: string;
	method?: string;
	/** Only requests whose raw body contains this text match (e.g. one item's e-mail among concurrent POSTs). */
	bodyContains?: string;
	/** gateway-after-write: an HTML page (default) or `{ "message": message ?? status text }`. */
	gatewayBody?: 'html' | 'json';
}

export interface ListChangeInput {
	resource: BulkResource;
	/** The page of a list read after whose answer the list changes (default 1). */
	afterPage?: number;
	/** "delete" (default): a record is deleted; "insert": a new record is put first in the list's order. */
	change?: 'delete' | 'insert';
	/** delete only: this record (default: the first record of the list in its current order). */
	id?: string;
	/** Every matching read (a list that keeps changing) instead of the next one only (default false). */
	every?: boolean;
	/** Organization id, or "primary" (default) / "other". */
	organization?: string;
}

export interface CreateKeyInput {
	scopes: string[];
	organization?: string;
	name?: string;
	expiresAt?: string | null;
}

export interface CreatedKey {
	id: string;
	/** The plain key: shown this once. */
	key: string;
	name: string;
	organizationId: string;
	scopes: string[];
	prefix: string;
	expiresAt: string | null;
}

export interface SandboxControl {
	/** Back to the seed state: data, logs, switches (rate limit, latency, fail-next, signing scheme, deprecation). Keys stay. */
	reset(): void;
	seed(input: SeedInput): {
		resource: BulkResource;
		organizationId: string;
		created: number;
		total: number;
		ids: string[];
	};
	setRateLimit(config: RateLimitConfig): RateLimitConfig;
	rateLimit(): RateLimitConfig;
	failNext(input?: FailNextInput): FailRule;
	failRules(): FailRule[];
	clearFailures(): void;
	setLatency(ms: number): void;
	requestLog(): RequestLogEntry[];
	clearRequestLog(): void;
	deliveries(): DeliveryAttempt[];
	clearDeliveries(): void;
	/** Resolves when no webhook delivery is queued, in flight or waiting for a retry. */
	waitForDeliveries(): Promise<void>;
	events(): EmittedEvent[];
	clearEvents(): void;
	emit(input: { type: string; organization?: string; data?: unknown }): EmittedEvent;
	setSigningScheme(scheme: SigningScheme): void;
	signingScheme(): string;
	/** Delivery switches: signing form and its parts, event type placement, payload shape (webhooks/contract.ts). */
	setDeliveryContract(input: Partial<DeliveryContract>): DeliveryContract;
	deliveryContract(): DeliveryContract;
	/** Every subscription of every organization, without secrets. */
	webhooks(): Array<Webhook & { organizationId: string }>;
	createKey(input: CreateKeyInput): CreatedKey;
	revokeKey(id: string): boolean;
	/** What the key store holds (scrypt hashes and SHA-256 fingerprints only). */
	keyStore(): { records: ApiKeyRecord[]; verifiedFingerprints: string[] };
	setDeprecation(enabled: boolean): void;
	// Rate-limit refusals switch (#13).
	/** Whether refused (429) requests count against the window (default: they do not). */
	setCountRefused(counted: boolean): void;
	countRefused(): boolean;
	organizationIds: { primary: string; other: string };
	// -- Readings of what the spec leaves open (issue 15): permissive by default, reset by reset().
	/** Turns strict mode and the other readings on or off; see sandbox/src/readings.ts. */
	setReadings(change: Partial<SpecReadings>): SpecReadings;
	readings(): SpecReadings;
	/**
	 * A race: the next POST /contacts with this e-mail finds a contact with it created just before
	 * (by "another client"), as if it had been created between a client's list read and its create.
	 */
	createdMeanwhile(email: string): { email: string };
	/**
	 * Another client changes a list while it is read: after a read of page `afterPage` of the
	 * resource is answered, a record is deleted (default the list's first) or a new one is put first.
	 */
	changeDuringList(input: ListChangeInput): ListChangeRule;
	listChanges(): ListChangeRule[];
	clearListChanges(): void;
}

const FAIL_MODES: FailMode[] = [
	'status',
	'reset',
	'hang',
	'drop-after-write',
	'gateway-after-write',
];

const schemas: Record<string, Schema> = {
	seed: {
		type: 'object',
		additionalProperties: false,
		required: ['resource', 'count'],
		properties: {
			resource: { type: 'string', enum: ['contacts', 'quotes', 'invoices', 'requests'] },
			count: { type: 'integer', minimum: 1, maximum: 100_000 },
			organization: { type: 'string' },
		},
	},
	createdMeanwhile: {
		type: 'object',
		additionalProperties: false,
		required: ['email'],
		properties: { email: { type: 'string', minLength: 3 } },
	},
	rateLimit: {
		type: 'object',
		additionalProperties: false,
		required: ['limit', 'windowMs'],
		properties: {
			limit: { type: 'integer', minimum: 1 },
			windowMs: { type: 'integer', minimum: 1 },
		},
	},
	listChange: {
		type: 'object',
		additionalProperties: false,
		required: ['resource'],
		properties: {
			resource: { type: 'string', enum: ['contacts', 'quotes', 'invoices', 'requests'] },
			afterPage: { type: 'integer', minimum: 1 },
			change: { type: 'string', enum: ['delete', 'insert'] },
			id: { type: 'string', minLength: 1 },
			every: { type: 'boolean' },
			organization: { type: 'string' },
		},
	},
	failNext: {
		type: 'object',
		additionalProperties: false,
		properties: {
			count: { type: 'integer', minimum: 1, maximum: 100_000 },
			skip: { type: 'integer', minimum: 0, maximum: 100_000 },
			mode: { type: 'string', enum: [...FAIL_MODES] },
			status: { type: 'integer', minimum: 400, maximum: 599 },
			code: { type: 'string', minLength: 1 },
			message: { type: 'string', minLength: 1 },
			retryAfter: { type: 'integer', minimum: 0 },
			ms: { type: 'integer', minimum: 0, maximum: 600_000 },
			path: { type: 'string', minLength: 1 },
			method: {
				type: 'string',
				enum: ['GET', 'POST', 'PATCH', 'DELETE', 'get', 'post', 'patch', 'delete'],
			},
			bodyContains: { type: 'string', minLength: 1 },
			gatewayBody: { type: 'string', enum: ['html', 'json'] },
		},
	},
	latency: {
		type: 'object',
		additionalProperties: false,
		required: ['ms'],
		properties: { ms: { type: 'integer', minimum: 0, maximum: 600_000 } },
	},
	emit: {
		type: 'object',
		additionalProperties: false,
		required: ['type'],
		properties: {
			type: { type: 'string', enum: EVENT_TYPE_NAMES },
			organization: { type: 'string' },
			data: {},
		},
	},
	signing: {
		type: 'object',
		additionalProperties: false,
		required: ['scheme'],
		properties: { scheme: { type: 'string', enum: SIGNING_SCHEMES } },
	},
	keys: {
		type: 'object',
		additionalProperties: false,
		required: ['scopes'],
		properties: {
			scopes: { type: 'array', minItems: 1, items: { type: 'string', enum: KNOWN_SCOPES } },
			organization: { type: 'string' },
			name: { type: 'string', minLength: 1, maxLength: 100 },
			expiresAt: { type: ['string', 'null'], format: 'date-time' },
		},
	},
	countRefused: {
		type: 'object',
		additionalProperties: false,
		required: ['counted'],
		properties: { counted: { type: 'boolean' } },
	},
	deprecate: {
		type: 'object',
		additionalProperties: false,
		required: ['enabled'],
		properties: { enabled: { type: 'boolean' } },
	},
	readings: {
		type: 'object',
		additionalProperties: false,
		properties: {
			strict: { type: 'boolean' },
			webhookListsWithoutMeta: { type: 'boolean' },
			duplicateContactEmails: { type: 'boolean' },
			listOrder: { type: 'string', enum: [...LIST_ORDERS] },
			storesTidiedText: { type: 'boolean' },
			listsShowLess: { type: 'boolean' },
		},
	},
};

function checked<T>(input: unknown, schema: Schema): T {
	validate(input ?? {}, schema, '');
	return (input ?? {}) as T;
}

export function createControl(
	app: SandboxApp,
	organizationIds: { primary: string; other: string },
): SandboxControl {
	const orgOf = (organization: string | undefined) => {
		const org = app.org(organization);
		if (!org)
			throw invalidRequest(
				`"organization" must be "primary", "other" or an organization id; "${organization}" is none`,
				'organization',
			);
		return org;
	};
	return {
		organizationIds,
		reset: () => {
			app.reset();
			resetReadings(app);
		},
		seed(input) {
			const { resource, count, organization } = checked<SeedInput>(input, schemas.seed);
			const org = orgOf(organization);
			const ids = seedBulk(org, resource, count, new Date().toISOString());
			return {
				resource,
				organizationId: org.id,
				created: ids.length,
				total: org[resource].size,
				ids,
			};
		},
		setRateLimit(config) {
			const { limit, windowMs } = checked<RateLimitConfig>(config, schemas.rateLimit);
			app.rateLimiter.configure({ limit, windowMs });
			return app.rateLimiter.current;
		},
		rateLimit: () => app.rateLimiter.current,
		failNext(input = {}) {
			const i = checked<FailNextInput>(input, schemas.failNext);
			const mode = i.mode ?? 'status';
			if (mode === 'gateway-after-write' && i.status !== undefined && i.status < 500)
				throw invalidRequest('A gateway-after-write answers a 5xx status', 'status');
			if (mode === 'drop-after-write' && i.status !== undefined)
				throw invalidRequest('A drop-after-write sends no answer, so no status', 'status');
			if (i.gatewayBody !== undefined && mode !== 'gateway-after-write')
				throw invalidRequest('"gatewayBody" is for mode "gateway-after-write"', 'gatewayBody');
			const rule: FailRule = {
				skip: i.skip ?? 0,
				remaining: i.count ?? 1,
				mode,
				status: i.status ?? (mode === 'status' ? 500 : mode === 'gateway-after-write' ? 502 : null),
				code: i.code ?? null,
				message: i.message ?? null,
				retryAfter: i.retryAfter ?? null,
				ms: i.ms ?? (mode === 'hang' ? 30_000 : 0),
				path: i.path ?? null,
				method: i.method ? i.method.toUpperCase() : null,
				bodyContains: i.bodyContains ?? null,
				gatewayBody: i.gatewayBody ?? 'html',
			};
			app.failRules.push(rule);
			return { ...rule };
		},
		failRules: () => app.failRules.map((rule) => ({ ...rule })),
		clearFailures: () => void (app.failRules = []),
		setLatency(ms) {
			app.latencyMs = checked<{ ms: number }>({ ms }, schemas.latency).ms;
		},
		requestLog: () => app.requestLog.map((entry) => ({ ...entry, query: { ...entry.query } })),
		clearRequestLog: () => void (app.requestLog = []),
		deliveries: () => app.deliveries.log,
		clearDeliveries: () => app.deliveries.clearLog(),
		waitForDeliveries: () => app.deliveries.idle(),
		events: () => app.eventLog.slice(),
		clearEvents: () => void (app.eventLog = []),
		emit(input) {
			const { type, organization, data } = checked<{
				type: EventType;
				organization?: string;
				data?: unknown;
			}>(input, schemas.emit);
			const org = orgOf(organization);
			return app.emit(org, type, data === undefined ? sampleRecord(org, type) : data);
		},
		setSigningScheme(scheme) {
			const form = checked<{ scheme: SigningScheme }>({ scheme }, schemas.signing).scheme;
			app.deliveryContract = { ...app.deliveryContract, signing: { form } };
		},
		signingScheme: () => app.deliveryContract.signing.form,
		// ---- delivery switches (issue 11): start from the default contract, change what is given.
		setDeliveryContract(input) {
			const given = checked<Partial<DeliveryContract>>(input, contractSchema);
			app.deliveryContract = {
				...defaultContract(),
				...given,
				signing: { ...(given.signing ?? defaultContract().signing) },
			};
			return structuredClone(app.deliveryContract);
		},
		deliveryContract: () => structuredClone(app.deliveryContract),
		webhooks: () =>
			app.store
				.all()
				.flatMap((org) =>
					org.webhooks.all().map((w) => ({ ...webhookView(w), organizationId: org.id })),
				),
		createKey(input) {
			const { scopes, organization, name, expiresAt } = checked<CreateKeyInput>(
				input,
				schemas.keys,
			);
			const org = orgOf(organization);
			const key = randomKey();
			const record = app.keys.add(key, {
				id: newId('key'),
				organizationId: org.id,
				name: name ?? 'Key made by the sandbox control',
				scopes: Array.from(new Set(scopes)),
				expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
			});
			return {
				id: record.id,
				key,
				name: record.name,
				organizationId: org.id,
				scopes: record.scopes,
				prefix: record.prefix,
				expiresAt: record.expiresAt,
			};
		},
		revokeKey: (id) => app.keys.revoke(id),
		keyStore: () => app.keys.dump(),
		setDeprecation(enabled) {
			app.deprecated = checked<{ enabled: boolean }>({ enabled }, schemas.deprecate).enabled;
		},
		// -- Readings of what the spec leaves open.
		setReadings: (change) =>
			setReadings(app, checked<Partial<SpecReadings>>(change, schemas.readings)),
		readings: () => ({ ...readingsOf(app) }),
		createdMeanwhile(email) {
			const given = checked<{ email: string }>({ email }, schemas.createdMeanwhile).email;
			app.createdMeanwhile.add(given.toLowerCase());
			return { email: given };
		},
		changeDuringList(input) {
			const i = checked<ListChangeInput>(input, schemas.listChange);
			if (i.id !== undefined && i.change === 'insert')
				throw invalidRequest('"id" names the record to delete; an insert makes a new one', 'id');
			const rule: ListChangeRule = {
				resource: i.resource,
				organizationId: orgOf(i.organization).id,
				afterPage: i.afterPage ?? 1,
				change: i.change ?? 'delete',
				id: i.id ?? null,
				every: i.every ?? false,
				applied: 0,
			};
			app.listChanges.push(rule);
			return { ...rule };
		},
		listChanges: () => app.listChanges.map((rule) => ({ ...rule })),
		clearListChanges: () => void (app.listChanges = []),
		// Rate-limit refusals switch (#13).
		setCountRefused(counted) {
			app.rateLimiter.countRefused = checked<{ counted: boolean }>(
				{ counted },
				schemas.countRefused,
			).counted;
		},
		countRefused: () => app.rateLimiter.countRefused,
	};
}

const CREATED_EVENT = {
	contacts: 'contact.created',
	quotes: 'quote.created',
	invoices: 'invoice.created',
	requests: 'request.received',
} as const;

/** Called after every answered GET: applies the list-change rules that wait for this page of this list. */
export function afterListPage(app: SandboxApp, org: OrgData, apiPath: string, page: number): void {
	const resource = apiPath.slice(1) as BulkResource;
	for (const rule of app.listChanges.filter(
		(r) => r.resource === resource && r.organizationId === org.id && r.afterPage === page,
	)) {
		const collection = org[resource] as Collection<{ id: string }>;
		if (rule.change === 'insert') {
			const [id] = seedBulk(org, resource, 1, new Date().toISOString());
			collection.moveFirst(id);
			app.emit(org, CREATED_EVENT[resource], collection.get(id));
		} else {
			const target = rule.id ?? asListed(app, collection.all())[0]?.id;
			const record = target === undefined ? undefined : collection.get(target);
			if (record) {
				collection.delete(record.id);
				if (resource === 'contacts') org.unindexContact(record as Contact);
				if (resource === 'requests')
					org.requestsByExternalRef.delete((record as CustomerRequest).externalRef ?? '');
			}
		}
		rule.applied += 1;
		if (!rule.every) app.listChanges.splice(app.listChanges.indexOf(rule), 1);
	}
}

// ---- HTTP form of the controls.

type ControlHandler = (
	control: SandboxControl,
	body: Record<string, unknown>,
	params: string[],
) => unknown;

const controlRoutes: Array<{ method: string; pattern: RegExp; handler: ControlHandler }> = [
	{ method: 'POST', pattern: /^\/reset$/, handler: (c) => (c.reset(), { reset: true }) },
	{ method: 'POST', pattern: /^\/seed$/, handler: (c, b) => c.seed(b as unknown as SeedInput) },
	{ method: 'GET', pattern: /^\/rate-limit$/, handler: (c) => c.rateLimit() },
	{
		method: 'POST',
		pattern: /^\/rate-limit$/,
		handler: (c, b) => c.setRateLimit(b as unknown as RateLimitConfig),
	},
	{ method: 'GET', pattern: /^\/fail-next$/, handler: (c) => c.failRules() },
	{ method: 'POST', pattern: /^\/fail-next$/, handler: (c, b) => c.failNext(b as FailNextInput) },
	{
		method: 'DELETE',
		pattern: /^\/fail-next$/,
		handler: (c) => (c.clearFailures(), { cleared: true }),
	},
	{
		method: 'POST',
		pattern: /^\/latency$/,
		handler: (c, b) => (c.setLatency(b.ms as number), { ms: b.ms }),
	},
	{ method: 'GET', pattern: /^\/requests$/, handler: (c) => c.requestLog() },
	{
		method: 'DELETE',
		pattern: /^\/requests$/,
		handler: (c) => (c.clearRequestLog(), { cleared: true }),
	},
	{ method: 'GET', pattern: /^\/deliveries$/, handler: (c) => c.deliveries() },
	{
		method: 'DELETE',
		pattern: /^\/deliveries$/,
		handler: (c) => (c.clearDeliveries(), { cleared: true }),
	},
	{
		method: 'POST',
		pattern: /^\/deliveries\/wait$/,
		handler: async (c) => (await c.waitForDeliveries(), { idle: true }),
	},
	{ method: 'GET', pattern: /^\/events$/, handler: (c) => c.events() },
	{ method: 'DELETE', pattern: /^\/events$/, handler: (c) => (c.clearEvents(), { cleared: true }) },
	{ method: 'POST', pattern: /^\/emit$/, handler: (c, b) => c.emit(b as { type: string }) },
	{ method: 'GET', pattern: /^\/signing$/, handler: (c) => ({ scheme: c.signingScheme() }) },
	{
		method: 'POST',
		pattern: /^\/signing$/,
		handler: (c, b) => (
			c.setSigningScheme(b.scheme as SigningScheme),
			{ scheme: c.signingScheme() }
		),
	},
	{ method: 'GET', pattern: /^\/delivery-contract$/, handler: (c) => c.deliveryContract() },
	{
		method: 'POST',
		pattern: /^\/delivery-contract$/,
		handler: (c, b) => c.setDeliveryContract(b as Partial<DeliveryContract>),
	},
	{ method: 'GET', pattern: /^\/webhooks$/, handler: (c) => c.webhooks() },
	{
		method: 'POST',
		pattern: /^\/keys$/,
		handler: (c, b) => c.createKey(b as unknown as CreateKeyInput),
	},
	{
		method: 'DELETE',
		pattern: /^\/keys\/([^/]+)$/,
		handler: (c, _b, [id]) => {
			if (!c.revokeKey(id)) throw new ApiError(404, 'not_found', `No active key "${id}"`);
			return { id, revoked: true };
		},
	},
	{
		method: 'POST',
		pattern: /^\/deprecate$/,
		handler: (c, b) => (c.setDeprecation(b.enabled as boolean), { enabled: b.enabled }),
	},
	// -- Readings of what the spec leaves open.
	{ method: 'GET', pattern: /^\/readings$/, handler: (c) => c.readings() },
	{
		method: 'POST',
		pattern: /^\/readings$/,
		handler: (c, b) => c.setReadings(b as Partial<SpecReadings>),
	},
	{ method: 'GET', pattern: /^\/list-change$/, handler: (c) => c.listChanges() },
	{
		method: 'POST',
		pattern: /^\/list-change$/,
		handler: (c, b) => c.changeDuringList(b as unknown as ListChangeInput),
	},
	{
		method: 'DELETE',
		pattern: /^\/list-change$/,
		handler: (c) => (c.clearListChanges(), { cleared: true }),
	},
	{
		method: 'POST',
		pattern: /^\/contacts\/created-meanwhile$/,
		handler: (c, b) => c.createdMeanwhile(b.email as string),
	},
	// Rate-limit refusals switch (#13).
	{
		method: 'GET',
		pattern: /^\/rate-limit\/refusals$/,
		handler: (c) => ({ counted: c.countRefused() }),
	},
	{
		method: 'POST',
		pattern: /^\/rate-limit\/refusals$/,
		handler: (c, b) => (c.setCountRefused(b.counted as boolean), { counted: c.countRefused() }),
	},
];

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export async function handleControlRequest(
	app: SandboxApp,
	origin: string,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): Promise<void> {
	const send = (status: number, body: unknown): void => {
		res.writeHead(status, {
			'Content-Type': 'application/json; charset=utf-8',
			'Cache-Control': 'no-store',
		});
		res.end(JSON.stringify(body));
	};
	try {
		if (!LOOPBACK.has(req.socket.remoteAddress ?? ''))
			throw new ApiError(403, 'forbidden', 'Sandbox controls answer loopback clients only');
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const text = Buffer.concat(chunks).toString('utf8').trim();
		let body: Record<string, unknown> = {};
		if (text !== '') {
			try {
				body = JSON.parse(text) as Record<string, unknown>;
			} catch {
				throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON');
			}
			if (typeof body !== 'object' || body === null || Array.isArray(body))
				throw invalidRequest('The request body must be a JSON object');
		}
		const path = url.pathname.replace(/^\/__sandbox/, '').replace(/\/$/, '');
		const method = (req.method ?? 'GET').toUpperCase();
		const control = app.control;
		if (path === '' && method === 'GET') {
			return send(200, { data: describe(app, origin) });
		}
		for (const route of controlRoutes) {
			const match = route.pattern.exec(path);
			if (match && route.method === method)
				return send(200, {
					data: await route.handler(control, body, match.slice(1).map(decodeURIComponent)),
				});
		}
		throw new ApiError(404, 'not_found', `No sandbox control for ${method} ${url.pathname}`);
	} catch (err) {
		if (err instanceof ApiError) return send(err.status, err.body());
		app.options.log(`control error: ${err instanceof Error ? err.message : String(err)}`);
		return send(500, {
			error: { code: 'internal_error', message: 'Internal error in the sandbox controls' },
		});
	}
}

function describe(app: SandboxApp, origin: string) {
	return {
		baseUrl: `${origin}/v1`,
		legacyBaseUrl: `${origin}/api/v1`,
		controlUrl: `${origin}/__sandbox`,
		organizations: app.store
			.all()
			.map((org) => ({ id: org.id, legalName: org.organization.legalName })),
		keys: app.keys
			.dump()
			.records.map(({ id, name, organizationId, scopes, prefix, revokedAt }) => ({
				id,
				name,
				organizationId,
				scopes,
				prefix,
				revokedAt,
			})),
		rateLimit: app.rateLimiter.current,
		signingScheme: app.deliveryContract.signing.form,
		deliveryContract: app.deliveryContract,
		refusalsCounted: app.rateLimiter.countRefused,
		latencyMs: app.latencyMs,
		deprecated: app.deprecated,
		readings: readingsOf(app),
		failRules: app.failRules.length,
		controls: controlRoutes.map(
			(r) =>
				`${r.method} /__sandbox${r.pattern.source
					.replace(/^\^|\$$/g, '')
					.replace(/\\\//g, '/')
					.replace('([^/]+)', '{id}')}`,
		),
	};
}
