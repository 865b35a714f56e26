/**
 * Auto's memory: the signed form (signed content and key form, both covered by the HMAC) of a
 * subscription's accepted deliveries, kept in this n8n process by trigger and subscription
 * record (its id and sealed secret, which a new subscription always changes). Written only after a
 * delivery verified and its body parsed as a JSON object, so that nothing a request without a
 * valid signature sends, and no part of a request the signature does not cover (header names,
 * value prefixes, header order), can set or change it. At most MAX_SIGNED_FORMS subscriptions.
 *
 * A record saved by a version before issue 29 may hold `pinnedForm`, the form of a delivery that
 * verified then: its signed content and key form (covered by that HMAC, so no replay could have
 * changed them) stand in until this process learns the form itself; its header names and prefix
 * (which a replay could) are never read.
 */
import { BoundedMap } from '../shared/boundedMap';
import type { SignedForm } from './hmac';

export const MAX_SIGNED_FORMS = 1000;
const forms = new BoundedMap<string, SignedForm>(MAX_SIGNED_FORMS);

/** The name a trigger's subscription record is kept under; undefined when there is no record. */
export function recordName(trigger: string, record: { id?: unknown; sealedSecret?: unknown } | undefined): string | undefined {
	return record ? `${trigger}\u0000${String(record.id ?? '')}\u0000${String(record.sealedSecret ?? '')}` : undefined;
}

const CONTENTS: ReadonlyArray<SignedForm['content']> = ['{body}', '{timestamp}.{body}', '{ID}.{timestamp}.{body}'];
const KEYS: ReadonlyArray<SignedForm['key']> = ['secret', 'whsecBase64'];

/** The signed aspects of a `pinnedForm` saved before issue 29, when it names a supported form. */
function savedSignedForm(saved: unknown): SignedForm | undefined {
	if (!saved || typeof saved !== 'object') return undefined;
	const { content, key, algorithm } = saved as Record<string, unknown>;
	if (algorithm !== undefined && algorithm !== 'sha256') return undefined;
	const known = CONTENTS.find((one) => one === content);
	const keyForm = KEYS.find((one) => one === key);
	return known && keyForm ? { content: known, key: keyForm } : undefined;
}

export function signedFormOf(record: string | undefined, stored?: { pinnedForm?: unknown }): SignedForm | undefined {
	return (record === undefined ? undefined : forms.get(record)) ?? savedSignedForm(stored?.pinnedForm);
}

export function learnSignedForm(record: string | undefined, form: SignedForm | undefined): void {
	if (record !== undefined && form && !forms.has(record)) forms.set(record, form);
}

/** How many subscriptions' forms are kept (for tests of the bound). */
export const signedFormsKept = (): number => forms.size;
