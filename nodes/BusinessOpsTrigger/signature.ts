/**
 * Checks the signature of a webhook delivery. Pure and never throws: every failure is a
 * `{ valid: false, reason }` whose reason is short and safe to send back to the caller
 * (it never contains the secret or an expected signature).
 *
 * Schemes:
 * - standardWebhooks: headers `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`
 *   (space-separated list); HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed with the
 *   base64-decoded secret (the part after `whsec_`).
 * - github: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of body>`, keyed with the whole secret (UTF-8).
 * - stripe: `Stripe-Signature: t=<ts>,v1=<hex HMAC-SHA256 of `${t}.${body}`>` (v1 may repeat),
 *   keyed with the whole secret (UTF-8).
 *
 * A signature header sent twice (a proxy, or the API during key rotation) arrives joined
 * (`a, b`, as Node's HTTP server joins it) or as an array: every entry of every value is a
 * candidate and one valid entry verifies. The Stripe-style entries must then name one `t=`.
 * - auto: finds the API's form (autoSignature.ts), narrowed to the signed form it learned from
 *   this subscription's accepted deliveries; custom: set by hand (customSignature.ts).
 *
 * Every key shorter than MIN_KEY_BYTES after decoding is refused, whatever the scheme.
 * - none: accepts everything.
 */
import { verifyAuto } from './autoSignature';
import { verifyCustom } from './customSignature';
import {
	checkTimestamp,
	DEFAULT_TOLERANCE_SECONDS,
	fail,
	headerValue,
	headerValues,
	hmacOf,
	MIN_KEY_BYTES,
	sameBytes,
	SHORT_KEY,
	whsecKey,
	type CustomSignature,
	type HeaderBag,
	type SignedForm,
	type VerifyResult,
} from './hmac';

export type SignatureScheme = 'auto' | 'standardWebhooks' | 'github' | 'stripe' | 'custom' | 'none';

export const DEFAULT_GITHUB_HEADER = 'X-Hub-Signature-256';
export const DEFAULT_STRIPE_HEADER = 'Stripe-Signature';

export interface VerifyOptions {
	scheme: SignatureScheme;
	/** The subscription's signing secret; without one every scheme but `none` fails. */
	secret: string | undefined;
	headers: HeaderBag;
	/** The bytes exactly as received. Without them every scheme but `none` fails. */
	rawBody: Buffer | string | undefined;
	/** Header of the GitHub-style or Stripe-style signature; empty means that scheme's default. Auto looks there too. */
	signatureHeader?: string;
	/** The Custom scheme's settings. */
	custom?: CustomSignature;
	/** Auto: the signed form of this subscription's accepted deliveries (signed content, key form). */
	learned?: SignedForm;
	/** Seconds; anything but a number 0 or more refuses every delivery that carries a timestamp. */
	toleranceSeconds?: number;
	nowSeconds: number;
}

const STANDARD_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

/** Every value of the header `name` (any case), one per header line: arrays and Node's joined `a, b` alike. */
function allValues(headers: HeaderBag, name: string): string[] {
	const wanted = name.toLowerCase();
	return headerValues(headers, (lower) => lower === wanted).map(([, value]) => value);
}

/** The `v1,<base64>` entries of `webhook-signature` values, however repeated headers were joined. */
function standardCandidates(values: string[]): string[] {
	const candidates: string[] = [];
	for (const value of values) {
		const tokens = value.split(/[\s,]+/).filter((token) => token !== '');
		for (let i = 0; i < tokens.length; i++) {
			if (!/^v\d+$/.test(tokens[i]) || i + 1 >= tokens.length) continue;
			const version = tokens[i];
			const signature = tokens[++i];
			if (version === 'v1' && BASE64_SHA256.test(signature)) candidates.push(signature);
		}
	}
	return candidates;
}

/** A Standard Webhooks header, under its `webhook-` name or else its `svix-` one (Svix signs with those). */
const standardHeader = (headers: HeaderBag, name: string) => (headerValue(headers, name) !== undefined ? name : name.replace('webhook-', 'svix-'));

