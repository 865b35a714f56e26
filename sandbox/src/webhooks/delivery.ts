import http from 'node:http';
import https from 'node:https';

import { signDelivery, type SigningForm } from '../signing';
import type { DeliveryContract } from './contract';
import { TimerSet } from '../timers';

export interface DeliveryTarget {
	subscriptionId: string;
	organizationId: string;
	url: string;
	secret: string;
}

/** An event whose body is serialised once: every attempt and every subscriber gets these bytes. */
export interface PreparedEvent {
	id: string;
	type: string;
	body: Buffer;
	test: boolean;
}

export interface DeliveryAttempt {
	eventId: string;
	eventType: string;
	subscriptionId: string;
	organizationId: string;
	url: string;
	attempt: number;
	statusCode: number | null;
	error: string | null;
	success: boolean;
	durationMs: number;
	startedAt: string;
	scheme: SigningForm;
	test: boolean;
}

export interface DeliveryOptions {
	attempts: number;
	baseDelayMs: number;
	timeoutMs: number;
	contract: () => DeliveryContract;
	/** Checked before each attempt: false once the subscription is deleted or (for real events) paused. */
	stillWanted: (target: DeliveryTarget, event: PreparedEvent) => boolean;
	log?: (line: string) => void;
	maxLogEntries: number;
}

export const USER_AGENT = 'BusinessOps-Webhooks/1.0';

/**
 * Sends events as signed POSTs. First attempts to one subscription go out in emission order;
 * a failed attempt (non-2xx or network error) is retried after baseDelayMs, then doubling, up to
 * `attempts` attempts in all, always with the same event id and body.
 */
export class DeliveryService {
	private readonly timers = new TimerSet();
	private readonly inFlight = new Set<http.ClientRequest>();
	private readonly queues = new Map<string, Promise<void>>();
	private attemptsLog: DeliveryAttempt[] = [];
	private pendingJobs = 0;
	private idleWaiters: Array<() => void> = [];
	private generation = 0;

	constructor(private readonly options: DeliveryOptions) {}

	get log(): DeliveryAttempt[] {
		return this.attemptsLog.slice();
	}

	clearLog(): void {
		this.attemptsLog = [];
	}

	/** Queues delivery with retries; returns at once. */
	enqueue(event: PreparedEvent, target: DeliveryTarget): void {
		const generation = this.generation;
		this.track(1);
		const previous = this.queues.get(target.subscriptionId) ?? Promise.resolve();
		const job = previous
			.then(async () => {
				if (generation !== this.generation || !this.options.stillWanted(target, event)) return;
				const attempt = await this.attempt(event, target, 1, generation);
				if (attempt && !attempt.success) this.scheduleRetry(event, target, 2, generation);
			})
			.catch(() => undefined)
			.finally(() => this.track(-1));
		this.queues.set(target.subscriptionId, job);
		void job.then(() => {
			if (this.queues.get(target.subscriptionId) === job) this.queues.delete(target.subscriptionId);
		});
	}

	/** One attempt, awaited, no retries (the test endpoint). */
	async deliverOnce(event: PreparedEvent, target: DeliveryTarget): Promise<DeliveryAttempt> {
		this.track(1);
		try {
			const attempt = await this.attempt(event, target, 1, this.generation);
			return attempt ?? this.record(event, target, 1, Date.now(), null, 'canceled');
		} finally {
			this.track(-1);
		}
	}

	/** Resolves when no delivery is queued, in flight or waiting for a retry. */
	idle(): Promise<void> {
		if (this.pendingJobs === 0) return Promise.resolve();
		return new Promise((resolve) => this.idleWaiters.push(resolve));
	}

	/** Drops queued and pending retries and aborts in-flight requests (reset and stop). */
	cancelAll(): void {
		this.generation++;
		this.timers.clear();
		for (const request of this.inFlight) request.destroy(new Error('canceled'));
		this.inFlight.clear();
		this.queues.clear();
	}

	private track(delta: number): void {
		this.pendingJobs += delta;
		if (this.pendingJobs === 0) {
			const waiters = this.idleWaiters;
			this.idleWaiters = [];
			for (const resolve of waiters) resolve();
		}
	}

