/** What every signing form is checked with: header lookup, digest spelling, HMAC, timing-safe comparison, the window. Pure. */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type HeaderBag = Record<string, string | string[] | undefined>;

/** Every part of a signature: set by hand (the Custom scheme), by a preset, or found by Auto. */
export interface CustomSignature {
	header: string;
	/** Text right before each signature value, e.g. `sha256=`, `v1,` or `v1=`; empty for a bare value. */
	prefix: string;
	encoding: 'hex' | 'base64';
	/** The signed content: `{body}` with optional `{timestamp}` and `{id}`, e.g. `{timestamp}.{body}`. */
	content: string;
	/** `secret`: the whole secret as UTF-8; `whsecBase64`: the base64 after `whsec_`, decoded. */
	key: 'secret' | 'whsecBase64';
	/** Header of the signed timestamp; empty: the `t=` element of the signature header. */
	timestampHeader: string;
	idHeader: string;
	algorithm: 'sha256' | 'sha512';
}

export interface Received {
	secret: string;
	headers: HeaderBag;
	body: Buffer;
	nowSeconds: number;
	tolerance: number;
}

/** Auto's learned form: the signed content and the key, both covered by the HMAC. */
export type SignedForm = Pick<CustomSignature, 'content' | 'key'>;

/** Which form a delivery verified under; `custom` is Auto's (and Custom's), `signedId` the id the signature covers. */
export interface VerifiedForm {
	/** e.g. `Stripe-style (header Stripe-Signature)`; never contains a secret or a signature. */
	description: string;
	custom?: CustomSignature;
	signedId?: string;
}

/** What a refusal is about, as the log names it (its throttle): `unsigned` is a stranger's junk; `headers` (timestamp, id) a genuine delivery's. */
export const REFUSAL_KINDS = {
	window: 'a timestamp outside the window',
	search: "Auto's search of a first delivery",
	signature: 'a signature that does not match',
	unsigned: 'a missing or malformed signature header',
	headers: 'a timestamp or id header that is missing or malformed',
	secret: 'the signing secret or key',
	settings: "the trigger's settings",
	body: 'the body',
	other: 'other reasons',
};
export type RefusalKind = keyof typeof REFUSAL_KINDS;

export type VerifyResult =
	| { valid: true; form: VerifiedForm; timestamp?: number }
	| { valid: false; kind: RefusalKind; reason: string };

export const DEFAULT_TOLERANCE_SECONDS = 300;

export const refusal = (kind: RefusalKind, reason: string): VerifyResult => ({
	valid: false,
	kind,
	reason,
});

/** A signing key shorter than this (after decoding) is refused: an empty or tiny key is guessable. */
export const MIN_KEY_BYTES = 16;
export const SHORT_KEY = refusal(
	'secret',
	`the signing key is shorter than ${MIN_KEY_BYTES} bytes after decoding`,
);

export function headerValues(
	headers: HeaderBag,
	wanted: (lowerName: string) => boolean,
): Array<[string, string]> {
	const named = Object.entries(headers).filter(([name]) => wanted(name.toLowerCase()));
	return named.flatMap(([name, value]) =>
		[value]
			.flat()
			.flatMap((one) => (typeof one === 'string' ? [[name, one] as [string, string]] : [])),
	);
}

export const valuesOf = (headers: HeaderBag, name: string): string[] =>
	headerValues(headers, (lower) => lower === name.trim().toLowerCase()).map(([, value]) => value);

/** An id or timestamp header a proxy repeated (n8n joins it: `msg_1, msg_1`): its one value, else all of it, which no check accepts. */
export function oneValue(values: string[]): string {
	const parts = values
		.join(',')
		.split(',')
		.map((part) => part.trim());
	return parts.every((part) => part === parts[0]) ? parts[0] : values.join(', ');
}

export const sameBytes = (a: Buffer, b: Buffer): boolean =>
	a.length === b.length && timingSafeEqual(a, b);

export function hmacOf(
	algorithm: CustomSignature['algorithm'],
	key: Buffer,
	...parts: Array<string | Buffer>
): Buffer {
	const mac = createHmac(algorithm, key);
	for (const part of parts) mac.update(part);
	return mac.digest();
}

export const hmacKeyOf = (secret: string, form: CustomSignature['key']): Buffer =>
	form === 'whsecBase64'
		? Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
		: Buffer.from(secret, 'utf8');

const HEX = /^[0-9a-f]+$/i;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The digest a signature value spells, or undefined when it is not `bytes` long in that encoding. */
export function decodeDigest(
	value: string,
	encoding: 'hex' | 'base64',
	bytes: number,
): Buffer | undefined {
	if (encoding === 'hex')
		return value.length === bytes * 2 && HEX.test(value) ? Buffer.from(value, 'hex') : undefined;
	if (!BASE64.test(value)) return undefined;
	const standard = value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
	if (standard.length !== Math.ceil((bytes * 4) / 3)) return undefined;
	const decoded = Buffer.from(standard, 'base64');
	// Only the canonical spelling: base64 decoders ignore the unused low bits of the last character
	return decoded.toString('base64').replace(/=+$/, '') === standard && decoded.length === bytes
		? decoded
		: undefined;
}

/** The Timestamp Tolerance in seconds (the default when unset); `"5m"` or a negative number never turns the window off. */
export function toleranceOf(value: unknown): number | { problem: string } {
	if (value === undefined || value === null || value === '') return DEFAULT_TOLERANCE_SECONDS;
	const seconds =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value)
				: NaN;
	if (Number.isFinite(seconds) && seconds >= 0) return seconds;
	return {
		problem: `"Timestamp Tolerance (Seconds)" must be a number of seconds, 0 or more, e.g. 300 (it is ${JSON.stringify(value)})`,
	};
}

/** A timestamp in whole Unix seconds checked against `now`: stale and future ones both fail. */
export function checkTimestamp(
	value: string,
	now: number,
	tolerance: number,
): VerifyResult | number {
	if (!/^\d{1,12}$/.test(value)) return refusal('headers', 'malformed timestamp');
	const seconds = Number(value);
	if (now - seconds > tolerance) return refusal('window', 'timestamp too old');
	if (seconds - now > tolerance) return refusal('window', 'timestamp in the future');
	return seconds;
}
