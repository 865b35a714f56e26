/** The remote webhook subscription's lifecycle (checkExists / create / delete). See ARCHITECTURE.md, "Trigger lifecycle". */
import type { IDataObject, IHookFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/api/context';
import { recordOf } from '../shared/api/envelope';
import { activationError, noSecretError } from '../shared/api/activation';
import { isApiNotFound, isConflict } from '../shared/api/errors';
import { readList } from '../shared/api/pages';
import { apiRequest } from '../shared/api/transport';
import { chosenEvents } from '../shared/eventNames';
import { unreachableWebhookProblem } from './reachability';
import { sealSecret } from './secretBox';
import {
	hookListener,
	KEY_CHANGED,
	openStoredSecret,
	sameUrl,
	storedSubscription,
	writeRecord,
	type StoredSubscription,
	type Listener,
} from './subscriptionRecord';

/** A lifecycle call on `/webhooks/{id}`: the API's 404 answers `undefined`, an empty answer `{}`. */
async function call(
	ctx: IHookFunctions,
	method: IHttpRequestMethods,
	id: string,
	body?: IDataObject,
): Promise<IDataObject | undefined> {
	const path = `/webhooks/${encodeURIComponent(id)}`;
	// a rethrow in a catch block is refused by lint; the transport's errors go on unchanged
	return await apiRequest<IDataObject>(ctx, method, path, { body, activation: true }).then(
		(answer) => answer ?? {},
		(error: unknown) => {
			if (isApiNotFound(error)) return undefined;
			throw error;
		},
	);
}

const NAME_MAX_LENGTH = 200;

function subscriptionName(ctx: IHookFunctions, listener: Listener): string {
	const workflow = ctx.getWorkflow();
	const suffix = ` / ${ctx.getNode().name} (${workflow.id ?? 'unsaved'})${listener === 'test' ? ' (test)' : ''}`;
	let workflowName = workflow.name ?? 'workflow';
	const room = NAME_MAX_LENGTH - 'n8n: '.length - suffix.length;
	if (workflowName.length > room) workflowName = `${workflowName.slice(0, Math.max(0, room - 1))}…`;
	return `n8n: ${workflowName}${suffix}`.slice(0, NAME_MAX_LENGTH);
}

/** n8n's id of this instance (the same across restarts and URL changes), where n8n has it. */
const instanceIdOf = (ctx: IHookFunctions): string | undefined =>
	typeof ctx.getInstanceId === 'function' ? ctx.getInstanceId() || undefined : undefined;

/** DELETE /webhooks/{id}; after the key changed (`keyChanged`) a 404 may mean it lives under the old key: a warning says so. */
async function deleteRemote(
	ctx: IHookFunctions,
	id: string,
	url?: string,
	keyChanged = false,
): Promise<void> {
	if ((await call(ctx, 'DELETE', id)) !== undefined || !keyChanged) return;
	ctx.logger.warn(
		`Business Ops Trigger "${ctx.getNode().name}": webhook subscription ${id}${url ? ` (to ${url})` : ''} was not found with this credential's API key, which changed since the subscription was made. If the credential now belongs to another organisation or key, the subscription may still exist under the old one and keep sending deliveries that are refused: delete it by hand in that organisation's Business Ops dashboard (Webhooks).`,
	);
}

/** Deletes the subscriptions to exactly `url` no record knows of: ours, left behind with the static data (never adopted). */
async function deleteLeftBehind(ctx: IHookFunctions, url: string): Promise<number> {
	const ids = (await readList(ctx, '/webhooks', { call: { activation: true } })).records
		.filter((entry) => sameUrl(entry.url, url) && entry.id !== undefined && entry.id !== null)
		.map((entry) => String(entry.id));
	for (const id of ids) {
		ctx.logger.warn(
			`Business Ops Trigger "${ctx.getNode().name}": deleting webhook subscription ${id}, left behind without its signing secret at exactly this trigger's URL`,
		);
		await deleteRemote(ctx, id);
	}
	return ids.length;
}

/** Forgets the listener's subscription, deleting it if it points here or this instance made it; the record stays if that fails. */
async function discard(
	ctx: IHookFunctions,
	listener: Listener,
	why: string,
	remoteUrl?: unknown,
	keyChanged = false,
): Promise<void> {
	const stored = storedSubscription(ctx, listener);
	if (!stored) return;
	const url = ctx.getNodeWebhookUrl('default');
	const node = ctx.getNode().name;
	const pointsHere =
		sameUrl(stored.url, url) && (remoteUrl === undefined || sameUrl(remoteUrl, url));
	const madeHere =
		stored.instanceId !== undefined &&
		stored.instanceId === instanceIdOf(ctx) &&
		remoteUrl === undefined;
	if (!pointsHere && !madeHere) {
		ctx.logger.warn(
			`Business Ops Trigger "${node}": no longer using webhook subscription ${stored.id} (${why}); it points at ${String(remoteUrl ?? stored.url)}, not at this trigger's URL ${url}, and another n8n instance made it, so it is left in place: it may belong to another n8n with this workflow. Delete it in Business Ops if nothing uses it.`,
		);
	} else {
		const where = pointsHere ? '' : ` this n8n made it at its earlier URL ${stored.url};`;
		ctx.logger.info(
			`Business Ops Trigger "${node}": deleting webhook subscription ${stored.id} (${why};${where} a new one is made when needed)`,
		);
		if (stored.id) await deleteRemote(ctx, stored.id, stored.url, keyChanged);
	}
	writeRecord(ctx, listener, undefined);
}

/** PATCHes a subscription that points here to the chosen events and name, active again; false when it is gone (404). */
async function updateInPlace(
	ctx: IHookFunctions,
	listener: Listener,
	stored: StoredSubscription,
	remote: IDataObject,
	events: string[],
): Promise<boolean> {
	const name = subscriptionName(ctx, listener);
	const changes: IDataObject = {};
	const remoteEvents = new Set(Array.isArray(remote.events) ? remote.events.map(String) : []);
	const sameEvents =
		remoteEvents.size === new Set(events).size && events.every((event) => remoteEvents.has(event));
	if (!sameEvents) changes.events = events;
	if (remote.name !== undefined && remote.name !== name) changes.name = name;
	if (remote.active === false) changes.active = true;
	if (Object.keys(changes).length === 0) return true;
	if ((await call(ctx, 'PATCH', stored.id, changes)) === undefined) {
		writeRecord(ctx, listener, undefined);
		return false;
	}
	const node = ctx.getNode().name;
	if (changes.active === true) {
		ctx.logger.warn(
			`Business Ops Trigger "${node}": webhook subscription ${stored.id} was paused in Business Ops; it is active again because the workflow is published. Unpublish the workflow to stop deliveries.`,
		);
	}
	const what = Object.keys(changes).filter((key) => key !== 'active');
	if (what.length)
		ctx.logger.info(
			`Business Ops Trigger "${node}": updated webhook subscription ${stored.id} in place (${what.join(', ')})`,
		);
	writeRecord(ctx, listener, { ...stored, events });
	return true;
}

/**
 * Subscription `id` in an answer, or undefined when it is not that one (cut off, a proxy's page,
 * another subscription). The spec lists no `id` among its fields: a `url` and `events` make it so.
 */
function subscriptionOf(body: unknown, id: string): IDataObject | undefined {
	const record = recordOf(body);
	const sameId = record.id === undefined || record.id === null || String(record.id) === id;
	return typeof record.url === 'string' && Array.isArray(record.events) && sameId
		? record
		: undefined;
}

/** True only when the stored subscription exists with this URL, these events, active, and its secret is held; else cleaned up, so that n8n calls create. */
export async function checkSubscription(ctx: IHookFunctions): Promise<boolean> {
	const listener = hookListener(ctx);
	const events = chosenEvents(ctx, true);
	const stored = storedSubscription(ctx, listener);
	if (!stored) return false;
	if (!stored.id) {
		writeRecord(ctx, listener, undefined);
		return false;
	}
	const url = ctx.getNodeWebhookUrl('default');
	if (!sameUrl(stored.url, url)) {
		await discard(ctx, listener, 'the webhook URL changed');
		return false;
	}
	const reading = await openStoredSecret(ctx, stored);
	if (!reading || 'problem' in reading) {
		await discard(
			ctx,
			listener,
			reading ? KEY_CHANGED : 'its signing secret is not stored',
			undefined,
			reading !== undefined,
		);
		return false;
	}

	const fetched = await call(ctx, 'GET', stored.id);
	if (fetched === undefined) {
		writeRecord(ctx, listener, undefined);
		return false;
	}
	const remote = subscriptionOf(fetched, stored.id);
	if (!remote) {
		throw activationError(
			ctx.getNode(),
			`The API answered GET /webhooks/${stored.id} with something that is not that webhook subscription (cut off, another subscription, or a page from a proxy between n8n and the API), so nothing was changed`,
			'Check that the Base URL in the Business Ops API credential reaches the API directly',
			`Webhook subscription ${stored.id} is kept as it is; it is only replaced when its answer shows that it no longer fits.`,
		);
	}

	if (!sameUrl(remote.url, url)) {
		await discard(ctx, listener, 'its URL was changed in Business Ops', remote.url);
		return false;
	}
	return await updateInPlace(ctx, listener, stored, remote, events);
}

/** POST /webhooks; keeps the id and the signing secret (shown only in this response) at once. */
export async function createSubscription(
	ctx: IHookFunctions,
	skipReachabilityCheck: boolean,
): Promise<boolean> {
	const listener = hookListener(ctx);
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) {
		throw activationError(
			ctx.getNode(),
			'n8n did not give this trigger a webhook URL',
			'Save the workflow in the editor',
		);
	}
	const events = chosenEvents(ctx, true);
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const unreachable = skipReachabilityCheck
		? undefined
		: unreachableWebhookProblem(url, String(credentials.baseUrl ?? ''));
	if (unreachable) {
		throw new NodeOperationError(ctx.getNode(), unreachable, {
			description: 'Nothing was subscribed.',
		});
	}
	const hadRecord = storedSubscription(ctx, listener) !== undefined;
	await discard(ctx, listener, 'a new one is being created');

	const name = subscriptionName(ctx, listener);
	// Nothing stored: the static data may have been lost after an earlier create.
	if (!hadRecord) await deleteLeftBehind(ctx, url);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	const post = async () =>
		await apiRequest(ctx, 'POST', '/webhooks', { body: { name, url, events }, activation: true });
	const created = recordOf(
		await post().catch(async (error: unknown) => {
			// A 409 for the same name and URL: one at exactly this URL is ours, left behind; delete it and post again
			if (!isConflict(error) || (await deleteLeftBehind(ctx, url)) === 0) throw error;
			return await post();
		}),
	);
	const id = created.id === undefined || created.id === null ? '' : String(created.id);
	if (id === '') {
		throw activationError(
			ctx.getNode(),
			'The API did not return an id for the new webhook subscription',
			`Delete the subscription named "${name}" in the Business Ops dashboard (Webhooks)`,
			'Without its id the trigger cannot update or delete the subscription.',
		);
	}
	const secret = typeof created.signingSecret === 'string' ? created.signingSecret : '';
	// Stored before anything else can fail; without a secret the record marks it for deletion.
	const instanceId = instanceIdOf(ctx);
	writeRecord(ctx, listener, {
		id,
		url,
		events,
		...(secret ? { sealedSecret: sealSecret(secret, apiKey, id) } : {}),
		...(instanceId ? { instanceId } : {}),
	});
	if (secret) return true;

	try {
		await deleteRemote(ctx, id, url);
	} catch (error) {
		throw noSecretError(ctx.getNode(), id, error as Error);
	}
	writeRecord(ctx, listener, undefined);
	throw noSecretError(ctx.getNode(), id);
}

/** Deletes and forgets the subscription; a failure is a warning (an error would stop the deactivation), the record stays. */
export async function deleteSubscription(ctx: IHookFunctions): Promise<boolean> {
	const listener = hookListener(ctx);
	const stored = storedSubscription(ctx, listener);
	if (!stored) return true;
	try {
		const reading = await openStoredSecret(ctx, stored);
		await discard(
			ctx,
			listener,
			'the workflow was unpublished',
			undefined,
			reading !== undefined && 'problem' in reading,
		);
		return true;
	} catch (error) {
		ctx.logger.warn(
			`Business Ops Trigger "${ctx.getNode().name}" could not delete webhook subscription ${stored.id} (to ${stored.url}): it stays active and keeps sending events. If the workflow stays unpublished, delete it in the Business Ops dashboard (Webhooks), or publish and unpublish the workflow again. Cause: ${(error as Error).message}`,
		);
		return false;
	}
}
