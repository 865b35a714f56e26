/**
 * The remote webhook subscription behind the trigger: the checkExists / create / delete steps n8n
 * runs on activation, deactivation and the editor's "listen for test event". The record of it in
 * the workflow's static data is subscriptionRecord.ts's.
 *
 * Only a subscription whose URL is exactly this trigger's own production or test URL, or that this
 * n8n instance created (its instance id is in the record) at an earlier URL, is ever deleted or
 * replaced: another n8n with the same imported workflow (same workflow id, webhook id and name,
 * another host and instance id) keeps its own.
 *
 * Every lifecycle call fails fast (`activation`): n8n gives activation a deadline, and an API that
 * does not answer must become an activation error the user sees, not a workflow that looks
 * published and receives nothing. n8n shows an activation error by its message alone (n8n 2.41's
 * publication status, n8n 1.x's activation error), so each error thrown here says in its message
 * what is wrong and what to do.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/api/context';
import { recordOf } from '../shared/api/envelope';
import { isApiNotFound, PUBLISH_AGAIN } from '../shared/api/errors';
import { chosenEvents } from '../shared/eventNames';
import { call, deleteLeftBehind, deleteRemote, postSubscription, settle } from './subscriptionApi';
import { REACHABILITY_FIX, unreachableWebhookProblem } from './reachability';
import { sealSecret } from './secretBox';
import { hookListener, openStoredSecret, sameUrl, storedSubscription, writeRecord, type StoredSubscription, type Listener } from './subscriptionRecord';
import { isOn } from './switches';

const NAME_MAX_LENGTH = 200;

/** `n8n: <workflow> / <node> (<workflow id>)`, with ` (test)` for the editor's test subscription. */
export function subscriptionName(ctx: IHookFunctions, listener: Listener): string {
	const workflow = ctx.getWorkflow();
	const suffix = ` / ${ctx.getNode().name} (${workflow.id ?? 'unsaved'})${listener === 'test' ? ' (test)' : ''}`;
	let workflowName = workflow.name ?? 'workflow';
	const room = NAME_MAX_LENGTH - 'n8n: '.length - suffix.length;
	if (workflowName.length > room) workflowName = `${workflowName.slice(0, Math.max(0, room - 1))}…`;
	return `n8n: ${workflowName}${suffix}`.slice(0, NAME_MAX_LENGTH);
}

export function sameEventSet(a: unknown, b: string[]): boolean {
	if (!Array.isArray(a)) return false;
	const left = new Set(a.map(String));
	const right = new Set(b);
	return left.size === right.size && [...left].every((event) => right.has(event));
}

/** n8n's id of this instance (kept in its user folder, the same across restarts and URL changes). */
function instanceIdOf(ctx: IHookFunctions): string | undefined {
	const id = typeof ctx.getInstanceId === 'function' ? ctx.getInstanceId() : undefined;
	return id ? String(id) : undefined;
}

/** True when the stored secret does not open with the credential's current API key. */
async function keyChangedFor(ctx: IHookFunctions, stored: StoredSubscription): Promise<boolean> {
	const reading = await openStoredSecret(ctx, stored);
	return reading !== undefined && 'problem' in reading;
}

/**
 * Forgets the listener's subscription, deleting it when its URL is exactly this trigger's current one,
 * or when this n8n instance made it at an earlier URL (N8N_WEBHOOK_URL or WEBHOOK_URL changed). One
 * at another URL made elsewhere may be another n8n's (the same workflow imported with its static
 * data, e.g. staging beside production): it is left in place, with a warning that says so. The
 * record stays if deletion fails.
 */
