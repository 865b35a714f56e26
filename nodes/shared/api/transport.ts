import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { FAIL_FAST_TIMEOUT_MS, noRoomError, unansweredError } from './activation';
import { systemClock, WaitEnded } from './clock';
import { CREDENTIAL_TYPE, type BusinessOpsContext } from './context';
import { apiErrorFor, CHECK_WRITTEN, MAX_ATTEMPTS } from './errors';
import { faultError } from './toolErrors';
import {
	budgetFor,
	budgetKeyOf,
	DEFAULT_REQUESTS_PER_MINUTE,
	MAX_RETRY_AFTER_MS,
	type Lane,
	type RateBudget,
} from './rateBudget';

/** How long an editor look-up (list search, load options) may take in all: waits, retries, answer. */
const EDITOR_TIMEOUT_MS = 30_000;

/** How one call is sent: its `lane` (the editor's look-ups go first), or the trigger's `activation` (a deadline, none repeated). */
export interface CallOptions {
	lane?: Lane;
	activation?: boolean;
}

/** Network codes of a request that never reached the server: a write that failed so was not made. */
const NEVER_LEFT = new Set([
	'ECONNREFUSED',
	'EAI_AGAIN',
	'ENOTFOUND',
	'ENETUNREACH',
	'EHOSTUNREACH',
]);

const NETWORK_PROBLEMS: Record<string, string> = {
	ECONNRESET: 'the connection was closed by the server',
	EPIPE: 'the connection was closed by the server',
	ECONNREFUSED: 'the server refused the connection',
	ETIMEDOUT: 'no answer within the timeout',
	ECONNABORTED: 'no answer within the timeout',
	EAI_AGAIN: 'the host name could not be resolved',
	ENOTFOUND: 'the host name could not be resolved',
	ENETUNREACH: 'the network is unreachable',
};

/** A Retry-After in ms, always finite (`1e308` s is not Infinity ms; past MAX_RETRY_AFTER_MS it is only named). */
function retryAfterMs(headers: IDataObject): number | undefined {
	const value = headers['retry-after'];
	if (value === undefined || value === null || value === '') return undefined;
	const seconds = Number(value);
	const date = Number.isFinite(seconds) ? undefined : Date.parse(String(value));
	const ms = date === undefined ? seconds * 1000 : date - Date.now();
	return Number.isNaN(ms) ? undefined : Math.min(Math.max(0, ms), Number.MAX_SAFE_INTEGER);
}

export function retryDelayMs(retry: number, headers: IDataObject = {}): number {
	const backoff = 1000 * 2 ** (retry - 1);
	return Math.max(retryAfterMs(headers) ?? 0, backoff);
}

/** One credential read per n8n context (a list read sends all its pages from one). */
const budgetsByContext = new WeakMap<object, Promise<{ budget: RateBudget; limit: number }>>();

/**
 * The budget of the credential's API key (whatever the Base URL: the API limits the key) and its
 * Requests per Minute: absent (saved before the field existed) its default, a wrong one fails. A saved
 * `rateWindowSeconds` (an earlier hidden field) is ignored.
 */
async function budgetOf(
	ctx: BusinessOpsContext,
	target: string,
): Promise<{ budget: RateBudget; limit: number }> {
	const budget =
		budgetsByContext.get(ctx) ??
		ctx.getCredentials(CREDENTIAL_TYPE).then(({ apiKey, requestsPerMinute: value }) => {
			const n =
				value === undefined || value === null || value === ''
					? DEFAULT_REQUESTS_PER_MINUTE
					: Number(value);
			if (!Number.isFinite(n) || n < 1)
				throw faultError(ctx.getNode(), {
					problem: `Requests per Minute in the Business Ops API credential must be a number of 1 or more, not "${String(value)}"`,
					target,
					why: { kind: 'setup', setting: 'Requests per Minute must be a number of 1 or more' },
				});
			const limit = Math.floor(n);
			return { budget: budgetFor(budgetKeyOf(String(apiKey ?? '')), limit), limit };
		});
	budgetsByContext.set(ctx, budget);
	return await budget;
}

/** What went wrong, read without keeping the request (its headers carry the key); `network`: no answer came. */
function describeFailure(error: unknown) {
	const err = error as {
		cause?: { code?: string; isAxiosError?: boolean; response?: unknown };
		code?: string;
		httpCode?: string;
		message?: string;
	};
	// n8n 1.x's NodeApiError keeps a network failure's code only as its httpCode
	const code =
		err.cause?.code ??
		err.code ??
		(err.httpCode && err.httpCode in NETWORK_PROBLEMS ? err.httpCode : undefined);
	const noAnswer = err.cause?.isAxiosError && !err.cause.response && code !== 'ERR_CANCELED';
	return {
		code,
		message: String(err.message ?? error),
		network: noAnswer || (code ?? '') in NETWORK_PROBLEMS,
	};
}

