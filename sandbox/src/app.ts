/** The sandbox's state: data, keys, limits, runtime switches, logs, and event emission. */
import { KeyStore } from './auth';
import type { SandboxControl } from './controls';
import { newId } from './ids';
import { SlidingWindowRateLimiter, type RateLimitConfig } from './rateLimit';
import { buildStore, OTHER_ORG_ID, PRIMARY_ORG_ID } from './seed';
import type { SigningScheme } from './signing';
import type { BulkResource, OrgData, Store } from './store';
import { TimerSet } from './timers';
import { defaultContract, eventPayload, type DeliveryContract } from './webhooks/contract';
import { DeliveryService, type DeliveryTarget, type PreparedEvent } from './webhooks/delivery';
import type { EventType } from './webhooks/events';
import { sampleRecord } from './webhooks/samples';

export interface ResolvedOptions {
	port: number;
	host: string;
	rateLimit: RateLimitConfig;
	/** Refused (429) requests count against the window. */
	countRefused: boolean;
	signingScheme: SigningScheme;
	seed: boolean;
	deliveryRetry: { attempts: number; baseDelayMs: number };
	deliveryTimeoutMs: number;
	log: (line: string) => void;
}

/** How a fail-next rule answers: instead of the API (status, reset, hang), or after it (…-after-write). */
export type FailMode = 'status' | 'reset' | 'hang' | 'drop-after-write' | 'gateway-after-write';

/** A rule of the fail-next control. */
export interface FailRule {
	/** Matching requests still let through before this rule fails any (fail-next `skip`). */
	skip: number;
	remaining: number;
	mode: FailMode;
	status: number | null;
	code: string | null;
	message: string | null;
	retryAfter: number | null;
	ms: number;
	path: string | null;
	method: string | null;
	/** Only requests whose raw body contains this text match. */
	bodyContains: string | null;
	/** gateway-after-write: the gateway's page is HTML or `{ "message": … }`. */
	gatewayBody: 'html' | 'json';
}

/** A rule of the list-change control. */
export interface ListChangeRule {
	resource: BulkResource;
	organizationId: string;
	/** The page after whose answer the change is made (1-based). */
	afterPage: number;
	change: 'delete' | 'insert';
	/** delete: this record; null: the first record of the list in its current order. */
	id: string | null;
	/** Every matching read (a list that keeps changing) instead of once. */
	every: boolean;
	/** How many times the rule has changed the list. */
	applied: number;
}

export interface RequestLogEntry {
	/** The order in which requests were answered: 1, 2, … since the sandbox started, never reused. */
	seq: number;
	time: string;
	method: string;
	path: string;
	query: Record<string, string>;
	status: number | null;
	keyId: string | null;
	organizationId: string | null;
	durationMs: number;
	/** Set when a fail-next rule answered instead of the API, or after it: its mode. */
	injected: string | null;
}

export interface EmittedEvent {
	id: string;
	type: string;
	organizationId: string;
	timestamp: string;
	test: boolean;
	subscriptionIds: string[];
	data: unknown;
}

const LOG_LIMIT = 10_000;

