/**
 * Checks the signature of a webhook delivery. Pure and never throws: every failure is a
 * `{ valid: false, reason }` whose reason is short and safe to send back to the caller
 * (it never contains the secret or an expected signature).
 *
 * Schemes (identical to how the API signs; see its sandbox's `signing.ts`):
 * - standardWebhooks: headers `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`
 *   (space-separated list); HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed with the
 *   base64-decoded secret (the part after `whsec_`).
 * - github: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of body>`, keyed with the whole secret (UTF-8).
 * - stripe: `Stripe-Signature: t=<ts>,v1=<hex HMAC-SHA256 of `${t}.${body}`>` (v1 may repeat),
 *   keyed with the whole secret (UTF-8).
 * - auto: accepts a delivery that fully verifies under any scheme whose headers it carries.
 * - none: accepts everything.
 */
import { createHmac, timingSafeEqual } from 'crypto';

export type SignatureScheme = 'auto' | 'standardWebhooks' | 'github' | 'stripe' | 'none';
export type VerifiedScheme = Exclude<SignatureScheme, 'auto'>;

export const DEFAULT_GITHUB_HEADER = 'X-Hub-Signature-256';
export const DEFAULT_STRIPE_HEADER = 'Stripe-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface VerifyOptions {
	scheme: SignatureScheme;
	/** The subscription's signing secret; without one every scheme but `none` fails. */
	secret: string | undefined;
	headers: HeaderBag;
	/** The bytes exactly as received. Without them every scheme but `none` fails. */
	rawBody: Buffer | string | undefined;
	/** Header of the GitHub-style or Stripe-style signature; empty means that scheme's default. */
	signatureHeader?: string;
	toleranceSeconds?: number;
	nowSeconds: number;
}

export type VerifyResult =
	| { valid: true; scheme: VerifiedScheme; timestamp?: number }
	| { valid: false; reason: string };

const STANDARD_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;
const UNIX_SECONDS = /^\d{1,12}$/;

/** A header's value, whatever the case of its name; the first one when it was sent twice. */
export function headerValue(headers: HeaderBag, name: string): string | undefined {
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted) continue;
		const first = Array.isArray(value) ? value[0] : value;
		return typeof first === 'string' ? first : undefined;
	}
	return undefined;
}

function fail(reason: string): VerifyResult {
	return { valid: false, reason };
}

/** Timing-safe comparison of two byte strings; different lengths are simply unequal. */
function sameBytes(a: Buffer, b: Buffer): boolean {
	return a.length === b.length && timingSafeEqual(a, b);
}

function hmac(key: Buffer, ...parts: Array<string | Buffer>): Buffer {
	const mac = createHmac('sha256', key);
	for (const part of parts) mac.update(part);
	return mac.digest();
}

