/**
 * The pieces every signing form is checked with: header lookup, HMAC, timing-safe comparison,
 * the replay window, and the never-throwing result type. Pure.
 */
import { createHmac, timingSafeEqual } from 'crypto';

export type HeaderBag = Record<string, string | string[] | undefined>;
export type HmacAlgorithm = 'sha256' | 'sha512';

/** Which form a delivery verified under, said in words a user can pin as a Custom scheme. */
export interface VerifiedForm {
	/** e.g. `Stripe-style (header Stripe-Signature)`; never contains a secret or a signature. */
	description: string;
	/** Custom settings that accept exactly this form; absent for the named schemes. */
	custom?: CustomSignature;
	/** Auto: what the signature covered besides the body, and the key form; all that Auto remembers. */
	signed?: SignedForm;
	/** The message id the signature covers (Standard Webhooks, or `{ID}` in the signed content). */
	signedId?: string;
}

export type VerifyResult =
	| { valid: true; form: VerifiedForm; timestamp?: number }
	| { valid: false; reason: string };

/** What a signature covers besides the body, and which key made it: both are covered by the HMAC. */
export interface SignedForm {
	content: '{body}' | '{timestamp}.{body}' | '{ID}.{timestamp}.{body}';
	key: CustomSignature['key'];
}

/** Every part of a signature set by hand (the Custom scheme). */
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
	/** Header of the message id used by `{id}`. */
	idHeader: string;
	algorithm: HmacAlgorithm;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;
/** A signing key shorter than this (after decoding) is refused: an empty or tiny key is guessable. */
export const MIN_KEY_BYTES = 16;
export const SHORT_KEY = `the signing key is shorter than ${MIN_KEY_BYTES} bytes after decoding`;
export const DIGEST_BYTES: Record<HmacAlgorithm, number> = { sha256: 32, sha512: 64 };

export function fail(reason: string): VerifyResult {
	return { valid: false, reason };
}

/** Every value of the headers whose name passes `wanted` (case-insensitive), repeated ones included. */
export function headerValues(headers: HeaderBag, wanted: (lowerName: string) => boolean): Array<[string, string]> {
	const found: Array<[string, string]> = [];
	for (const [name, value] of Object.entries(headers)) {
		if (!wanted(name.toLowerCase())) continue;
		for (const one of Array.isArray(value) ? value : [value]) {
			if (typeof one === 'string') found.push([name, one]);
		}
	}
	return found;
}

/** A header's value, whatever the case of its name; the first one when it was sent twice. */
export function headerValue(headers: HeaderBag, name: string): string | undefined {
	const wanted = name.toLowerCase();
	return headerValues(headers, (lower) => lower === wanted)[0]?.[1];
}

/** Timing-safe comparison of two byte strings; different lengths are simply unequal. */
export function sameBytes(a: Buffer, b: Buffer): boolean {
	return a.length === b.length && timingSafeEqual(a, b);
}

export function hmacOf(algorithm: HmacAlgorithm, key: Buffer, ...parts: Array<string | Buffer>): Buffer {
	const mac = createHmac(algorithm, key);
	for (const part of parts) mac.update(part);
	return mac.digest();
}

/** The key of Standard Webhooks: the base64 after `whsec_` (the whole secret when it has no prefix). */
export function whsecKey(secret: string): Buffer {
	return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

export function keyOf(secret: string, form: CustomSignature['key']): Buffer {
	return form === 'whsecBase64' ? whsecKey(secret) : Buffer.from(secret, 'utf8');
}

const HEX = /^[0-9a-f]+$/i;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The digest a signature value spells, or undefined when it is not `bytes` long in that encoding. */
export function decodeDigest(value: string, encoding: 'hex' | 'base64', bytes: number): Buffer | undefined {
	if (encoding === 'hex') {
		return value.length === bytes * 2 && HEX.test(value) ? Buffer.from(value, 'hex') : undefined;
	}
	if (!BASE64.test(value)) return undefined;
	const unpadded = value.replace(/=+$/, '');
	if (unpadded.length !== Math.ceil((bytes * 4) / 3)) return undefined;
	const standard = unpadded.replace(/-/g, '+').replace(/_/g, '/');
	const decoded = Buffer.from(standard, 'base64');
	// Only the canonical spelling: the unused low bits of the last character must be zero, so a
	// changed character always changes the digest (base64 decoders ignore those bits).
	if (decoded.toString('base64').replace(/=+$/, '') !== standard) return undefined;
	return decoded.length === bytes ? decoded : undefined;
}

/**
 * The Timestamp Tolerance as a number of seconds, or what is wrong with it. A value that is not
 * a number (`"5m"` from an expression) or is negative must never turn the replay window off.
 */
export function toleranceOf(value: unknown): number | { problem: string } {
	if (value === undefined || value === null || value === '') return DEFAULT_TOLERANCE_SECONDS;
	const seconds = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
	if (!Number.isFinite(seconds) || seconds < 0) {
		return {
			problem: `"Timestamp Tolerance (Seconds)" must be a number of seconds, 0 or more (it is ${JSON.stringify(value)}); set it under Options, e.g. 300`,
		};
	}
	return seconds;
}

const UNIX_SECONDS = /^\d{1,12}$/;

/** Checks a timestamp in whole Unix seconds against `now`; stale and future ones both fail. */
export function checkTimestamp(value: string, now: number, tolerance: number): VerifyResult | number {
	if (!Number.isFinite(tolerance) || tolerance < 0) return fail('the timestamp tolerance is not a number of seconds');
	if (!UNIX_SECONDS.test(value)) return fail('malformed timestamp');
	const seconds = Number(value);
	if (now - seconds > tolerance) return fail('timestamp too old');
	if (seconds - now > tolerance) return fail('timestamp in the future');
	return seconds;
}