function pushBounded<T>(log: T[], entry: T): void {
	log.push(entry);
	if (log.length > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
}

export class SandboxApp {
	store: Store;
	readonly keys = new KeyStore();
	readonly rateLimiter: SlidingWindowRateLimiter;
	readonly deliveries: DeliveryService;
	/** Latency and hang timers: cleared on stop. */
	readonly timers = new TimerSet();
	/** How deliveries are signed and shaped (webhooks/contract.ts); `signing.form` is the signing scheme. */
	deliveryContract: DeliveryContract;
	latencyMs = 0;
	deprecated = false;
	failRules: FailRule[] = [];
	requestLog: RequestLogEntry[] = [];
	private requestSeq = 0;
	eventLog: EmittedEvent[] = [];
	/** List-change rules (controls.ts): a record deleted or inserted after a page of a list is answered. */
	listChanges: ListChangeRule[] = [];
	/** E-mails (lower case) whose next POST /contacts meets a contact created just before (controls.ts). */
	createdMeanwhile = new Set<string>();
	/** Set by startSandbox; the HTTP controls call through it. */
	control!: SandboxControl;

	constructor(readonly options: ResolvedOptions) {
		this.store = buildStore(options.seed);
		this.rateLimiter = new SlidingWindowRateLimiter(options.rateLimit);
		this.deliveryContract = defaultContract(options.signingScheme);
		this.rateLimiter.countRefused = options.countRefused;
		this.deliveries = new DeliveryService({
			attempts: options.deliveryRetry.attempts,
			baseDelayMs: options.deliveryRetry.baseDelayMs,
			timeoutMs: options.deliveryTimeoutMs,
			contract: () => this.deliveryContract,
			stillWanted: (target, event) => this.stillWanted(target, event),
			log: options.log,
			maxLogEntries: LOG_LIMIT,
		});
	}

	/** Accepts an organization id, or the aliases "primary" and "other". */
	org(idOrAlias: string | undefined): OrgData | undefined {
		const id =
			idOrAlias === undefined || idOrAlias === 'primary'
				? PRIMARY_ORG_ID
				: idOrAlias === 'other'
					? OTHER_ORG_ID
					: idOrAlias;
		return this.store.org(id);
	}

	/** Back to the state of a fresh start; API keys (also ones made since) stay valid. */
	reset(): void {
		this.deliveries.cancelAll();
		this.deliveries.clearLog();
		this.store = buildStore(this.options.seed);
		this.rateLimiter.configure(this.options.rateLimit);
		this.rateLimiter.clear();
		this.deliveryContract = defaultContract(this.options.signingScheme);
		this.rateLimiter.countRefused = this.options.countRefused;
		this.latencyMs = 0;
		this.deprecated = false;
		this.failRules = [];
		this.requestLog = [];
		this.eventLog = [];
		this.createdMeanwhile.clear();
		this.listChanges = [];
	}

	logRequest(entry: RequestLogEntry): void {
		entry.seq = ++this.requestSeq;
		pushBounded(this.requestLog, entry);
	}

	/**
	 * Emits an event to every active subscription of the organization that lists its type.
	 * The payload `{ id, type, timestamp, data }` is serialised here, once.
	 */
	emit(org: OrgData, type: EventType, data: unknown): EmittedEvent {
		const subscriptions = org.webhooks.all().filter((w) => w.active && w.events.includes(type));
		const event = this.prepare(
			org,
			type,
			data,
			false,
			subscriptions.map((w) => w.id),
		);
		for (const subscription of subscriptions) {
			this.deliveries.enqueue(
				event.prepared,
				this.target(subscription.id, org.id, subscription.url, subscription.signingSecret),
			);
		}
		return event.emitted;
	}

	/** The test endpoint's event: `test: true`, a sample record, one awaited attempt. */
	async sendTestEvent(org: OrgData, subscriptionId: string, type: EventType) {
		const subscription = org.webhooks.get(subscriptionId)!;
		const { prepared } = this.prepare(org, type, sampleRecord(org, type), true, [subscription.id]);
		return this.deliveries.deliverOnce(
			prepared,
			this.target(subscription.id, org.id, subscription.url, subscription.signingSecret),
		);
	}

	private prepare(
		org: OrgData,
		type: EventType,
		data: unknown,
		test: boolean,
		subscriptionIds: string[],
	) {
		const id = newId('evt');
		const timestamp = new Date().toISOString();
		const body = JSON.stringify(
			eventPayload(this.deliveryContract, { id, type, timestamp, test, data }),
		);
		const prepared: PreparedEvent = { id, type, body: Buffer.from(body), test };
		// The log keeps a snapshot: the record may change after the event.
		const snapshot = data === undefined ? undefined : (JSON.parse(JSON.stringify(data)) as unknown);
		const emitted: EmittedEvent = {
			id,
			type,
			organizationId: org.id,
			timestamp,
			test,
			subscriptionIds,
			data: snapshot,
		};
		pushBounded(this.eventLog, emitted);
		return { prepared, emitted };
	}

	private target(
		subscriptionId: string,
		organizationId: string,
		url: string,
		secret: string,
	): DeliveryTarget {
		return { subscriptionId, organizationId, url, secret };
	}

	private stillWanted(target: DeliveryTarget, event: PreparedEvent): boolean {
		const subscription = this.store.org(target.organizationId)?.webhooks.get(target.subscriptionId);
		return subscription !== undefined && (event.test || subscription.active);
	}
}
