import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { SandboxApp, type ResolvedOptions } from './app';
import { deterministicKey } from './auth';
import { createControl, type SandboxControl } from './controls';
import { stableId } from './ids';
import { OTHER_ORG_ID, PRIMARY_ORG_ID } from './seed';
import { createRequestListener } from './server';
import type { SigningScheme } from './signing';

export type {
	SandboxControl,
	FailNextInput,
	ListChangeInput,
	SeedInput,
	CreateKeyInput,
	CreatedKey,
} from './controls';
export type { DeliveryAttempt } from './webhooks/delivery';
export type { RequestLogEntry, EmittedEvent, ListChangeRule } from './app';
export type { SigningScheme } from './signing';
export { signStandard, signGithub, signStripe, signatureHeaders, verifyDelivery } from './signing';
export { EVENT_TYPES } from './webhooks/events';

export interface SandboxOptions {
	/** 0 = a free port (the default in-process; the CLI uses 4010 unless SANDBOX_PORT is set). */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Default 120 requests per 60 000 ms, sliding window per API key. */
	rateLimit?: { limit: number; windowMs: number };
	/** Refused (429) requests count against the window (default false). */
	countRefused?: boolean;
	/** Default 'standard'. */
	signingScheme?: SigningScheme;
	/** Load the deterministic Dutch seed data (default true). */
	seed?: boolean;
	/** Default 3 attempts, 500 ms before the 2nd, doubling after. */
	deliveryRetry?: { attempts: number; baseDelayMs: number };
	/** Per delivery attempt; default 10 000 ms. */
	deliveryTimeoutMs?: number;
	/** Never receives API keys or signing secrets. */
	log?: (line: string) => void;
}

export interface SandboxKeys {
	/** Scope `*` in the primary organization. */
	admin: string;
	/** Every `<resource>.read` scope in the primary organization. */
	readOnly: string;
	/** `contacts.*` in the primary organization. */
	contactsOnly: string;
	/** Scope `*` in the second organization. */
	otherOrg: string;
}

export interface Sandbox {
	/** http://127.0.0.1:<port>/v1 */
	baseUrl: string;
	/** http://127.0.0.1:<port>/api/v1 */
	legacyBaseUrl: string;
	/** http://127.0.0.1:<port>/__sandbox */
	controlUrl: string;
	port: number;
	keys: SandboxKeys;
	/** Ids of the two seeded organizations. */
	organizationIds: { primary: string; other: string };
	/** Closes the server, its connections, timers and pending deliveries. */
	stop(): Promise<void>;
	control: SandboxControl;
}

const READ_SCOPES = [
	'contacts',
	'quotes',
	'invoices',
	'organization',
	'agents',
	'requests',
	'webhooks',
].map((r) => `${r}.read`);

/** The four fixed keys: label, organization, name, scopes. */
export const FIXED_KEYS = [
	{ label: 'admin', organizationId: PRIMARY_ORG_ID, name: 'Admin (all scopes)', scopes: ['*'] },
	{ label: 'readOnly', organizationId: PRIMARY_ORG_ID, name: 'Read only', scopes: READ_SCOPES },
	{
		label: 'contactsOnly',
		organizationId: PRIMARY_ORG_ID,
		name: 'Contacts only',
		scopes: ['contacts.*'],
	},
	{
		label: 'otherOrg',
		organizationId: OTHER_ORG_ID,
		name: 'Admin of the second organization',
		scopes: ['*'],
	},
] as const;

function resolve(options: SandboxOptions): ResolvedOptions {
	const rateLimit = options.rateLimit ?? { limit: 120, windowMs: 60_000 };
	if (!(rateLimit.limit >= 1 && rateLimit.windowMs >= 1))
		throw new Error('rateLimit needs limit >= 1 and windowMs >= 1');
	return {
		port: options.port ?? 0,
		host: options.host ?? '127.0.0.1',
		rateLimit: { ...rateLimit },
		countRefused: options.countRefused ?? false,
		signingScheme: options.signingScheme ?? 'standard',
		seed: options.seed ?? true,
		deliveryRetry: { ...(options.deliveryRetry ?? { attempts: 3, baseDelayMs: 500 }) },
		deliveryTimeoutMs: options.deliveryTimeoutMs ?? 10_000,
		log: options.log ?? (() => undefined),
	};
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const resolved = resolve(options);
	const app = new SandboxApp(resolved);
	const keys = {} as Record<(typeof FIXED_KEYS)[number]['label'], string>;
	for (const fixed of FIXED_KEYS) {
		keys[fixed.label] = deterministicKey(fixed.label);
		app.keys.add(keys[fixed.label], {
			id: stableId('key', fixed.label),
			organizationId: fixed.organizationId,
			name: fixed.name,
			scopes: [...fixed.scopes],
		});
	}
	const organizationIds = { primary: PRIMARY_ORG_ID, other: OTHER_ORG_ID };
	app.control = createControl(app, organizationIds);

	let origin = '';
	const server = http.createServer(createRequestListener(app, () => origin));
	server.keepAliveTimeout = 5_000;
	await new Promise<void>((resolveListen, reject) => {
		server.once('error', reject);
		server.listen(resolved.port, resolved.host, () => {
			server.off('error', reject);
			resolveListen();
		});
	});
	const { port } = server.address() as AddressInfo;
	origin = `http://${resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host}:${port}`;

	let stopping: Promise<void> | undefined;
	const stop = (): Promise<void> => {
		stopping ??= new Promise<void>((resolveStop) => {
			app.deliveries.cancelAll();
			app.timers.clear();
			server.close(() => resolveStop());
			server.closeAllConnections();
		});
		return stopping;
	};

	return {
		baseUrl: `${origin}/v1`,
		legacyBaseUrl: `${origin}/api/v1`,
		controlUrl: `${origin}/__sandbox`,
		port,
		keys: { ...keys },
		organizationIds,
		stop,
		control: app.control,
	};
}