	private scheduleRetry(
		event: PreparedEvent,
		target: DeliveryTarget,
		attempt: number,
		generation: number,
	): void {
		if (attempt > this.options.attempts) return;
		this.track(1);
		const delay = this.options.baseDelayMs * 2 ** (attempt - 2);
		this.timers.schedule(
			delay,
			() => {
				void (async () => {
					try {
						if (generation !== this.generation || !this.options.stillWanted(target, event)) return;
						const result = await this.attempt(event, target, attempt, generation);
						if (result && !result.success)
							this.scheduleRetry(event, target, attempt + 1, generation);
					} finally {
						this.track(-1);
					}
				})();
			},
			() => this.track(-1),
		);
	}

	/** Returns undefined when the attempt was canceled by reset/stop (nothing is recorded then). */
	private async attempt(
		event: PreparedEvent,
		target: DeliveryTarget,
		attempt: number,
		generation: number,
	): Promise<DeliveryAttempt | undefined> {
		const started = Date.now();
		const timestampSec = Math.floor(started / 1000);
		const contract = this.options.contract();
		const headers: Record<string, string> = {
			'Content-Type': 'application/json',
			'User-Agent': USER_AGENT,
			...(contract.typeHeader ? { [contract.typeHeader]: event.type } : {}),
			'X-Business-Ops-Delivery': event.id,
			'X-Business-Ops-Attempt': String(attempt),
			...signDelivery(contract.signing, target.secret, event.id, timestampSec, event.body),
		};
		let statusCode: number | null = null;
		let error: string | null = null;
		try {
			statusCode = await this.post(target.url, headers, event.body);
		} catch (err) {
			error = err instanceof Error ? err.message : String(err);
		}
		if (generation !== this.generation) return undefined;
		const record = this.record(event, target, attempt, started, statusCode, error);
		this.options.log?.(
			`webhook ${event.type} ${event.id} -> ${target.url} attempt ${attempt}: ${statusCode ?? error} (${record.durationMs} ms)`,
		);
		return record;
	}

	private record(
		event: PreparedEvent,
		target: DeliveryTarget,
		attempt: number,
		started: number,
		statusCode: number | null,
		error: string | null,
	): DeliveryAttempt {
		const entry: DeliveryAttempt = {
			eventId: event.id,
			eventType: event.type,
			subscriptionId: target.subscriptionId,
			organizationId: target.organizationId,
			url: target.url,
			attempt,
			statusCode,
			error,
			success: statusCode !== null && statusCode >= 200 && statusCode < 300,
			durationMs: Date.now() - started,
			startedAt: new Date(started).toISOString(),
			scheme: this.options.contract().signing.form,
			test: event.test,
		};
		this.attemptsLog.push(entry);
		if (this.attemptsLog.length > this.options.maxLogEntries) {
			this.attemptsLog.splice(0, this.attemptsLog.length - this.options.maxLogEntries);
		}
		return entry;
	}

	/** Resolves with the status code once the response has been read; redirects are not followed. */
	private post(url: string, headers: Record<string, string>, body: Buffer): Promise<number> {
		return new Promise((resolve, reject) => {
			const target = new URL(url);
			const transport = target.protocol === 'https:' ? https : http;
			const request = transport.request(target, {
				method: 'POST',
				headers: { ...headers, 'Content-Length': String(body.length) },
				agent: false,
			});
			this.inFlight.add(request);
			const timer = setTimeout(
				() => request.destroy(new Error(`timed out after ${this.options.timeoutMs} ms`)),
				this.options.timeoutMs,
			);
			timer.unref();
			const done = (): void => {
				clearTimeout(timer);
				this.inFlight.delete(request);
			};
			request.on('response', (response) => {
				response.resume();
				response.on('end', () => {
					done();
					resolve(response.statusCode ?? 0);
				});
				response.on('error', (err) => {
					done();
					reject(err);
				});
				response.on('close', () => {
					done();
					reject(new Error('connection closed before the response ended'));
				});
			});
			request.on('error', (err) => {
				done();
				reject(err);
			});
			request.end(body);
		});
	}
}