async function discard(
	ctx: IHookFunctions,
	listener: Listener,
	why: string,
	{ remoteUrl, keyChanged = false }: { remoteUrl?: unknown; keyChanged?: boolean } = {},
): Promise<void> {
	const stored = storedSubscription(ctx, listener);
	if (!stored) return;
	const url = ctx.getNodeWebhookUrl('default');
	const node = ctx.getNode().name;
	const pointsHere = sameUrl(stored.url, url) && (remoteUrl === undefined || sameUrl(remoteUrl, url));
	const madeHere = stored.instanceId !== undefined && stored.instanceId === instanceIdOf(ctx) && remoteUrl === undefined;
	if (!pointsHere && !madeHere) {
		ctx.logger.warn(
			`Business Ops Trigger "${node}": no longer using webhook subscription ${stored.id} (${why}); it points at ${String(remoteUrl ?? stored.url)}, not at this trigger's URL ${url}, and another n8n instance made it, so it is left in place: it may belong to another n8n with this workflow. Delete it in Business Ops if nothing uses it.`,
		);
	} else {
		const where = pointsHere ? '' : ` this n8n made it at its earlier URL ${stored.url};`;
		ctx.logger.info(`Business Ops Trigger "${node}": deleting webhook subscription ${stored.id} (${why};${where} a new one is made when needed)`);
		if (stored.id) await deleteRemote(ctx, stored.id, stored.url, keyChanged);
	}
	writeRecord(ctx, listener, undefined);
}

/**
 * Brings a subscription that still points here in line with the node, in place (PATCH keeps its
 * id and signing secret): the chosen events, the name (the workflow was renamed), and active
 * again if someone paused it in Business Ops while the workflow is published. False when it is
 * gone meanwhile (404).
 */