/** The Standard Webhooks key: the base64 after `whsec_` (the whole secret when it has no prefix). */
export function standardWebhooksKey(secret: string): Buffer {
	return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** Checks a timestamp in whole Unix seconds against `now`; stale and future ones both fail. */
function checkTimestamp(value: string, now: number, tolerance: number): VerifyResult | number {
	if (!UNIX_SECONDS.test(value)) return fail('malformed timestamp');
	const timestamp = Number(value);
	if (now - timestamp > tolerance) return fail('timestamp too old');
	if (timestamp - now > tolerance) return fail('timestamp in the future');
	return timestamp;
}

function verifyStandard(options: VerifyOptions, secret: string, body: Buffer, tolerance: number): VerifyResult {
	const { headers, nowSeconds } = options;
	const id = headerValue(headers, 'webhook-id');
	const timestampValue = headerValue(headers, 'webhook-timestamp');
	const signatures = headerValue(headers, 'webhook-signature');
	if (!id || !timestampValue || !signatures) {
		const missing = STANDARD_HEADERS.filter((name) => !headerValue(headers, name));
		return fail(`missing ${missing.join(', ')} header`);
	}
	const timestamp = checkTimestamp(timestampValue.trim(), nowSeconds, tolerance);
	if (typeof timestamp !== 'number') return timestamp;
	const candidates = signatures
		.split(' ')
		.map((entry) => entry.trim())
		.filter((entry) => entry.startsWith('v1,'))
		.map((entry) => entry.slice('v1,'.length))
		.filter((value) => BASE64_SHA256.test(value));
	if (candidates.length === 0) return fail('malformed webhook-signature header');
	const expected = Buffer.from(
		hmac(standardWebhooksKey(secret), `${id}.${timestamp}.`, body).toString('base64'),
	);
	const matches = candidates.some((candidate) => sameBytes(Buffer.from(candidate), expected));
	return matches
		? { valid: true, scheme: 'standardWebhooks', timestamp }
		: fail('signature does not match');
}

function verifyGithub(options: VerifyOptions, secret: string, body: Buffer, header: string): VerifyResult {
	const given = headerValue(options.headers, header)?.trim();
	if (!given) return fail(`missing ${header} header`);
	const hex = given.startsWith('sha256=') ? given.slice('sha256='.length) : '';
	if (!HEX_SHA256.test(hex)) return fail(`malformed ${header} header`);
	const expected = hmac(Buffer.from(secret, 'utf8'), body);
	return sameBytes(Buffer.from(hex, 'hex'), expected)
		? { valid: true, scheme: 'github' }
		: fail('signature does not match');
}

function verifyStripe(
	options: VerifyOptions,
	secret: string,
	body: Buffer,
	header: string,
	tolerance: number,
): VerifyResult {
	const given = headerValue(options.headers, header);
	if (!given) return fail(`missing ${header} header`);
	const timestamps: string[] = [];
	const candidates: string[] = [];
	for (const element of given.split(',')) {
		const separator = element.indexOf('=');
		if (separator < 1) continue;
		const key = element.slice(0, separator).trim();
		const value = element.slice(separator + 1).trim();
		if (key === 't') timestamps.push(value);
		if (key === 'v1' && HEX_SHA256.test(value)) candidates.push(value);
	}
	if (timestamps.length !== 1 || candidates.length === 0) return fail(`malformed ${header} header`);
	const timestamp = checkTimestamp(timestamps[0], options.nowSeconds, tolerance);
	if (typeof timestamp !== 'number') return timestamp;
	const expected = hmac(Buffer.from(secret, 'utf8'), `${timestamp}.`, body);
	const matches = candidates.some((candidate) => sameBytes(Buffer.from(candidate, 'hex'), expected));
	return matches ? { valid: true, scheme: 'stripe', timestamp } : fail('signature does not match');
}

/** Verifies one delivery under the chosen scheme. Never throws. */
export function verifyDelivery(options: VerifyOptions): VerifyResult {
	try {
		if (options.scheme === 'none') return { valid: true, scheme: 'none' };
		const { secret, rawBody, headers } = options;
		if (typeof secret !== 'string' || secret === '') return fail('no signing secret is stored');
		if (rawBody === undefined || rawBody === null) return fail('the raw request body is not available');
		const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
		const tolerance = Math.max(0, options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
		const custom = options.signatureHeader?.trim();
		const githubHeader = custom || DEFAULT_GITHUB_HEADER;
		const stripeHeader = custom || DEFAULT_STRIPE_HEADER;

		switch (options.scheme) {
			case 'standardWebhooks':
				return verifyStandard(options, secret, body, tolerance);
			case 'github':
				return verifyGithub(options, secret, body, githubHeader);
			case 'stripe':
				return verifyStripe(options, secret, body, stripeHeader, tolerance);
			case 'auto': {
				// Every scheme whose header the delivery carries gets a chance; only a full
				// match (HMAC and, where the scheme has one, timestamp) is accepted.
				const attempts: Array<() => VerifyResult> = [];
				if (STANDARD_HEADERS.some((name) => headerValue(headers, name) !== undefined)) {
					attempts.push(() => verifyStandard(options, secret, body, tolerance));
				}
				// With one custom header for both, the value's form tells the two apart.
				const shared = githubHeader.toLowerCase() === stripeHeader.toLowerCase();
				const stripeValue = headerValue(headers, stripeHeader);
				if (stripeValue !== undefined && (!shared || /(^|,)\s*t=/.test(stripeValue))) {
					attempts.push(() => verifyStripe(options, secret, body, stripeHeader, tolerance));
				}
				const githubValue = headerValue(headers, githubHeader);
				if (githubValue !== undefined && (!shared || githubValue.trim().startsWith('sha256='))) {
					attempts.push(() => verifyGithub(options, secret, body, githubHeader));
				}
				if (attempts.length === 0 && shared && githubValue !== undefined) {
					return fail(`malformed ${githubHeader} header`);
				}
				if (attempts.length === 0) {
					return fail(
						`missing signature header (expected webhook-signature, ${githubHeader} or ${stripeHeader})`,
					);
				}
				let first: VerifyResult | undefined;
				for (const attempt of attempts) {
					const result = attempt();
					if (result.valid) return result;
					first ??= result;
				}
				return first as VerifyResult;
			}
			default:
				return fail('unknown signature scheme');
		}
	} catch {
		return fail('signature could not be checked');
	}
}
