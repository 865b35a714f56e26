/**
 * The trigger's calls to the API's webhook subscriptions, each sent with `activation` (it fails
 * fast and says what to do in its message), and the cleanup of subscriptions left behind: ours at
 * exactly this trigger's URL, whose record here was lost (the static data restored from an older
 * copy, the workflow imported again). Their secret is gone, so they are deleted, never adopted.
 */
import type { IDataObject, IHookFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { recordOf } from '../shared/api/envelope';
import { isApiNotFound, isConflict } from '../shared/api/errors';
import { readList } from '../shared/api/pages';
import { apiRequest } from '../shared/api/transport';
import { sameUrl } from './subscriptionRecord';

export async function call(
	ctx: IHookFunctions,
	method: IHttpRequestMethods,
	path: string,
	options: { qs?: IDataObject; body?: IDataObject } = {},
): Promise<IDataObject> {
	return await apiRequest<IDataObject>(ctx, method, path, { ...options, activation: true });
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs a call and hands back its outcome. The transport already turns every failure into a
 * NodeApiError or NodeOperationError, so a failure that is not handled is thrown unchanged.
 */
export async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
	return await promise.then(
		(value): Settled<T> => ({ ok: true, value }),
		(error: unknown): Settled<T> => ({ ok: false, error }),
	);
}

/**
 * DELETE /webhooks/{id}; the API's 404 means it is already gone (a proxy's 404 page is thrown). Other failures are thrown. When the
 * credential's key changed since the subscription was made (`keyChanged`), a 404 may only mean
 * that it lives in another organisation, where it keeps sending deliveries that are refused:
 * that is a warning naming it, for the user to delete it there by hand.
 */
export async function deleteRemote(ctx: IHookFunctions, id: string, url?: string, keyChanged = false): Promise<void> {
	const outcome = await settle(call(ctx, 'DELETE', `/webhooks/${encodeURIComponent(id)}`));
	if (outcome.ok) return;
	if (!isApiNotFound(outcome.error)) throw outcome.error;
	if (keyChanged) {
		ctx.logger.warn(
			`Business Ops Trigger "${ctx.getNode().name}": webhook subscription ${id}${url ? ` (to ${url})` : ''} was not found with this credential's API key, which changed since the subscription was made. If the credential now belongs to another organisation or key, the subscription may still exist under the old one and keep sending deliveries that are refused: delete it by hand in that organisation's Business Ops dashboard (Webhooks).`,
		);
	}
}

/**
 * Subscriptions to exactly this URL that no record here knows of: ours, left behind when the
 * static data was lost. A subscription to any other URL (the same workflow imported into
 * another n8n, an older host of this one) is never touched: it may be another instance's.
 */
async function findLeftBehind(ctx: IHookFunctions, url: string): Promise<string[]> {
	return (await readList(ctx, '/webhooks', { call: { activation: true } })).records
		.filter((entry) => sameUrl(entry.url, url) && entry.id !== undefined && entry.id !== null)
		.map((entry) => String(entry.id));
}

/** Deletes every subscription left behind at `url`; answers how many there were. */
export async function deleteLeftBehind(ctx: IHookFunctions, url: string): Promise<number> {
	const ids = await findLeftBehind(ctx, url);
	for (const id of ids) {
		ctx.logger.warn(
			`Business Ops Trigger "${ctx.getNode().name}": deleting webhook subscription ${id}, left behind without its signing secret at exactly this trigger's URL`,
		);
		await deleteRemote(ctx, id);
	}
	return ids.length;
}

/** POST /webhooks; a 409 for a subscription left behind at this URL deletes it and posts again. */
export async function postSubscription(ctx: IHookFunctions, body: IDataObject): Promise<IDataObject> {
	const first = await settle(call(ctx, 'POST', '/webhooks', { body }));
	if (first.ok) return recordOf(first.value);
	if (!isConflict(first.error)) throw first.error;
	// The API refuses a second subscription with the same name and URL. One to exactly this
	// URL is ours, left behind when its record here was lost. Its secret is gone: delete it
	// (never adopt it) and retry. A conflict with any other URL is reported as it is.
	if ((await deleteLeftBehind(ctx, String(body.url))) === 0) throw first.error;
	return recordOf(await call(ctx, 'POST', '/webhooks', { body }));
}
