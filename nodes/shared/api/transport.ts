import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CancelledWait, systemClock } from './clock';
import { CREDENTIAL_TYPE, type BusinessOpsContext } from './context';
import { apiErrorFor, itemSuffix, MAX_ATTEMPTS, PUBLISH_AGAIN, publishAgainAfter } from './errors';
import { runsAsTool, TOOL_TELL_USER, toolError, TOOL_TRY_LATER } from './toolErrors';
import { budgetOf } from './budgets';
import { MAX_RETRY_AFTER_MS, TooLongWait, type Lane } from './rateBudget';

/** How long an editor look-up (list search, load options) may take in all: waits, retries, answer. */
export const EDITOR_TIMEOUT_MS = 30_000;

export const FAIL_FAST_TIMEOUT_MS = 10_000;

/** How one call is sent, beside the request itself. */
export interface CallOptions {
	/** `editor` for the editor's look-ups: ahead of production requests, and EDITOR_TIMEOUT_MS at most. */
	lane?: Lane;
	/**
	 * For the trigger's activation and deactivation, which n8n gives a deadline: each request waits
	 * at most FAIL_FAST_TIMEOUT_MS for its answer and is not repeated, so a failure reaches the
	 * workflow as an activation error instead of running past the deadline unseen. n8n shows only
	 * the message of an activation error, so the message itself says what to do.
	 */
	activation?: boolean;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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

/**
 * A Retry-After in ms: always a finite figure (`1e308` s is not Infinity ms). Past MAX_RETRY_AFTER_MS
 * it is only named in messages, so it is bounded where its ms are no longer exact.
 */
function retryAfterMs(headers: IDataObject): number | undefined {
	const value = headers['retry-after'];
	if (value === undefined || value === null || value === '') return undefined;
	const seconds = Number(value);
	const date = Number.isFinite(seconds) ? undefined : Date.parse(String(value));
	const ms = date === undefined ? seconds * 1000 : date - Date.now();
	return Number.isNaN(ms) ? undefined : Math.min(Math.max(0, ms), Number.MAX_SAFE_INTEGER);
}

/** Wait before retry number `retry` (1-based): the server's Retry-After, at least 1 s doubling. */
export function retryDelayMs(retry: number, headers: IDataObject = {}): number {
	const backoff = 1000 * 2 ** (retry - 1);
	return Math.max(retryAfterMs(headers) ?? 0, backoff);
}

/** The execution's cancel signal, where the context has one (node runs; not the editor's look-ups). */
function cancelSignalOf(ctx: BusinessOpsContext): AbortSignal | undefined {
	const withSignal = ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined };
	return typeof withSignal.getExecutionCancelSignal === 'function' ? withSignal.getExecutionCancelSignal() : undefined;
}

/** The signal a call's waits end on: the execution's cancellation and, for the editor, the timeout. */
function waitSignalOf(ctx: BusinessOpsContext, call: CallOptions): AbortSignal | undefined {
	const signals = [cancelSignalOf(ctx), call.lane === 'editor' ? systemClock.timeout(EDITOR_TIMEOUT_MS) : undefined];
	const present = signals.filter((s): s is AbortSignal => s !== undefined);
	if (present.length < 2) return present[0];
	const controller = new AbortController();
	for (const s of present) {
		if (s.aborted) controller.abort();
		else s.addEventListener('abort', () => controller.abort(), { once: true });
	}
	return controller.signal;
}

function stoppedWaiting(ctx: BusinessOpsContext, call: CallOptions, target: string, itemIndex?: number): NodeOperationError {
	if (call.lane === 'editor' && !cancelSignalOf(ctx)?.aborted) {
		return new NodeOperationError(ctx.getNode(), `The look-up ${target} took more than ${EDITOR_TIMEOUT_MS / 1000} s`, {
			description:
				"It waited for room in the API key's rate budget or for the API's answer. Workflows using the same key may be using the budget: try again in a minute, or enter the ID directly.",
		});
	}
	if (runsAsTool(ctx.getNode())) {
		return toolError(
			ctx.getNode(),
			`Not sent: the run was stopped while ${target} waited`,
			'The run was stopped by the user or the service: do not call the tool again unless the user asks.',
		);
	}
	return new NodeOperationError(ctx.getNode(), `Not sent: the execution was cancelled while ${target} waited${itemSuffix(itemIndex)}`, {
		description: 'A cancelled execution sends nothing more and leaves the rate budget to other workflows.',
		itemIndex,
	});
}

