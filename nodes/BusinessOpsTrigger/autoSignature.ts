/**
 * Auto: finds where and how the API signs a delivery, without weakening the check. A delivery
 * is accepted only when an HMAC-SHA256 made with the subscription's secret equals one of the
 * signatures it carries; what is searched is where that signature sits:
 *
 * - any header whose name contains `signature` (and the one set under Signature Header); every
 *   value, split on spaces and commas (several signatures for key rotation);
 * - values `v1,<base64>`, `<name>=<hex or base64>` (`sha256=`, `v1=`), bare hex or base64;
 * - signed content `<body>`, `<timestamp>.<body>` or `<id>.<timestamp>.<body>`, the timestamp
 *   from a `t=` element of the signature value or from a header whose name contains
 *   `timestamp`, the id from `webhook-id` or a header whose name ends in `-id` or contains
 *   `delivery`;
 * - the key as the whole secret (UTF-8) or as the base64 after `whsec_`.
 *
 * When the matching content holds a timestamp, the replay window applies. Pure; never throws.
 */
import {
	checkTimestamp,
	decodeDigest,
	fail,
	headerValues,
	hmacOf,
	sameBytes,
	type CustomSignature,
	type HeaderBag,
	type VerifyResult,
	whsecKey,
} from './hmac';

const SHA256_BYTES = 32;
/** Bounds on what is tried, so that a request full of headers costs a few HMACs, not hundreds. */
const MAX_IDS = 4;
const MAX_TIMESTAMPS = 3;
const MAX_SIGNATURES = 16;
const MAX_PART_LENGTH = 200;
const TIMESTAMP_KEYS = new Set(['t', 'ts', 'timestamp']);

interface Signature {
	header: string;
	prefix: string;
	encoding: 'hex' | 'base64';
	digest: Buffer;
}

interface Content {
	prefix: string;
	timestamp?: { value: string; header: string };
	id?: { value: string; header: string };
}

function addUnique<T>(list: T[], item: T, same: (a: T, b: T) => boolean, max: number): void {
	if (list.length < max && !list.some((existing) => same(existing, item))) list.push(item);
}

/** The signatures and `t=` timestamps in the headers whose name contains `signature`. */
function readSignatureHeaders(headers: HeaderBag, extraHeader: string | undefined) {
	const signatures: Signature[] = [];
	const timestamps: Array<{ value: string; header: string }> = [];
	const found = headerValues(headers, (name) => name.includes('signature') || name === extraHeader);
	for (const [header, value] of found) {
		const consider = (text: string, prefix: string) => {
			for (const encoding of ['hex', 'base64'] as const) {
				const digest = decodeDigest(text, encoding, SHA256_BYTES);
				if (digest) {
					addUnique(signatures, { header, prefix, encoding, digest }, (a, b) => a.digest.equals(b.digest) && a.header === b.header, MAX_SIGNATURES);
				}
			}
		};
		const tokens = value.split(/[\s,]+/).filter((token) => token !== '');
		for (let i = 0; i < tokens.length; i++) {
			const token = tokens[i];
			if (/^v\d+$/i.test(token) && i + 1 < tokens.length) {
				consider(tokens[++i], `${token},`);
				continue;
			}
			const equals = token.indexOf('=');
			if (equals > 0 && !/^=+$/.test(token.slice(equals))) {
				const name = token.slice(0, equals);
				const rest = token.slice(equals + 1);
				if (TIMESTAMP_KEYS.has(name.toLowerCase())) {
					addUnique(timestamps, { value: rest, header: `${header} (${name}=)` }, (a, b) => a.value === b.value, MAX_TIMESTAMPS);
					continue;
				}
				consider(rest, `${name}=`);
			}
			consider(token, '');
		}
	}
	return { headerNames: [...new Set(found.map(([name]) => name))], signatures, timestamps };
}

