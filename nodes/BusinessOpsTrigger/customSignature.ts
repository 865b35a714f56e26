/**
 * The Custom scheme: every part of the signature set by hand. `customProblem` checks the
 * settings (activation refuses bad ones with that message); `verifyCustom` checks a delivery.
 * Pure; `verifyCustom` never throws.
 */
import {
	checkTimestamp,
	DIGEST_BYTES,
	decodeDigest,
	fail,
	headerValues,
	hmacOf,
	keyOf,
	MIN_KEY_BYTES,
	sameBytes,
	SHORT_KEY,
	type CustomSignature,
	type HeaderBag,
	type VerifyResult,
} from './hmac';

/** Placeholders are matched whatever their case: {ID} and {id} are the same. */
const PLACEHOLDERS = /\{(body|timestamp|id)\}/gi;
/** A `t=` (or `ts=`, `timestamp=`) element of the signature header, as Auto reads it. */
const TIMESTAMP_ELEMENT = /(?:^|[\s,;])(?:t|ts|timestamp)=(\d+)/i;

/** What is wrong with the Custom settings, in words that say what to fix; undefined when fine. */
export function customProblem(custom: CustomSignature): string | undefined {
	if (custom.header.trim() === '') return 'Custom signature: set "Signature Header"';
	const content = custom.content;
	if ((content.match(/\{body\}/gi) ?? []).length !== 1) {
		return 'Custom signature: "Signed Content" must contain {body} exactly once, e.g. {timestamp}.{body}';
	}
	const unknown = content.replace(PLACEHOLDERS, '').match(/\{[^}]*\}/);
	if (unknown) return `Custom signature: "Signed Content" has ${unknown[0]}; use {body}, {timestamp} and {ID}`;
	if (/\{id\}/i.test(content) && custom.idHeader.trim() === '') {
		return 'Custom signature: "Signed Content" uses {ID}, so set "ID Header"';
	}
	return undefined;
}

/** Each value after the prefix, cut where the encoding's alphabet ends. */
function valuesAfterPrefix(value: string, prefix: string, encoding: 'hex' | 'base64'): string[] {
	const alphabet = encoding === 'hex' ? /^[0-9a-fA-F]+/ : /^[A-Za-z0-9+/_-]+={0,2}/;
	if (prefix === '') return value.split(/[\s,]+/).filter((token) => token !== '');
	const values: string[] = [];
	for (let at = value.indexOf(prefix); at !== -1; at = value.indexOf(prefix, at + prefix.length)) {
		const match = alphabet.exec(value.slice(at + prefix.length));
		if (match) values.push(match[0]);
	}
	return values;
}

export function verifyCustom(
	custom: CustomSignature,
	secret: string,
	headers: HeaderBag,
	body: Buffer,
	nowSeconds: number,
	tolerance: number,
): VerifyResult {
	const problem = customProblem(custom);
	if (problem) return fail(problem);
	const header = custom.header.trim();
	const given = headerValues(headers, (name) => name === header.toLowerCase()).map(([, value]) => value);
	if (given.length === 0) return fail(`missing ${header} header`);
	const bytes = DIGEST_BYTES[custom.algorithm];
	const signatures = given
		.flatMap((value) => valuesAfterPrefix(value, custom.prefix, custom.encoding))
		.map((value) => decodeDigest(value, custom.encoding, bytes))
		.filter((digest): digest is Buffer => digest !== undefined);
	if (signatures.length === 0) {
		return fail(`malformed ${header} header: expected ${custom.prefix}<${custom.encoding} HMAC-${custom.algorithm.toUpperCase()}>`);
	}

	let timestamp: number | undefined;
	let timestampText = '';
	if (/\{timestamp\}/i.test(custom.content)) {
		const source = custom.timestampHeader.trim();
		const found = source
			? headerValues(headers, (name) => name === source.toLowerCase())[0]?.[1]?.trim()
			: TIMESTAMP_ELEMENT.exec(given.join(','))?.[1];
		if (found === undefined) return fail(`missing timestamp (${source ? `header ${source}` : `t= in ${header}`})`);
		const checked = checkTimestamp(found, nowSeconds, tolerance);
		if (typeof checked !== 'number') return checked;
		timestamp = checked;
		timestampText = found;
	}
	let id = '';
	if (/\{id\}/i.test(custom.content)) {
		const idHeader = custom.idHeader.trim();
		const found = headerValues(headers, (name) => name === idHeader.toLowerCase())[0]?.[1];
		if (found === undefined || found === '') return fail(`missing ${idHeader} header`);
		id = found;
	}

	const key = keyOf(secret, custom.key);
	if (key.length < MIN_KEY_BYTES) return fail(SHORT_KEY);
	const [before, after] = custom.content.split(/\{body\}/i);
	const fill = (text: string) => text.replace(/\{timestamp\}/gi, timestampText).replace(/\{id\}/gi, id);
	const expected = hmacOf(custom.algorithm, key, fill(before), body, fill(after));
	if (!signatures.some((signature) => sameBytes(signature, expected))) return fail('signature does not match');
	return {
		valid: true,
		form: { description: `Custom (header ${header})`, custom, ...(id !== '' ? { signedId: id } : {}) },
		...(timestamp !== undefined ? { timestamp } : {}),
	};
}
