import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { gateFor, timing } from './rateLimitGate';

export const CREDENTIAL_TYPE = 'businessOpsApi';
export const MAX_ATTEMPTS = 5;
export const MAX_PAGE_SIZE = 100;

export type BusinessOpsContext =
	| IExecuteSingleFunctions
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

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

const FIX_BY_STATUS: Record<number, string> = {
	400: 'Check the field named in the message and run the node again.',
	401: 'Check the API key and the Base URL in the Business Ops API credential; a revoked or mistyped key gives this error.',
	404: 'Check the ID: the record does not exist, was deleted, or belongs to another organization.',
	409: 'A record with the same unique value already exists; update that record instead of creating a new one.',
	422: "The record's current status does not allow this change.",
	429: `The API kept answering "rate limited" after ${MAX_ATTEMPTS} attempts. Spread the requests out (Request Options > Batching) or run the workflow later.`,
	500: 'The API had an internal error. Try again later; create, update and delete requests are not retried automatically, so check whether the change was made before repeating it.',
};

interface ApiErrorBody {
	code?: string;
	message?: string;
	scope?: string;
}

function readApiError(body: unknown): ApiErrorBody {
	const error = (body as { error?: unknown } | undefined)?.error;
	return error && typeof error === 'object' ? (error as ApiErrorBody) : {};
}

/** The scope an `insufficient_scope` error is about, from its field or its message. */
export function missingScopeOf(error: ApiErrorBody): string | undefined {
	if (error.scope) return error.scope;
	return error.message?.match(/\b([a-z]+\.(?:read|write|trigger|\*))\b/)?.[1];
}

