/** A delivery's trust path and the trigger's one memory in this process. See ARCHITECTURE.md, "The trigger's trust path". */
import { createHash } from 'node:crypto';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { BoundedMap } from '../shared/boundedMap';
import { isRecord } from '../shared/typing';
import { parseEventBody } from './delivery';
import { customSignatureOf } from './signatures/customProperties';
import {
	REFUSAL_KINDS,
	type HeaderBag,
	type RefusalKind,
	type SignedForm,
	type VerifiedForm,
} from './signatures/hmac';
import { schemeOf, verifyDelivery, type VerifyOptions } from './signatures/verify';
import { openStoredSecret, storedSubscription, webhookListener } from './subscriptionRecord';

type Trust =
	| { accepted: true; body: IDataObject; form: VerifiedForm; timestamp?: number }
	| { accepted: false; status: 400 | 401; kind: RefusalKind; reason: string };

/** Accepted only when the signature verifies and the body is a JSON object; else 401, or 400 for a verified body that is not one. Pure. */
export function decideTrust(options: VerifyOptions & { parsedBody?: unknown }): Trust {
	const verified = verifyDelivery(options);
	if (!verified.valid)
		return { accepted: false, status: 401, kind: verified.kind, reason: verified.reason };
	// only without a signature check may n8n's own parse stand in for missing raw bytes
	const { parsedBody, rawBody } = options;
	const body =
		parseEventBody(rawBody) ??
		(options.scheme === 'none' && rawBody === undefined && isRecord(parsedBody)
			? parsedBody
			: undefined);
	if (!body)
		return { accepted: false, status: 400, kind: 'body', reason: 'body is not a JSON object' };
	return { accepted: true, body, form: verified.form, timestamp: verified.timestamp };
}

/** What this process keeps of one trigger (workflow, node, listener), for its stored subscription `record`. */
interface Memory {
	record: string;
	secret?: string;
	learned?: SignedForm;
	loggedForm?: string;
	/** Hashes of the accepted delivery ids (each the same size, whatever the id). */
	repeats?: BoundedMap<string, true>;
	logged: Map<string, number>;
}

export const MAX_REPEAT_IDS = 10_000;
/** What an entry weighs beside its ids; the memory holds this many ids' weight in all (about 100 MB at most). */
const ENTRY_WEIGHT = 100;
const MEMORY_WEIGHT = 1_000_000;
const memory = new BoundedMap<string, Memory>(
	MEMORY_WEIGHT,
	(entry) => ENTRY_WEIGHT + (entry.repeats?.size ?? 0),
);
/** The log times of triggers without an entry: a refusal never creates, refreshes or evicts one. */
const unknownLogs = new BoundedMap<string, Map<string, number>>(10_000);

export interface TrustOptions {
	signatureScheme?: unknown;
	signatureHeader?: string;
	timestampTolerance?: unknown;
}

export type Delivery =
	| (Trust & { accepted: false })
	| (Trust & { accepted: true; headers: HeaderBag; memory: string });

/** The trigger's entry for `record`: what it keeps of an older record is only its log times. */
function entryFor(key: string, record: string): Memory {
	const known = memory.get(key);
	if (known?.record === record) return known;
	return { record, logged: known?.logged ?? unknownLogs.get(key) ?? new Map<string, number>() };
}