/** 5xx and network failures are retried only for GET: repeating a POST, PATCH or DELETE could apply it twice. */
export async function sendRequest(
	ctx: BusinessOpsContext,
	requestOptions: IHttpRequestOptions,
	itemIndex?: number,
	call: CallOptions = {},
): Promise<IN8nHttpFullResponse> {
	const options: IHttpRequestOptions = {
		...requestOptions,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		...(call.activation ? { timeout: FAIL_FAST_TIMEOUT_MS } : {}),
	};
	const method = (options.method ?? 'GET').toUpperCase();
	const mayRepeat = ['GET', 'HEAD', 'OPTIONS'].includes(method) && !call.activation;
	const target = `${method} ${options.url}`;
	const { budget, limit } = await budgetOf(ctx, target);
	const cancel = (
		ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined }
	).getExecutionCancelSignal?.();
	const editor = call.lane === 'editor';
	const signals = [cancel, editor ? systemClock.timeout(EDITOR_TIMEOUT_MS) : undefined];
	const signal = AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
	if (editor) options.timeout = Math.min(options.timeout ?? EDITOR_TIMEOUT_MS, EDITOR_TIMEOUT_MS);
	/** A wait that ended, not sent: no room for an activation request in time, the editor's time ran out, or the execution was cancelled. */
	const notSent = (error: unknown): never => {
		if (!(error instanceof WaitEnded)) throw error;
		if (error.waitMs !== undefined) throw noRoomError(ctx.getNode(), target, error.waitMs);
		if (editor && !cancel?.aborted)
			throw new NodeOperationError(
				ctx.getNode(),
				`The look-up ${target} took more than ${EDITOR_TIMEOUT_MS / 1000} s`,
				{
					description:
						"It waited for room in the API key's rate budget or for the API's answer. Workflows using the same key may be using the budget: try again in a minute, or enter the ID directly.",
				},
			);
		throw faultError(ctx.getNode(), {
			problem: `Not sent: the execution was cancelled while ${target} waited`,
			fix: 'A cancelled execution sends nothing more and leaves the rate budget to other workflows.',
			target,
			itemIndex,
			why: { kind: 'stopped' },
		});
	};

	for (let attempt = 1; ; attempt++) {
		const attemptsLeft = attempt < MAX_ATTEMPTS && !call.activation;
		let response: IN8nHttpFullResponse;
		const maxWaitMs = call.activation ? FAIL_FAST_TIMEOUT_MS : undefined;
		const slot = await budget.take({ lane: call.lane, signal, limit, maxWaitMs }).catch(notSent);
		try {
			response = (await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				CREDENTIAL_TYPE,
				options,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			slot.answered();
			const failure = describeFailure(error);
			if (!failure.network) {
				// Not sent: the credential's own check refused it (its message is advice for the author).
				throw faultError(ctx.getNode(), {
					problem: failure.message,
					target,
					itemIndex,
					why: { kind: 'setup' },
				});
			}
			if (mayRepeat && attemptsLeft) {
				await systemClock.sleep(retryDelayMs(attempt), signal).catch(notSent);
				continue;
			}
			// Worded, not the raw code: n8n replaces any error message that contains a network code
			// such as ECONNRESET with a generic text, which would lose the method, path and item.
			const problem = `Could not complete ${target}: ${NETWORK_PROBLEMS[failure.code ?? ''] ?? 'the request failed without an answer'}`;
			const detail = `(network error: ${(failure.code ?? failure.message).toLowerCase()})`;
			if (call.activation) throw unansweredError(ctx.getNode(), problem, detail);
			const fix = mayRepeat
				? `It failed ${MAX_ATTEMPTS} times; check that the Base URL is reachable from n8n.`
				: `It was not repeated because it changes data; ${CHECK_WRITTEN}`;
			throw faultError(ctx.getNode(), {
				problem,
				fix: `${fix} ${detail}`,
				target,
				itemIndex,
				why: { kind: 'noAnswer', repeated: mayRepeat, detail },
				written: mayRepeat || NEVER_LEFT.has(failure.code ?? '') ? undefined : 'unknown',
			});
		}
		const status = response.statusCode;
		const asked = status === 429 ? retryAfterMs(response.headers) : undefined;
		// A Retry-After over the cap fails only its item: the key is neither paused nor slowed for it.
		const overCap = (asked ?? 0) > MAX_RETRY_AFTER_MS;
		if (status !== 429 || overCap) slot.answered();
		else slot.refused(asked ?? 1000);
		if (status < 400) return response;
		const retryable = status === 429 || (status >= 500 && mayRepeat);
		if (retryable && attemptsLeft && !overCap) {
			await systemClock.sleep(retryDelayMs(attempt, response.headers), signal).catch(notSent);
			continue;
		}
		throw apiErrorFor(ctx, response, target, itemIndex, call, asked);
	}
}

/** One API call outside the declarative routing (list searches, load options, the trigger's lifecycle): its body. */
export async function apiRequest<T = IDataObject>(
	ctx: BusinessOpsContext,
	method: IHttpRequestMethods,
	path: string,
	options: { qs?: IDataObject; body?: IDataObject } & CallOptions = {},
): Promise<T> {
	const { qs, body, ...call } = options;
	const response = await sendRequest(ctx, { method, url: path, qs, body }, undefined, call);
	return response.body as T;
}
