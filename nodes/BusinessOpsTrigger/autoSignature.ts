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
 * The search runs only until the subscription's first verified delivery pins the form (the node
 * stores it; later deliveries are checked against that form alone, one HMAC). It is bounded so
 * that a forged request costs little: cheap checks first (a timestamp outside the window, an
 * empty or overlong value and a key shorter than 16 bytes are dropped before anything is
 * hashed), ids ranked so that tracing headers added by proxies come last, at most
 * MAX_SEARCH_HMACS HMACs, and no search at all over a body above MAX_SEARCH_BODY_BYTES.
 * Pure; never throws.
 */
import {
	checkTimestamp,
	decodeDigest,
	fail,
	headerValues,
	hmacOf,
	MIN_KEY_BYTES,
	sameBytes,
	SHORT_KEY,
	type CustomSignature,
	type HeaderBag,
	type VerifyResult,
	whsecKey,
} from './hmac';

const SHA256_BYTES = 32;
/** Bounds on what is tried, so that a request full of headers costs a few HMACs, not hundreds. */
export const MAX_SEARCH_HMACS = 8;
export const MAX_SEARCH_BODY_BYTES = 1024 * 1024;
const MAX_IDS = 3;
const MAX_TIMESTAMPS = 2;
const MAX_SIGNATURES = 16;
const MAX_PART_LENGTH = 200;
/** Ids that proxies and tracing add to every request: tried last. */
const TRACING_ID = /(request|trace|correlation|span|amzn|b3|cf-|forwarded|session)/;
/** Ids that name a delivery or message: tried first, after `webhook-id`. */
const DELIVERY_ID = /(webhook|delivery|message|msg|event)/;
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

type Part = { value: string; header: string };

const usable = (part: Part) => part.value !== '' && part.value.length <= MAX_PART_LENGTH && !/\s/.test(part.value);

function idRank(header: string): number {
	const name = header.toLowerCase();
	if (name === 'webhook-id') return 0;
	if (TRACING_ID.test(name)) return 3;
	return DELIVERY_ID.test(name) ? 1 : 2;
}

/**
 * The signed contents worth an HMAC, most likely first: the body alone always, timestamps only
 * when inside the window (`stale` says one was dropped for that), ids only when usable.
 */
function signedContents(
	headers: HeaderBag,
	signatureTimestamps: Part[],
	nowSeconds: number,
	tolerance: number,
): { contents: Content[]; stale?: string } {
	let stale: string | undefined;
	const timestamps: Part[] = [];
	const timestampHeaders = headerValues(headers, (name) => name.includes('timestamp')).map(([header, value]) => ({ header, value: value.trim() }));
	for (const timestamp of [...signatureTimestamps, ...timestampHeaders]) {
		if (!usable(timestamp)) continue;
		const checked = checkTimestamp(timestamp.value, nowSeconds, tolerance);
		if (typeof checked === 'number') addUnique(timestamps, timestamp, (a, b) => a.value === b.value, MAX_TIMESTAMPS);
		else stale ??= checked.valid ? undefined : checked.reason;
	}
	const idHeader = (name: string) => name === 'webhook-id' || name.endsWith('-id') || name.includes('delivery');
	const ids: Part[] = [];
	const idValues = headerValues(headers, idHeader)
		.map(([header, value]) => ({ header, value: value.trim() }))
		.filter(usable)
		.sort((a, b) => idRank(a.header) - idRank(b.header));
	for (const id of idValues) addUnique(ids, id, (a, b) => a.value === b.value, MAX_IDS);

	const contents: Content[] = [];
	const [first, ...others] = timestamps;
	if (first) {
		if (ids[0]) contents.push({ prefix: `${ids[0].value}.${first.value}.`, timestamp: first, id: ids[0] });
		contents.push({ prefix: `${first.value}.`, timestamp: first });
	}
	contents.push({ prefix: '' });
	for (const timestamp of [first, ...others].filter((part) => part !== undefined)) {
		for (const id of ids) {
			if (timestamp === first && id === ids[0]) continue;
			contents.push({ prefix: `${id.value}.${timestamp.value}.`, timestamp, id });
		}
		if (timestamp !== first) contents.push({ prefix: `${timestamp.value}.`, timestamp });
	}
	return { contents, stale };
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
	if (body.length > MAX_SEARCH_BODY_BYTES) {
		return fail(
			`Auto has not learned the signing form yet and does not search a body over ${MAX_SEARCH_BODY_BYTES} bytes; a smaller delivery (e.g. a test event) pins the form, or choose the scheme under Options`,
		);
	}
	const keys: Array<[CustomSignature['key'], Buffer]> = [['secret', Buffer.from(secret, 'utf8')]];
	if (secret.startsWith('whsec_')) keys.unshift(['whsecBase64', whsecKey(secret)]);
	const usableKeys = keys.filter(([, key]) => key.length >= MIN_KEY_BYTES);
	if (usableKeys.length === 0) return fail(SHORT_KEY);
	const { contents, stale } = signedContents(headers, timestamps, nowSeconds, tolerance);
	let budget = MAX_SEARCH_HMACS;
	for (const content of contents) {
		for (const [keyForm, key] of usableKeys) {
			if (budget-- <= 0) return fail(noMatch(stale));
			const expected = hmacOf('sha256', key, content.prefix, body);
			const match = signatures.find((signature) => sameBytes(signature.digest, expected));
			if (!match) continue;
			const custom = pinned(match, content, keyForm);
			const form = { description: describe(custom), custom, ...(content.id ? { signedId: content.id.value } : {}) };
			return content.timestamp ? { valid: true, form, timestamp: Number(content.timestamp.value) } : { valid: true, form };
		}
	}
	return fail(noMatch(stale));
}

function noMatch(stale: string | undefined): string {
	return stale ? `signature does not match (and ${stale}: a timestamp outside the window is not tried)` : 'signature does not match';
}