function signedContents(headers: HeaderBag, signatureTimestamps: Array<{ value: string; header: string }>): Content[] {
	const timestamps = [...signatureTimestamps];
	for (const [header, value] of headerValues(headers, (name) => name.includes('timestamp'))) {
		addUnique(timestamps, { value: value.trim(), header }, (a, b) => a.value === b.value, MAX_TIMESTAMPS);
	}
	const ids: Array<{ value: string; header: string }> = [];
	const idHeader = (name: string) => name === 'webhook-id' || name.endsWith('-id') || name.includes('delivery');
	// webhook-id first: the id a Standard Webhooks API signs
	const idValues = headerValues(headers, idHeader).sort(([a], [b]) => Number(b.toLowerCase() === 'webhook-id') - Number(a.toLowerCase() === 'webhook-id'));
	for (const [header, value] of idValues) {
		addUnique(ids, { value: value.trim(), header }, (a, b) => a.value === b.value, MAX_IDS);
	}
	const usable = (part: { value: string }) => part.value !== '' && part.value.length <= MAX_PART_LENGTH;
	const contents: Content[] = [];
	for (const timestamp of timestamps.filter(usable)) {
		for (const id of ids.filter(usable)) contents.push({ prefix: `${id.value}.${timestamp.value}.`, timestamp, id });
		contents.push({ prefix: `${timestamp.value}.`, timestamp });
	}
	contents.push({ prefix: '' });
	return contents;
}

/** The Custom settings that accept exactly this form, so that a user can pin it. */
function pinned(signature: Signature, content: Content, key: CustomSignature['key']): CustomSignature {
	const fromSignatureValue = content.timestamp?.header.endsWith('=)') ?? false;
	return {
		header: signature.header,
		prefix: signature.prefix,
		encoding: signature.encoding,
		content: content.id ? '{ID}.{timestamp}.{body}' : content.timestamp ? '{timestamp}.{body}' : '{body}',
		key,
		timestampHeader: content.timestamp && !fromSignatureValue ? content.timestamp.header : '',
		idHeader: content.id?.header ?? '',
		algorithm: 'sha256',
	};
}

function describe(custom: CustomSignature): string {
	const parts = [
		`header ${custom.header}`,
		`value ${custom.prefix}<${custom.encoding}>`,
		`HMAC-SHA256 of ${custom.content}`,
		`key ${custom.key === 'whsecBase64' ? 'the base64 after whsec_' : 'the whole secret'}`,
	];
	if (custom.content.includes('{timestamp}')) {
		parts.push(`timestamp from ${custom.timestampHeader || 't= in the signature value'}`);
	}
	if (custom.idHeader) parts.push(`id from header ${custom.idHeader}`);
	return parts.join(', ');
}

export function verifyAuto(
	secret: string,
	headers: HeaderBag,
	body: Buffer,
	nowSeconds: number,
	tolerance: number,
	/** A header configured under Signature Header, searched even when its name lacks `signature`. */
	extraHeader?: string,
): VerifyResult {
	const { headerNames, signatures, timestamps } = readSignatureHeaders(headers, extraHeader);
	if (headerNames.length === 0) return fail('missing signature header (no header name contains "signature")');
	if (signatures.length === 0) {
		return fail(`malformed ${headerNames.join(', ')} header: no HMAC-SHA256 value in hex or base64`);
	}
	const keys: Array<[CustomSignature['key'], Buffer]> = [['secret', Buffer.from(secret, 'utf8')]];
	if (secret.startsWith('whsec_')) keys.unshift(['whsecBase64', whsecKey(secret)]);
	for (const content of signedContents(headers, timestamps)) {
		for (const [keyForm, key] of keys) {
			const expected = hmacOf('sha256', key, content.prefix, body);
			const match = signatures.filter((signature) => sameBytes(signature.digest, expected))[0];
			if (!match) continue;
			const custom = pinned(match, content, keyForm);
			if (!content.timestamp) return { valid: true, form: { description: describe(custom), custom } };
			const timestamp = checkTimestamp(content.timestamp.value, nowSeconds, tolerance);
			if (typeof timestamp !== 'number') return timestamp;
			return { valid: true, form: { description: describe(custom), custom }, timestamp };
		}
	}
	return fail('signature does not match');
}