function verifyStandard(options: VerifyOptions, secret: string, body: Buffer, tolerance: number): VerifyResult {
	const { headers, nowSeconds } = options;
	const id = headerValue(headers, standardHeader(headers, 'webhook-id'));
	const timestampValue = headerValue(headers, standardHeader(headers, 'webhook-timestamp'));
	const signatures = allValues(headers, standardHeader(headers, 'webhook-signature')).filter((value) => value.trim() !== '');
	if (!id || !timestampValue || signatures.length === 0) {
		const missing = STANDARD_HEADERS.filter((name) => !headerValue(headers, name));
		return fail(`missing ${missing.join(', ')} header`);
	}
	const timestamp = checkTimestamp(timestampValue.trim(), nowSeconds, tolerance);
	if (typeof timestamp !== 'number') return timestamp;
	const candidates = standardCandidates(signatures);
	if (candidates.length === 0) return fail('malformed webhook-signature header');
	const key = whsecKey(secret);
	if (key.length < MIN_KEY_BYTES) return fail(SHORT_KEY);
	const expected = Buffer.from(hmacOf('sha256', key, `${id}.${timestamp}.`, body).toString('base64'));
	const matches = candidates.some((candidate) => sameBytes(Buffer.from(candidate), expected));
	return matches
		? { valid: true, form: { description: 'Standard Webhooks', signedId: id }, timestamp }
		: fail('signature does not match');
}

function verifyGithub(options: VerifyOptions, secret: string, body: Buffer, header: string): VerifyResult {
	const entries = allValues(options.headers, header).flatMap((value) => value.split(/[\s,]+/)).filter((entry) => entry !== '');
	if (entries.length === 0) return fail(`missing ${header} header`);
	const candidates = entries
		.filter((entry) => entry.startsWith('sha256='))
		.map((entry) => entry.slice('sha256='.length))
		.filter((hex) => HEX_SHA256.test(hex));
	if (candidates.length === 0) return fail(`malformed ${header} header`);
	const key = Buffer.from(secret, 'utf8');
	if (key.length < MIN_KEY_BYTES) return fail(SHORT_KEY);
	const expected = hmacOf('sha256', key, body);
	return candidates.some((hex) => sameBytes(Buffer.from(hex, 'hex'), expected))
		? { valid: true, form: { description: `GitHub-style (header ${header})` } }
		: fail('signature does not match');
}

function verifyStripe(
	options: VerifyOptions,
	secret: string,
	body: Buffer,
	header: string,
	tolerance: number,
): VerifyResult {
	const given = allValues(options.headers, header).filter((value) => value !== '');
	if (given.length === 0) return fail(`missing ${header} header`);
	const timestamps = new Set<string>();
	const candidates: string[] = [];
	// a header sent twice is joined with ", " or comes as an array: its elements are read alike
	for (const element of given.join(',').split(',')) {
		const separator = element.indexOf('=');
		if (separator < 1) continue;
		const key = element.slice(0, separator).trim();
		const value = element.slice(separator + 1).trim();
		if (key === 't') timestamps.add(value);
		if (key === 'v1' && HEX_SHA256.test(value)) candidates.push(value);
	}
	// one delivery is signed at one time: repeated entries name the same t=
	if (timestamps.size !== 1 || candidates.length === 0) return fail(`malformed ${header} header`);
	const timestamp = checkTimestamp([...timestamps][0], options.nowSeconds, tolerance);
	if (typeof timestamp !== 'number') return timestamp;
	const key = Buffer.from(secret, 'utf8');
	if (key.length < MIN_KEY_BYTES) return fail(SHORT_KEY);
	const expected = hmacOf('sha256', key, `${timestamp}.`, body);
	const matches = candidates.some((candidate) => sameBytes(Buffer.from(candidate, 'hex'), expected));
	return matches
		? { valid: true, form: { description: `Stripe-style (header ${header})` }, timestamp }
		: fail('signature does not match');
}

/** Verifies one delivery under the chosen scheme. Never throws. */
export function verifyDelivery(options: VerifyOptions): VerifyResult {
	try {
		if (options.scheme === 'none') return { valid: true, form: { description: 'None (not checked)' } };
		const { secret, rawBody, headers, nowSeconds } = options;
		if (typeof secret !== 'string' || secret === '') return fail('no signing secret is stored');
		if (rawBody === undefined || rawBody === null) return fail('the raw request body is not available');
		const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
		// NaN or a negative value is passed on as it is: checkTimestamp then refuses, never widens.
		const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
		const configured = options.signatureHeader?.trim();

		switch (options.scheme) {
			case 'standardWebhooks':
				return verifyStandard(options, secret, body, tolerance);
			case 'github':
				return verifyGithub(options, secret, body, configured || DEFAULT_GITHUB_HEADER);
			case 'stripe':
				return verifyStripe(options, secret, body, configured || DEFAULT_STRIPE_HEADER, tolerance);
			case 'custom':
				if (!options.custom) return fail('Custom signature: no settings');
				return verifyCustom(options.custom, secret, headers, body, nowSeconds, tolerance);
			case 'auto':
				return verifyAuto(secret, headers, body, nowSeconds, tolerance, configured?.toLowerCase(), options.learned);
			default:
				return fail('unknown signature scheme');
		}
	} catch {
		return fail('signature could not be checked');
	}
}