/** API keys, signing secrets and Authorization values an API message may repeat. */
const SECRET_LIKE = /svc_[A-Za-z0-9_-]{32}|whsec_[A-Za-z0-9+/]{16,}={0,2}|Bearer\s+[^\s"',;)]+/g;

/** A text from outside (an API answer) with anything that looks like a key or a secret taken out. */
export function redactSecrets(text: string): string {
	return text.replace(SECRET_LIKE, '[redacted]');
}

function itemSuffix(itemIndex: number | undefined) {
	return itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
}

/** Turns an API error answer into an n8n error with the API's code, message and HTTP status. */
export function apiErrorFor(
	ctx: BusinessOpsContext,
	response: IN8nHttpFullResponse,
	method: string,
	itemIndex?: number,
): NodeApiError {
	const status = response.statusCode;
	const apiError = readApiError(response.body);
	const code = apiError.code ?? `http_${status}`;
	const apiMessage = redactSecrets(apiError.message ?? response.statusMessage ?? 'The API answered with an error');
	let description = FIX_BY_STATUS[status] ?? FIX_BY_STATUS[500];
	const scope = status === 403 ? missingScopeOf(apiError) : undefined;
	if (status === 403) {
		description = scope
			? `The API key lacks the scope "${scope}". Create a key with that scope (or "${scope.split('.')[0]}.*") in the dashboard and update the credential.`
			: 'The API key lacks a scope this operation needs; see the scopes table in the README.';
	}
	if (status === 422) {
		description = `${apiMessage}. ${description}`;
	}
	const error = new NodeApiError(
		ctx.getNode(),
		{ code, message: apiMessage, status, ...(scope ? { scope } : {}) } as JsonObject,
		{
			message: `${apiMessage} (HTTP ${status} ${code}, ${method})${itemSuffix(itemIndex)}`,
			description,
			httpCode: String(status),
			itemIndex,
		},
	);
	return error;
}

function retryAfterMs(headers: IDataObject): number | undefined {
	const value = headers['retry-after'];
	if (value === undefined || value === null || value === '') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Wait before retry number `retry` (1-based): the server's Retry-After, at least 1 s doubling. */
export function retryDelayMs(retry: number, headers: IDataObject = {}): number {
	const backoff = 1000 * 2 ** (retry - 1);
	return Math.max(retryAfterMs(headers) ?? 0, backoff);
}

/** Requests made with one credential share one rate limit. */
function gateKeyOf(ctx: BusinessOpsContext, options: IHttpRequestOptions): string {
	return ctx.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? String(options.baseURL);
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
		message?: string;
	};
	const code = err.cause?.code ?? err.code;
	const noAnswer = Boolean(err.cause?.isAxiosError && !err.cause.response && code !== 'ERR_CANCELED');
	const isNetwork = noAnswer || Boolean(code && code in NETWORK_PROBLEMS);
	return { code, message: String(err.message ?? error), isNetwork };
}

function warnIfDeprecated(ctx: BusinessOpsContext, response: IN8nHttpFullResponse) {
	const deprecation = response.headers.deprecation;
	if (deprecation === undefined) return;
	const sunset = response.headers.sunset ? ` It stops working after ${String(response.headers.sunset)}.` : '';
	ctx.logger.warn(
		`Business Ops: this API version is deprecated (Deprecation: ${String(deprecation)}).${sunset} Move the credential's Base URL to the newer version when it is available.`,
	);
}

/**
 * Sends one API request with the package's retry rules: 429 is retried after Retry-After
 * (1 s when absent) with exponential backoff, up to MAX_ATTEMPTS attempts; 5xx and network
 * failures are retried only for GET, since repeating a POST, PATCH or DELETE could apply it twice.
 */
export async function sendRequest(
	ctx: BusinessOpsContext,
	requestOptions: IHttpRequestOptions,
	itemIndex?: number,
): Promise<IN8nHttpFullResponse> {
	const options: IHttpRequestOptions = {
		...requestOptions,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	const method = (options.method ?? 'GET').toUpperCase();
	const mayRepeat = IDEMPOTENT_METHODS.has(method);
	const target = `${method} ${options.url}`;
	const gate = gateFor(gateKeyOf(ctx, options));

	for (let attempt = 1; ; attempt++) {
		const attemptsLeft = attempt < MAX_ATTEMPTS;
		let response: IN8nHttpFullResponse;
		try {
			response = await gate.run(async () => {
				const answer = (await ctx.helpers.httpRequestWithAuthentication.call(
					ctx,
					CREDENTIAL_TYPE,
					options,
				)) as IN8nHttpFullResponse;
				// Within the turn, so that the request queued behind this one already waits.
				if (answer.statusCode === 429) gate.rateLimited(retryAfterMs(answer.headers) ?? 1000);
				return answer;
			});
		} catch (error) {
			const failure = describeFailure(error);
			if (!failure.isNetwork) {
				throw new NodeOperationError(ctx.getNode(), `${failure.message}${itemSuffix(itemIndex)}`, {
					itemIndex,
				});
			}
			if (mayRepeat && attemptsLeft) {
				await timing.sleep(retryDelayMs(attempt));
				continue;
			}
			// Worded, not the raw code: n8n replaces any error message that contains a network code
			// such as ECONNRESET with a generic text, which would lose the method, path and item.
			const problem = NETWORK_PROBLEMS[failure.code ?? ''] ?? 'the request failed without an answer';
			const advice = mayRepeat
				? `It failed ${MAX_ATTEMPTS} times; check that the Base URL is reachable from n8n.`
				: 'It was not repeated because it changes data; check whether the change was made before running it again.';
			throw new NodeOperationError(ctx.getNode(), `Could not complete ${target}: ${problem}${itemSuffix(itemIndex)}`, {
				description: `${advice} (network error: ${(failure.code ?? failure.message).toLowerCase()})`,
				itemIndex,
			});
		}

		const status = response.statusCode;
		if (status < 400) {
			warnIfDeprecated(ctx, response);
			return response;
		}
		const retryable = status === 429 || (status >= 500 && mayRepeat);
		if (retryable && attemptsLeft) {
			await timing.sleep(retryDelayMs(attempt, response.headers));
			continue;
		}
		throw apiErrorFor(ctx, response, target, itemIndex);
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
	options: { qs?: IDataObject; body?: IDataObject } = {},
): Promise<T> {
	const response = await sendRequest(ctx, { method, url: path, qs: options.qs, body: options.body });
	return response.body as T;
}
