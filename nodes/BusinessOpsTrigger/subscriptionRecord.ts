/** The trigger's subscriptions in the static data, `{ subscriptions: { production?, test? } }`: written by the lifecycle only. */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { REPUBLISH } from '../shared/api/activation';
import { CREDENTIAL_TYPE } from '../shared/api/context';
import { openSecret } from './secretBox';

/** The production URL and the editor's test URL, each with its own subscription. */
export type Listener = 'production' | 'test';

export interface StoredSubscription {
	id: string;
	url: string;
	events: string[];
	/** The signing secret returned once by POST /webhooks, sealed (secretBox.ts); never logged, never put in output or errors. */
	sealedSecret?: string;
	/** The n8n instance that created it: only that instance deletes it once its URL is no longer the trigger's. */
	instanceId?: string;
}

type Subscriptions = Partial<Record<Listener, StoredSubscription>>;
type AnyContext = IHookFunctions | IWebhookFunctions;

function subscriptionsOf(ctx: AnyContext): Subscriptions {
	const stored = ctx.getWorkflowStaticData('node').subscriptions;
	return stored && typeof stored === 'object' ? (stored as Subscriptions) : {};
}

export const storedSubscription = (
	ctx: AnyContext,
	listener: Listener,
): StoredSubscription | undefined => subscriptionsOf(ctx)[listener];

/** Replaces the whole `subscriptions` object so that n8n sees the static data change and saves it. */
export function writeRecord(
	ctx: IHookFunctions,
	listener: Listener,
	entry: StoredSubscription | undefined,
) {
	const next: Subscriptions = { ...subscriptionsOf(ctx) };
	if (entry) next[listener] = entry;
	else delete next[listener];
	ctx.getWorkflowStaticData('node').subscriptions = next as IDataObject;
}

const normalUrl = (url: unknown): unknown =>
	typeof url === 'string' && URL.canParse(url) ? new URL(url).href : url;

/** n8n writes N8N_WEBHOOK_URL as it is set (`https://N8N.Example.test:443/`), an API may keep the URL normalised. */
export function sameUrl(a: unknown, b: unknown): boolean {
	return normalUrl(a) === normalUrl(b);
}

function listenerOfUrl(ctx: AnyContext, url: string | undefined): Listener | undefined {
	if (!url) return undefined;
	const stored = subscriptionsOf(ctx);
	return (['production', 'test'] as const).find((listener) => sameUrl(stored[listener]?.url, url));
}

/** Which subscription a lifecycle call is about: delete runs with mode `internal`, so the URL tells (else `/webhook-test/`). */
export function hookListener(ctx: IHookFunctions): Listener {
	if (ctx.getActivationMode() === 'manual' || ctx.getMode() === 'manual') return 'test';
	const url = ctx.getNodeWebhookUrl('default');
	return (
		listenerOfUrl(ctx, url) ??
		(typeof url === 'string' && url.includes('/webhook-test/') ? 'test' : 'production')
	);
}

/** Whose secret signs a delivery: the URL served (`getWebhookResourceUrl`, where n8n has it), else the run's mode. */
export function webhookListener(ctx: IWebhookFunctions): Listener {
	const served =
		typeof ctx.getWebhookResourceUrl === 'function'
			? ctx.getWebhookResourceUrl('default')
			: undefined;
	return listenerOfUrl(ctx, served) ?? (ctx.getMode() === 'manual' ? 'test' : 'production');
}

/** Why a stored secret cannot be used: at activation a new subscription is made at once; a delivery's refusal adds what to do. */
export const KEY_CHANGED =
	"the stored signing secret does not open with this credential's API key (the key or the credential changed since the workflow was published)";

export async function openStoredSecret(
	ctx: AnyContext,
	stored: StoredSubscription | undefined,
): Promise<{ secret: string } | { problem: string } | undefined> {
	if (!stored?.sealedSecret) return undefined;
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const secret = openSecret(
		stored.sealedSecret,
		typeof credentials.apiKey === 'string' ? credentials.apiKey : '',
		stored.id,
	);
	if (secret !== undefined) return { secret };
	return {
		problem: `${KEY_CHANGED}; ${REPUBLISH} (deactivate and activate it in n8n 1.x) to subscribe anew`,
	};
}
