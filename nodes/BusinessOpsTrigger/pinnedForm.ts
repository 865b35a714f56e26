/**
 * Auto learns once, then pins: the form of the subscription's first verified delivery (header,
 * value encoding, signed content, key form) is kept as `pinnedForm` inside that subscription's
 * record in the static data. Later deliveries are checked against that one form; a new
 * subscription (a new record) learns again. Written only after a verified delivery, and only
 * when the record read is the current one (currentRecord.ts).
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { isCurrentRecord } from './currentRecord';
import type { CustomSignature } from './hmac';

const ENCODINGS = ['hex', 'base64'];
const KEYS = ['secret', 'whsecBase64'];
const ALGORITHMS = ['sha256', 'sha512'];

/** The pinned form of a stored record; undefined when none (or one this version cannot read). */
export function pinnedFormOf(record: IDataObject | undefined): CustomSignature | undefined {
	const form = record?.pinnedForm as Partial<CustomSignature> | undefined;
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
	if (!isCurrentRecord(key, record)) return false;
	const staticData = ctx.getWorkflowStaticData('node');
	const subscriptions = (staticData.subscriptions ?? {}) as IDataObject;
	// A new object, so that n8n sees the change and saves it with the workflow.
	staticData.subscriptions = { ...subscriptions, [slot]: { ...record, pinnedForm: { ...form } } };
	return true;
}