async function updateInPlace(
	ctx: IHookFunctions,
	listener: Listener,
	stored: StoredSubscription,
	remote: IDataObject,
	events: string[],
): Promise<boolean> {
	const name = subscriptionName(ctx, listener);
	const changes: IDataObject = {};
	if (!sameEventSet(remote.events, events)) changes.events = events;
	if (remote.name !== undefined && remote.name !== name) changes.name = name;
	if (remote.active === false) changes.active = true;
	if (Object.keys(changes).length === 0) return true;
	const patched = await settle(call(ctx, 'PATCH', `/webhooks/${encodeURIComponent(stored.id)}`, { body: changes }));
	if (!patched.ok) {
		if (!isApiNotFound(patched.error)) throw patched.error;
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
	if (what.length) ctx.logger.info(`Business Ops Trigger "${node}": updated webhook subscription ${stored.id} in place (${what.join(', ')})`);
	writeRecord(ctx, listener, { ...stored, events });
	return true;
}

/**
 * Subscription `id` in an answer, or undefined when the answer is not that one (a cut-off body, a
 * proxy's page or JSON, another subscription). The spec lists no `id` among its fields: when the
 * answer has none, a `url` and `events` make it the subscription asked for.
 */
function subscriptionOf(body: unknown, id: string): IDataObject | undefined {
	const record = recordOf(body);
	const sameId = record.id === undefined || record.id === null || String(record.id) === id;
	return typeof record.url === 'string' && Array.isArray(record.events) && sameId ? record : undefined;
}

/**
 * True only when the stored subscription still exists with this URL, these events, active,
 * and its secret is held. Anything else is cleaned up (deleted where it still exists) and
 * answers false, so that n8n calls create.
 */
export async function checkSubscription(ctx: IHookFunctions): Promise<boolean> {
	const listener = hookListener(ctx);
	const events = chosenEvents(ctx);
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
		await discard(ctx, listener, reading?.problem ?? 'its signing secret is not stored', { keyChanged: reading !== undefined });
		return false;
	}

	const fetched = await settle(call(ctx, 'GET', `/webhooks/${encodeURIComponent(stored.id)}`));
	if (!fetched.ok) {
		if (!isApiNotFound(fetched.error)) throw fetched.error;
		writeRecord(ctx, listener, undefined);
		return false;
	}
	const remote = subscriptionOf(fetched.value, stored.id);
	if (!remote) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The API answered GET /webhooks/${stored.id} with something that is not that webhook subscription (cut off, another subscription, or a page from a proxy between n8n and the API), so nothing was changed: check that the Base URL in the Business Ops API credential reaches the API directly, ${PUBLISH_AGAIN}`,
			{ description: `Webhook subscription ${stored.id} is kept as it is; it is only replaced when its answer shows that it no longer fits.` },
		);
	}

	if (!sameUrl(remote.url, url)) {
		await discard(ctx, listener, 'its URL was changed in Business Ops', { remoteUrl: remote.url });
		return false;
	}
	return await updateInPlace(ctx, listener, stored, remote, events);
}

/** Refuses a webhook URL only a local network knows while the API is public (reachability.ts). */
async function checkReachable(ctx: IHookFunctions, url: string): Promise<void> {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	if (isOn(options, 'skipReachabilityCheck')) return;
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const problem = unreachableWebhookProblem(url, String(credentials.baseUrl ?? ''));
	if (problem === undefined) return;
	throw new NodeOperationError(ctx.getNode(), `${problem}, so no event would ever arrive. ${REACHABILITY_FIX}`, {
		description: 'Nothing was subscribed.',
	});
}

/** POST /webhooks; keeps the id and the signing secret (shown only in this response) at once. */
export async function createSubscription(ctx: IHookFunctions): Promise<boolean> {
	const listener = hookListener(ctx);
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(ctx.getNode(), `n8n did not give this trigger a webhook URL: save the workflow in the editor, ${PUBLISH_AGAIN}`);
	}
	const events = chosenEvents(ctx);
	await checkReachable(ctx, url);
	const hadRecord = storedSubscription(ctx, listener) !== undefined;
	await discard(ctx, listener, 'a new one is being created');

	const name = subscriptionName(ctx, listener);
	// Nothing stored: the static data may have been lost after an earlier create.
	if (!hadRecord) await deleteLeftBehind(ctx, url);
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	const created = await postSubscription(ctx, { name, url, events });
	const id = created.id === undefined || created.id === null ? '' : String(created.id);
	if (id === '') {
		throw new NodeOperationError(
			ctx.getNode(),
			`The API did not return an id for the new webhook subscription: delete the subscription named "${name}" in the Business Ops dashboard (Webhooks), ${PUBLISH_AGAIN}`,
			{ description: 'Without its id the trigger cannot update or delete the subscription.' },
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

	const removed = await settle(deleteRemote(ctx, id, url));
	if (!removed.ok) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The API created webhook subscription ${id} without a signing secret, and deleting it failed: publish the workflow again to retry, or delete ${id} in the Business Ops dashboard (Webhooks)`,
			{
				description: `Deliveries cannot be verified without the secret. Cause: ${(removed.error as Error).message}`,
			},
		);
	}
	writeRecord(ctx, listener, undefined);
	throw new NodeOperationError(
		ctx.getNode(),
		'The API created the webhook subscription without returning its signing secret, so it was deleted again: publish the workflow again, and contact Business Ops support if this repeats',
		{ description: 'Deliveries cannot be verified without the secret.' },
	);
}

/**
 * DELETE /webhooks/{id} (a 404 counts as done) and forgets the subscription. n8n ignores delete's
 * answer and a thrown error would stop the deactivation, so a failure is a warning naming the
 * subscription left active; the record stays, so the next publishing checks it again.
 */
export async function deleteSubscription(ctx: IHookFunctions): Promise<boolean> {
	const listener = hookListener(ctx);
	const stored = storedSubscription(ctx, listener);
	if (!stored) return true;
	try {
		await discard(ctx, listener, 'the workflow was unpublished', { keyChanged: await keyChangedFor(ctx, stored) });
		return true;
	} catch (error) {
		ctx.logger.warn(
			`Business Ops Trigger "${ctx.getNode().name}" could not delete webhook subscription ${stored.id} (to ${stored.url}): it stays active and keeps sending events. If the workflow stays unpublished, delete it in the Business Ops dashboard (Webhooks), or publish and unpublish the workflow again. Cause: ${(error as Error).message}`,
		);
		return false;
	}
}