interface NetworkFailure {
	code?: string;
	message: string;
	isNetwork: boolean;
}

/** Reads what went wrong without keeping the request (its headers carry the key). */
function describeFailure(error: unknown): NetworkFailure {
	const err = error as {
		cause?: { code?: string; isAxiosError?: boolean; response?: unknown };
		code?: string;
		httpCode?: string;
		message?: string;
	};
	// n8n 1.x's NodeApiError keeps a network failure's code only as its httpCode
	const code = err.cause?.code ?? err.code ?? (err.httpCode && err.httpCode in NETWORK_PROBLEMS ? err.httpCode : undefined);
	const noAnswer = Boolean(err.cause?.isAxiosError && !err.cause.response && code !== 'ERR_CANCELED');
	const isNetwork = noAnswer || Boolean(code && code in NETWORK_PROBLEMS);
	return { code, message: String(err.message ?? error), isNetwork };
}

/** What a `Deprecation` (and `Sunset`) header of an answer tells the user, or undefined. */
export function deprecationNoticeOf(response: IN8nHttpFullResponse): string | undefined {
	const deprecation = response.headers?.deprecation;
	if (deprecation === undefined) return undefined;
	const sunset = response.headers.sunset ? ` It stops working after ${String(response.headers.sunset)}.` : '';
	return `This version of the Business Ops API is deprecated (Deprecation: ${String(deprecation)}).${sunset} Move the credential's Base URL to the newer version when it is available.`;
}

function tooLongWait(ctx: BusinessOpsContext, response: IN8nHttpFullResponse, target: string, askedMs: number, lane: Lane | undefined, itemIndex?: number) {
	const error = apiErrorFor(ctx, response, target, itemIndex);
	const seconds = Math.ceil(askedMs / 1000);
	if (runsAsTool(ctx.getNode())) {
		return toolError(
			ctx.getNode(),
			`The service asked to wait ${seconds} s before the next request (HTTP 429, ${target})`,
			`Tell the user to try again in ${Math.ceil(seconds / 60)} minutes instead of repeating the call now.`,
		);
	}
	const [what, then] = lane === 'poll' ? ['this poll', 'The next poll tries again'] : ['this item', 'Run it again later'];
	error.description = `The API asked to wait ${seconds} s before the next request (Retry-After); the node waits at most ${MAX_RETRY_AFTER_MS / 1000} s, so it gave up on ${what} instead of holding up every workflow that uses this credential. ${then}, or check the key's usage in the dashboard.`;
	return error;
}

/** An activation request not sent: the key's rate budget had no room for it within FAIL_FAST_TIMEOUT_MS. */
function budgetTooBusy(ctx: BusinessOpsContext, target: string, waitMs: number): NodeOperationError {
	// Infinity: room comes only with the answers to requests already sent, whenever they come.
	const known = Number.isFinite(waitMs) && waitMs > FAIL_FAST_TIMEOUT_MS;
	const wait = known ? `${Math.ceil(waitMs / 1000)} s` : `more than ${FAIL_FAST_TIMEOUT_MS / 1000} s`;
	return new NodeOperationError(
		ctx.getNode(),
		`Not sent: ${target} would have waited ${wait} for room in this API key's rate limit (other workflows with this key, or a 429 the API answered them, use it up): ${publishAgainAfter(known ? waitMs : 0)}.`,
		{ description: `While the workflow is published each request waits at most ${FAIL_FAST_TIMEOUT_MS / 1000} s for its turn, so that publishing ends within n8n's deadline.` },
	);
}

/** What to do about a request that got no answer: for the workflow's author, or for a model. */
function networkAdvice(forTool: boolean, repeated: boolean): string {
	if (forTool) {
		return repeated
			? TOOL_TRY_LATER
			: 'The service did not answer, so the change may or may not have been made: read the record before calling again, or tell the user.';
	}
	return repeated
		? `It failed ${MAX_ATTEMPTS} times; check that the Base URL is reachable from n8n.`
		: 'It was not repeated because it changes data; check whether the change was made before running it again.';
}

