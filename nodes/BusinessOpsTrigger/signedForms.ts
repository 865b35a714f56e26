/**
 * Auto's memory: the signed form (signed content and key form, both covered by the HMAC) of a
 * subscription's accepted deliveries, kept in this n8n process by trigger and subscription
 * record (its id and sealed secret, which a new subscription always changes). Written only after a
 * delivery verified and its body parsed as a JSON object, so that nothing a request without a
 * valid signature sends, and no part of a request the signature does not cover (header names,
 * value prefixes, header order), can set or change it. At most MAX_SIGNED_FORMS subscriptions.
 */
import { BoundedMap } from '../shared/boundedMap';
import type { SignedForm } from './hmac';

export const MAX_SIGNED_FORMS = 1000;
const forms = new BoundedMap<string, SignedForm>(MAX_SIGNED_FORMS);

/** The name a trigger's subscription record is kept under; undefined when there is no record. */
export function recordName(trigger: string, record: { id?: unknown; sealedSecret?: unknown } | undefined): string | undefined {
	return record ? `${trigger}\u0000${String(record.id ?? '')}\u0000${String(record.sealedSecret ?? '')}` : undefined;
}

export function signedFormOf(record: string | undefined): SignedForm | undefined {
	return record === undefined ? undefined : forms.get(record);
}

export function learnSignedForm(record: string | undefined, form: SignedForm | undefined): void {
	if (record !== undefined && form && !forms.has(record)) forms.set(record, form);
}

/** How many subscriptions' forms are kept (for tests of the bound). */
export const signedFormsKept = (): number => forms.size;