export async function trustDelivery(
	ctx: IWebhookFunctions,
	options: TrustOptions,
): Promise<Delivery> {
	const req = ctx.getRequestObject();
	const headers = req.headers as HeaderBag;
	const scheme = schemeOf(options.signatureScheme);
	const listener = webhookListener(ctx);
	const stored = storedSubscription(ctx, listener);
	const key = [ctx.getWorkflow().id ?? '', ctx.getNode().name, listener].join('\u0000');
	const record = `${stored?.id ?? ''}\u0000${stored?.sealedSecret ?? ''}`;
	const before = entryFor(key, record);
	const reading =
		scheme === 'none'
			? undefined
			: before.secret !== undefined
				? { secret: before.secret }
				: await openStoredSecret(ctx, stored);
	const trust = decideTrust({
		headers,
		rawBody: req.rawBody,
		parsedBody: req.body,
		nowSeconds: Math.floor(Date.now() / 1000),
		scheme,
		secret: reading && 'problem' in reading ? reading : reading?.secret,
		toleranceSeconds: options.timestampTolerance,
		signatureHeader: options.signatureHeader,
		custom: scheme === 'custom' ? customSignatureOf(options as IDataObject) : undefined,
		learned: scheme === 'auto' ? before.learned : undefined,
	});
	// read again: other deliveries may have written it while the secret was opened
	const entry = entryFor(key, record);
	if (!trust.accepted) {
		const line = `refused a delivery with HTTP ${trust.status}: ${trust.reason}. Further refusals of this trigger for ${REFUSAL_KINDS[trust.kind]} are not logged for a minute.`;
		note(ctx, entry, trust.kind, line);
		if (!memory.has(key) && !unknownLogs.has(key)) unknownLogs.set(key, entry.logged);
		return trust;
	}
	if (reading && 'secret' in reading) entry.secret = reading.secret;
	if (scheme === 'auto') entry.learned ??= trust.form.custom;
	if (scheme !== 'none') logForm(ctx, entry, scheme, trust.form);
	memory.set(key, entry);
	unknownLogs.delete(key);
	return { ...trust, headers, memory: key };
}

/** True when this delivery id was accepted before (Ignore Repeated Deliveries); else it is kept. */
export function seenBefore(delivery: Delivery & { accepted: true }, deliveryId: string): boolean {
	const entry = memory.get(delivery.memory);
	if (!entry) return false;
	entry.repeats ??= new BoundedMap<string, true>(MAX_REPEAT_IDS);
	const hash = createHash('sha256').update(deliveryId).digest('base64url').slice(0, 22);
	if (entry.repeats.has(hash)) return true;
	entry.repeats.set(hash, true);
	memory.set(delivery.memory, entry);
	return false;
}

const LOG_INTERVAL_MS = 60_000;

/** A line in n8n's log, at most once a minute per trigger and fixed `kind`: junk never keeps a genuine reason out. */
function note(ctx: IWebhookFunctions, entry: Memory, kind: string, line: string): void {
	const now = Date.now();
	const last = entry.logged.get(kind);
	if (last !== undefined && now - last < LOG_INTERVAL_MS) return;
	entry.logged.set(kind, now);
	ctx.logger[kind === 'repeat' ? 'info' : 'warn'](
		`Business Ops Trigger "${ctx.getNode().name}" (workflow ${ctx.getWorkflow().id ?? 'unsaved'}) ${line}`,
	);
}

export function noteDelivery(
	ctx: IWebhookFunctions,
	delivery: Delivery & { accepted: true },
	kind: 'type' | 'repeat',
	line: string,
): void {
	const entry = memory.get(delivery.memory);
	const further = '. Further such lines of this trigger are not logged for a minute.';
	if (entry) note(ctx, entry, kind, line + further);
}

/** Names the form deliveries verify under in n8n's log, once per subscription and form, with how to set it by hand. */
function logForm(
	ctx: IWebhookFunctions,
	entry: Memory,
	scheme: VerifyOptions['scheme'],
	form: VerifiedForm,
): void {
	// Auto: what the signature covers, never the header names or prefixes a replayer may change
	const named =
		scheme === 'auto' && form.custom
			? `${form.custom.content}\u0000${form.custom.key}`
			: `${scheme}\u0000${form.description}`;
	if (entry.loggedForm === named) return;
	entry.loggedForm = named;
	const custom = scheme === 'auto' ? form.custom : undefined;
	const byHand = custom
		? ` To set it by hand, choose Signature Scheme "Custom" with: header ${custom.header}, prefix "${custom.prefix}", encoding ${custom.encoding}, signed content ${custom.content}, key ${custom.key === 'whsecBase64' ? 'Standard Webhooks Key' : 'Whole Secret'}${custom.timestampHeader ? `, timestamp header ${custom.timestampHeader}` : ''}${custom.idHeader ? `, ID header ${custom.idHeader}` : ''}, algorithm SHA-256.`
		: '';
	ctx.logger.info(
		`Business Ops Trigger "${ctx.getNode().name}" (workflow ${ctx.getWorkflow().id ?? 'unsaved'}): deliveries verify under ${scheme === 'auto' ? 'Auto as ' : ''}${form.description}.${byHand}`,
	);
}