/**
 * Sends one API request with the package's pacing and retry rules. Each request first waits for
 * room in the API key's rate budget (see rateBudget.ts). 429 is retried after Retry-After (1 s when
 * absent, at most MAX_RETRY_AFTER_MS) with exponential backoff, up to MAX_ATTEMPTS attempts; 5xx and
 * network failures are retried only for GET, since repeating a POST, PATCH or DELETE could apply it twice.
 */
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
	const mayRepeat = IDEMPOTENT_METHODS.has(method) && !call.activation;
	const forTool = runsAsTool(ctx.getNode());
	// A model makes one call at a time: its errors name no item.
	if (forTool) itemIndex = undefined;
	const target = `${method} ${options.url}`;
	const { budget, limit } = await budgetOf(ctx);
	const signal = waitSignalOf(ctx, call);
	if (call.lane === 'editor') options.timeout = Math.min(options.timeout ?? EDITOR_TIMEOUT_MS, EDITOR_TIMEOUT_MS);
	const pause = async (ms: number) =>
		await systemClock.sleep(ms, signal).catch((error: unknown) => {
			throw error instanceof CancelledWait ? stoppedWaiting(ctx, call, target, itemIndex) : error;
		});

	for (let attempt = 1; ; attempt++) {
		const attemptsLeft = attempt < MAX_ATTEMPTS && !call.activation;
		let response: IN8nHttpFullResponse;
		const maxWaitMs = call.activation ? FAIL_FAST_TIMEOUT_MS : undefined;
		const slot = await budget.take({ lane: call.lane, signal, limit, maxWaitMs }).catch((error: unknown) => {
			if (error instanceof TooLongWait) throw budgetTooBusy(ctx, target, error.waitMs);
			throw error instanceof CancelledWait ? stoppedWaiting(ctx, call, target, itemIndex) : error;
		});
		try {
			response = (await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				CREDENTIAL_TYPE,
				options,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			slot.answered(false);
			const failure = describeFailure(error);
			if (!failure.isNetwork) {
				// Not sent: the credential's own check refused it (its message is advice for the author).
				if (forTool) {
					throw toolError(ctx.getNode(), `Could not send ${target}: this tool's connection is set up wrongly`, TOOL_TELL_USER);
				}
				throw new NodeOperationError(ctx.getNode(), `${failure.message}${itemSuffix(itemIndex)}`, { itemIndex });
			}
			if (mayRepeat && attemptsLeft) {
				await pause(retryDelayMs(attempt));
				continue;
			}
			// Worded, not the raw code: n8n replaces any error message that contains a network code
			// such as ECONNRESET with a generic text, which would lose the method, path and item.
			const problem = NETWORK_PROBLEMS[failure.code ?? ''] ?? 'the request failed without an answer';
			const networkError = `(network error: ${(failure.code ?? failure.message).toLowerCase()})`;
			if (call.activation) {
				throw new NodeOperationError(
					ctx.getNode(),
					`Could not complete ${target}: ${problem}. Check that n8n reaches the Base URL in the Business Ops API credential, ${PUBLISH_AGAIN}.`,
					{ description: `Each request waits at most ${FAIL_FAST_TIMEOUT_MS / 1000} s while the workflow is published ${networkError}` },
				);
			}
			if (forTool) {
				// the network code stays out of the message: n8n replaces a message that holds one
				const advice = networkAdvice(forTool, mayRepeat);
				const error = toolError(ctx.getNode(), `Could not complete ${target}: ${problem}`, advice);
				error.description = `${advice} ${networkError}`;
				throw error;
			}
			throw new NodeOperationError(ctx.getNode(), `Could not complete ${target}: ${problem}${itemSuffix(itemIndex)}`, {
				description: `${networkAdvice(forTool, mayRepeat)} ${networkError}`,
				itemIndex,
			});
		}
		const status = response.statusCode;
		const asked = status === 429 ? retryAfterMs(response.headers) : undefined;
		if (status !== 429) slot.answered(true);
		else if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) slot.answered(false);
		else slot.refused(asked ?? 1000);
		if (status < 400) {
			return response;
		}
		if (asked !== undefined && asked > MAX_RETRY_AFTER_MS && !call.activation) {
			throw tooLongWait(ctx, response, target, asked, call.lane, itemIndex);
		}
		const retryable = status === 429 || (status >= 500 && mayRepeat);
		if (retryable && attemptsLeft) {
			await pause(retryDelayMs(attempt, response.headers));
			continue;
		}
		throw apiErrorFor(ctx, response, target, itemIndex, call.activation, asked);
	}
}

/**
 * One API call for code outside the declarative routing (list searches, load options,
 * the trigger's lifecycle). Returns the response body. The credential's `authenticate` adds
 * the base URL and the key.
 */
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
