import type { IN8nHttpFullResponse, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { activationFixFor } from './activation';
import type { BusinessOpsContext } from './context';
import { MAX_RETRY_AFTER_MS } from './rateBudget';
import { worded, type Fault } from './toolErrors';
import type { CallOptions } from './transport';

/** How many times a request is sent at most (the spec's advice for 429). */
export const MAX_ATTEMPTS = 5;

export const CHECK_WRITTEN = 'check whether the change was made before repeating it.';
const NOT_RETRIED = `Try again later; create, update and delete requests are not retried automatically, so ${CHECK_WRITTEN}`;

const FIX_BY_STATUS: Record<number, string> = {
	400: 'Check the field named in the message.',
	401: 'Check the API key and the Base URL in the Business Ops API credential; a revoked or mistyped key gives this error.',
	404: 'Check the ID: the record does not exist, was deleted, or belongs to another organization. If every call gives 404, check that the Base URL ends with its version segment (…/v1 or …/api/v1).',
	405: 'The API does not take this method at this address. Check that the Base URL ends with its version segment (…/v1 or …/api/v1) and points at the Business Operations API.',
	406: 'The API cannot answer in JSON at this address. Check that the Base URL points at the Business Operations API.',
	408: `The API gave up waiting for the request. A read can be repeated as it is; for a create, update or delete, ${CHECK_WRITTEN}`,
	409: 'A record with the same unique value already exists; update that record instead of creating a new one.',
	410: 'The record or this API version is gone. Check the ID, and the version segment of the Base URL.',
	413: 'The request is too large for the API. Send fewer line items or shorter texts per item.',
	414: 'The address is too long for the API. Use shorter IDs or filter values.',
	415: 'The API did not accept the body as JSON. Check that the Base URL points at the Business Operations API.',
	422: "The record's current status does not allow this change.",
	429: `The API kept answering "rate limited" after ${MAX_ATTEMPTS} attempts, although requests were paced to the credential's Requests per Minute. Something else uses this API key too (another tool or n8n instance): lower Requests per Minute in the credential, or run the workflow later.`,
	500: `The API had an internal error. ${NOT_RETRIED}`,
	501: 'The API does not offer this operation at this address. Check the Base URL and the API version.',
	502: `A gateway in front of the API got no good answer from it. ${NOT_RETRIED}`,
	503: `The API is unavailable for now. ${NOT_RETRIED}`,
	504: `A gateway in front of the API got no answer in time. ${NOT_RETRIED}`,
};

/** Paths with no ID (`/contacts`, `/me`, `/webhooks/events`): a 404 there means the Base URL lacks its version segment. */
const NO_ID_PATHS =
	/^(GET|POST|PATCH|DELETE|PUT|HEAD|OPTIONS) \/(?:[^/?]+|webhooks\/events)\/?(?:\?.*)?$/;

/** A Retry-After past MAX_RETRY_AFTER_MS: the item (or the poll) was given up at once. */
const tooLongWait = (waitMs: number, { lane }: CallOptions) =>
	`The API asked to wait ${Math.ceil(waitMs / 1000)} s before the next request (Retry-After); the node waits at most ${MAX_RETRY_AFTER_MS / 1000} s, so it gave up on ${lane === 'poll' ? 'this poll' : 'this item'} instead of holding up every workflow that uses this credential. ${lane === 'poll' ? 'The next poll tries again' : 'Run it again later'}, or check the key's usage in the dashboard.`;

function fixForStatus(status: number, target: string, scope: string | undefined): string {
	if (status === 404 && NO_ID_PATHS.test(target)) {
		return 'Nothing answers at this address, so the Base URL in the credential is most likely incomplete: it must end with the version segment, e.g. https://api.example.com/v1 (or the legacy …/api/v1).';
	}
	if (status === 403) {
		return scope
			? `The API key lacks the scope "${scope}". Create a key with that scope (or "${scope.split('.')[0]}.*") in the dashboard and update the credential.`
			: 'The API key lacks a scope this operation needs; see the scopes table in the README.';
	}
	const own = FIX_BY_STATUS[status];
	if (own) return own;
	if (status >= 500) {
		return `The API answered with server error ${status}. ${NOT_RETRIED}`;
	}
	return `The API refused the request with HTTP ${status}. Check the message above, the operation's fields and the credential's Base URL.`;
}

/** A text from outside (an API answer) with anything that looks like a key, a signing secret or an Authorization value taken out. */
const redactSecrets = (text: string) =>
	text.replace(
		/svc_[A-Za-z0-9_-]{32}|whsec_[A-Za-z0-9+/]{16,}={0,2}|Bearer\s+[^\s"',;)]+/g,
		'[redacted]',
	);

/** The API's `error` object, each field as text without secrets, whatever type the API sent (a list, a number). */
function readApiError(body: unknown): Partial<Record<'code' | 'message' | 'scope', string>> {
	const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
	if (!error || typeof error !== 'object') return {};
	const text = (value: unknown) =>
		value === undefined || value === null || value === ''
			? undefined
			: redactSecrets(typeof value === 'string' ? value : JSON.stringify(value));
	return { code: text(error.code), message: text(error.message), scope: text(error.scope) };
}

export function isApiNotFound(error: unknown): boolean {
	const { httpCode, errorResponse } = error as {
		httpCode?: string;
		errorResponse?: { code?: unknown };
	};
	// spec 7: the API's 404 is `not_found`; a gateway's JSON 404 (`"code": 404`) is not the API's
	return httpCode === '404' && errorResponse?.code === 'not_found';
}

export function isConflict(error: unknown): boolean {
	return (error as { httpCode?: string }).httpCode === '409';
}

export function apiErrorFor(
	ctx: BusinessOpsContext,
	response: IN8nHttpFullResponse,
	/** The method and path, e.g. `GET /contacts`. */
	target: string,
	itemIndex?: number,
	call: CallOptions = {},
	/** A 429's Retry-After: at activation it says when to publish again; past MAX_RETRY_AFTER_MS the item was given up. */
	askedWaitMs?: number,
): NodeApiError {
	const status = response.statusCode;
	const apiError = readApiError(response.body);
	const code = apiError.code ?? `http_${status}`;
	const apiMessage =
		apiError.message ?? redactSecrets(response.statusMessage || 'The API answered with an error');
	// an `insufficient_scope` error names its scope in its field or its message
	const scope =
		status === 403
			? (apiError.scope ?? apiError.message?.match(/\b([a-z]+\.(?:read|write|trigger|\*))\b/)?.[1])
			: undefined;
	// n8n records an execution whose error message holds "canceled" as cancelled (no error workflow runs),
	// and an API message can hold it as a status value: the message spells it "cancelled"
	const shownMessage = apiMessage.replace(/canceled/g, 'cancelled');
	const problem = `${shownMessage} (HTTP ${status} ${code}, ${target})`;
	const details = { code, message: apiMessage, status, ...(scope ? { scope } : {}) } as JsonObject;
	if (call.activation) {
		const fix = activationFixFor(status, NO_ID_PATHS.test(target), scope, askedWaitMs);
		return new NodeApiError(ctx.getNode(), details, {
			message: `${problem}. ${fix}`,
			description: fix,
			httpCode: String(status),
		});
	}
	const said =
		status === 422
			? `${apiMessage}. `
			: shownMessage !== apiMessage
				? `The API said: ${apiMessage}. `
				: '';
	const [why, fix]: [Fault['why'], string] =
		askedWaitMs !== undefined && askedWaitMs > MAX_RETRY_AFTER_MS
			? [{ kind: 'wait', waitMs: askedWaitMs }, tooLongWait(askedWaitMs, call)]
			: [{ kind: 'status', status, scope, said }, said + fixForStatus(status, target, scope)];
	// spec 7: the API's 5xx is `internal_error`; any other 5xx (a gateway's page, HTML or JSON) may
	// come after the API made the write
	const written =
		status >= 500 && apiError.code !== 'internal_error' && !target.startsWith('GET ')
			? 'unknown'
			: undefined;
	const error = new NodeApiError(ctx.getNode(), details, {
		...worded(ctx.getNode(), { problem, fix, target, itemIndex, why, written }),
		httpCode: String(status),
	});
	return Object.assign(error, { written });
}
