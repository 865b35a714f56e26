/**
 * Auto learns once, then pins: the form of the subscription's first verified delivery (header,
 * value encoding, signed content, key form) is kept as `pinnedForm` inside that subscription's
 * record in the static data. Later deliveries are checked against that one form; a new
 * subscription (a new record) learns again. Written only after a verified delivery, and only
 * when the record read is the current one (currentRecord.ts).
 *
 * This process also keeps the forms it learned (at most MAX_LEARNED, by trigger and record), and
 * the pin holds here at once: n8n 2.41 does not save the static data a trigger changed in a
 * request that starts an execution (measured: the e2e area `hostile`), so the record gets the
 * form with the next request n8n does save (an ignored delivery, or the throttled refusal write).
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { isCurrentRecord } from './currentRecord';
import type { CustomSignature } from './hmac';

export const MAX_LEARNED = 1000;
const learned = new Map<string, CustomSignature>();

/** A record's name: its id and sealed secret, which a new subscription always changes. */
const learnedKey = (key: string, record: IDataObject) => `${key}\u0000${String(record.id ?? '')}\u0000${String(record.sealedSecret ?? '')}`;

const ENCODINGS = ['hex', 'base64'];
const KEYS = ['secret', 'whsecBase64'];
const ALGORITHMS = ['sha256', 'sha512'];

/** The pinned form of a stored record (or learned by this process); undefined when none. */
export function pinnedFormOf(key: string, record: IDataObject | undefined): CustomSignature | undefined {
	if (!record) return undefined;
	return storedForm(record) ?? learned.get(learnedKey(key, record));
}

/** True when the record itself holds the pinned form. */
export function isPinnedInRecord(record: IDataObject): boolean {
	return storedForm(record) !== undefined;
}

function storedForm(record: IDataObject): CustomSignature | undefined {
	const form = record.pinnedForm as Partial<CustomSignature> | undefined;
	if (!form || typeof form !== 'object') return undefined;
	const strings = ['header', 'prefix', 'content', 'timestampHeader', 'idHeader'] as const;
	if (!strings.every((field) => typeof form[field] === 'string')) return undefined;
	if (!ENCODINGS.includes(String(form.encoding)) || !KEYS.includes(String(form.key))) return undefined;
	if (!ALGORITHMS.includes(String(form.algorithm))) return undefined;
	return form as CustomSignature;
}

/** Stores the form in the slot's record; false when the record read is not the current one. */
export function pinForm(
	ctx: IWebhookFunctions,
	key: string,
	slot: string,
	record: IDataObject,
	form: CustomSignature,
): boolean {
	if (!learned.has(learnedKey(key, record))) {
		learned.set(learnedKey(key, record), form);
		if (learned.size > MAX_LEARNED) learned.delete(learned.keys().next().value as string);
	}
	if (!isCurrentRecord(key, record)) return false;
	const staticData = ctx.getWorkflowStaticData('node');
	const subscriptions = (staticData.subscriptions ?? {}) as IDataObject;
	// A new object, so that n8n sees the change and saves it with the workflow.
	staticData.subscriptions = { ...subscriptions, [slot]: { ...record, pinnedForm: { ...form } } };
	return true;
}
