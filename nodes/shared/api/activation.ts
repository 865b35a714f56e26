/**
 * The trigger's activation: its deadlines, and its errors. n8n shows only the message to the person
 * publishing, so it says what to do; publishing again is the one way to retry.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Unreadable } from './pages';

/** How long one activation request may wait for its turn, and then for its answer; none is repeated. */
export const FAIL_FAST_TIMEOUT_MS = 10_000;

/** How long the activation reads one list, so that it ends well within n8n's deadline (84 s in n8n 2.41). */
export const ACTIVATION_LIST_MS = 30_000;

export const REPUBLISH = 'unpublish and publish the workflow';
const thenPublishAgain = (fix: string) => `${fix}, then publish the workflow again.`;

export const activationError = (node: INode, problem: string, fix: string, description?: string) =>
	new NodeOperationError(node, `${problem}. ${thenPublishAgain(fix)}`, { description });

/** When to publish again after the API key's rate limit asked to wait `waitMs` (a minute at least). */
function publishAgainAfter(waitMs = 0): string {
	const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
	return `publish the workflow again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}`;
}

/** What to change about an API error, by HTTP status (422 reads as 400). */
const FIX_BY_STATUS: Record<number, string> = {
	400: "Change what the API's message names (the chosen events, or n8n's webhook URL: N8N_WEBHOOK_URL or WEBHOOK_URL)",
	401: 'Check the API key and the Base URL in the Business Ops API credential',
	409: 'Delete the conflicting subscription in the Business Ops dashboard (Webhooks)',
};

/** What to do about an API error: wait, or (but for a server error) change something, then publish again. */
export function activationFixFor(
	status: number,
	noIdPath: boolean,
	scope: string | undefined,
	askedWaitMs: number | undefined,
): string {
	if (status === 429) {
		const asked =
			askedWaitMs === undefined
				? ''
				: ` (the API asked to wait ${Math.ceil(askedWaitMs / 1000)} s)`;
		return `Something else uses this API key's rate limit too${asked}: ${publishAgainAfter(askedWaitMs)}.`;
	}
	if (status >= 500)
		return "The API failed: publish the workflow again later, and check the API's status if it keeps failing.";
	const scopes = scope ? `the scope "${scope}"` : 'the scopes "webhooks.read" and "webhooks.write"';
	const fix =
		status === 403
			? `Give the API key ${scopes} (or "webhooks.*") in the Business Ops dashboard and update the credential`
			: status === 404 && noIdPath
				? "Nothing answers at this address: make the credential's Base URL end with its version segment (e.g. https://api.example.com/v1)"
				: (FIX_BY_STATUS[status === 422 ? 400 : status] ??
					'Check the Base URL in the Business Ops API credential');
	return thenPublishAgain(fix);
}

/** A request not sent: the key had no room for it within FAIL_FAST_TIMEOUT_MS (`waitMs`; Infinity: room comes only with answers still out). */
export function noRoomError(node: INode, target: string, waitMs: number): NodeOperationError {
	const known = Number.isFinite(waitMs) && waitMs > FAIL_FAST_TIMEOUT_MS;
	const wait = known
		? `${Math.ceil(waitMs / 1000)} s`
		: `more than ${FAIL_FAST_TIMEOUT_MS / 1000} s`;
	return new NodeOperationError(
		node,
		`Not sent: ${target} would have waited ${wait} for room in this API key's rate limit (other workflows with this key, or a 429 the API answered them, use it up): ${publishAgainAfter(known ? waitMs : 0)}.`,
		{
			description: `While the workflow is published each request waits at most ${FAIL_FAST_TIMEOUT_MS / 1000} s for its turn, so that publishing ends within n8n's deadline.`,
		},
	);
}

export const unansweredError = (node: INode, problem: string, detail: string): NodeOperationError =>
	activationError(
		node,
		problem,
		'Check that n8n reaches the Base URL in the Business Ops API credential',
		`Each request waits at most ${FAIL_FAST_TIMEOUT_MS / 1000} s while the workflow is published ${detail}`,
	);

const FIX_BY_UNREADABLE: Record<Unreadable, string> = {
	endless:
		'If the list really is that long, delete the entries nothing uses in the Business Ops dashboard; otherwise check that the Base URL in the Business Ops API credential points at the Business Ops API',
	contradiction:
		'Check that the Base URL in the Business Ops API credential points at the Business Ops API (not a proxy or another service), and contact Business Ops support if it repeats',
	changed: 'Wait until no other client creates or deletes these records',
};

export const unreadableListError = (node: INode, problem: string, why: Unreadable) =>
	activationError(
		node,
		problem,
		FIX_BY_UNREADABLE[why],
		`While the workflow is published a list is read for ${ACTIVATION_LIST_MS / 1000} s at most, so that publishing ends within n8n's deadline.`,
	);

/** The API created subscription `id` without its signing secret; deleting it again failed with `cause`, or not. */
export const noSecretError = (node: INode, id: string, cause?: Error) =>
	new NodeOperationError(
		node,
		cause
			? `The API created webhook subscription ${id} without a signing secret, and deleting it failed: publish the workflow again to retry, or delete ${id} in the Business Ops dashboard (Webhooks)`
			: 'The API created the webhook subscription without returning its signing secret, so it was deleted again: publish the workflow again, and contact Business Ops support if this repeats',
		{
			description: `Deliveries cannot be verified without the secret.${cause ? ` Cause: ${cause.message}` : ''}`,
		},
	);
