/** Auto: finds where and how the API signs a delivery, with bounded work (docs/signatures.md); a learned form narrows it. */
import { REPUBLISH } from '../../shared/api/activation';
import {
	checkTimestamp,
	decodeDigest,
	headerValues,
	hmacOf,
	hmacKeyOf,
	MIN_KEY_BYTES,
	oneValue,
	refusal,
	sameBytes,
	SHORT_KEY,
	type CustomSignature,
	type HeaderBag,
	type Received,
	type SignedForm,
	type VerifyResult,
} from './hmac';

/** Bounds, so that a request full of headers costs a few HMACs, not hundreds; with a learned form, two. */
export const MAX_SEARCH_HMACS = 8;
export const MAX_SEARCH_BODY_BYTES = 1024 * 1024;
const MAX_SEARCH_HASHED_BYTES = 512 * 1024;
const MAX_LEARNED_HMACS = 2;
const MAX_IDS = 3;
const MAX_TIMESTAMPS = 2;
const MAX_SIGNATURES = 16;
const MAX_PART_LENGTH = 200;
/** Ids that proxies, CDNs and tracing add to requests: never a signed id. */
const TRACING_ID =
	/(request|trace|correlation|span|amzn|b3|cf-|forwarded|session|vercel|arr-log|cloud|edge|log-id)/;
/** Ids that name a delivery or message: tried before any other `*-id`. */
const DELIVERY_ID = /(webhook|delivery|message|msg|event)/;
const TIMESTAMP_KEYS = new Set(['t', 'ts', 'timestamp']);
const KNOWN_IDS = ['webhook-id', 'svix-id'];
const KNOWN_TIMESTAMPS = ['webhook-timestamp', 'svix-timestamp'];

type Signature = { header: string; prefix: string; encoding: 'hex' | 'base64'; digest: Buffer };
type Part = { value: string; header: string; rank: number };
/** What the HMAC covers before the body, and the timestamp and id it holds. */
type Content = { prefix: string; timestamp?: Part; id?: Part };

function addUnique<T>(list: T[], item: T, same: (a: T, b: T) => boolean, max: number): void {
	if (list.length < max && !list.some((existing) => same(existing, item))) list.push(item);
}

function readSignatureHeaders(headers: HeaderBag, extraHeader: string | undefined) {
	const signatures: Signature[] = [];
	const timestamps: Part[] = [];
	const found = headerValues(headers, (name) => name.includes('signature') || name === extraHeader);
	for (const [header, value] of found) {
		const consider = (text: string, prefix: string) => {
			for (const encoding of ['hex', 'base64'] as const) {
				const digest = decodeDigest(text, encoding, 32);
				if (digest)
					addUnique(
						signatures,
						{ header, prefix, encoding, digest },
						(a, b) => a.digest.equals(b.digest) && a.header === b.header,
						MAX_SIGNATURES,
					);
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
					timestamps.push({ value: rest, header: `${header} (${name}=)`, rank: 0 });
					continue;
				}
				consider(rest, `${name}=`);
			}
			consider(token, '');
		}
	}
	return { headerNames: [...new Set(found.map(([name]) => name))], signatures, timestamps };
}

const usable = (part: Part) =>
	part.value !== '' && part.value.length <= MAX_PART_LENGTH && !/\s/.test(part.value);

/** A signature header's family prefixes (`x-signature`, the stem `x-business-ops-`): the API's headers, not a proxy's. */
function familyOf(signatureHeader: string): string[] {
	const name = signatureHeader.toLowerCase();
	const at = name.indexOf('signature');
	const stem = at > 0 ? name.slice(0, at) : '';
	return stem.replace(/^x-/, '').replace(/[-_]/g, '') !== '' ? [name, stem] : [name];
}

function ranked(parts: Part[], max: number): Part[] {
	const chosen: Part[] = [];
	for (const part of parts.filter(usable).sort((a, b) => a.rank - b.rank))
		addUnique(chosen, part, (a, b) => a.value === b.value, max);
	return chosen;
}

/** Timestamp and id candidates, best-named first so a proxy's never push out the API's; stale timestamps take no place. */
function candidates(
	headers: HeaderBag,
	signatureTimestamps: Part[],
	signatureHeader: string,
	nowSeconds: number,
	tolerance: number,
) {
	const family = familyOf(signatureHeader);
	const inFamily = (name: string) =>
		family.some((prefix) => name !== prefix && name.startsWith(prefix));
	const partsOf = (wanted: (name: string) => boolean, rankOf: (name: string) => number) =>
		headerValues(headers, wanted).map(([header, value]) => ({
			header,
			value: oneValue([value]),
			rank: rankOf(header.toLowerCase()),
		}));
	const timestampHeaders = partsOf(
		(name) => name.includes('timestamp'),
		(name) => (KNOWN_TIMESTAMPS.includes(name) ? 1 : inFamily(name) ? 2 : 3),
	);
	const byRank = [...signatureTimestamps, ...timestampHeaders]
		.filter(usable)
		.sort((a, b) => a.rank - b.rank);
	const checked = byRank.map((timestamp) => checkTimestamp(timestamp.value, nowSeconds, tolerance));
	// the reason names the best-named timestamp only: a proxy's stale one says nothing about the delivery
	const stale = typeof checked[0] === 'object' && !checked[0].valid ? checked[0] : undefined;
	const timestamps = ranked(
		byRank.filter((_, index) => typeof checked[index] === 'number'),
		MAX_TIMESTAMPS,
	);
	const isId = (name: string) =>
		(name.endsWith('-id') || name.includes('delivery')) && !TRACING_ID.test(name);
	const ids = ranked(
		partsOf(isId, (name) =>
			KNOWN_IDS.includes(name) ? 0 : inFamily(name) ? 1 : DELIVERY_ID.test(name) ? 2 : 3,
		),
		MAX_IDS,
	);
	return { timestamps, ids, stale };
}

function contentsOf(template: SignedForm['content'], timestamps: Part[], ids: Part[]): Content[] {
	if (template === '{body}') return [{ prefix: '' }];
	if (template === '{timestamp}.{body}')
		return timestamps.map((timestamp) => ({ prefix: `${timestamp.value}.`, timestamp }));
	return timestamps.flatMap((timestamp) =>
		ids.map((id) => ({ prefix: `${id.value}.${timestamp.value}.`, timestamp, id })),
	);
}

function searchOrder(timestamps: Part[], ids: Part[], bodyFirst: boolean): Content[] {
	const withId = contentsOf('{ID}.{timestamp}.{body}', timestamps, ids);
	const withTimestamp = contentsOf('{timestamp}.{body}', timestamps, ids);
	// a timestamp in the signature value (`t=`, Stripe's shape) is signed without an id: that first
	const first =
		timestamps[0]?.rank === 0
			? [...withTimestamp.slice(0, 1), ...withId.slice(0, 1)]
			: [...withId.slice(0, 1), ...withTimestamp.slice(0, 1)];
	const rest = [...withId.slice(1), ...withTimestamp.slice(1)];
	return bodyFirst ? [{ prefix: '' }, ...first, ...rest] : [...first, { prefix: '' }, ...rest];
}

/** The Custom settings that accept exactly this delivery's form (for the log: set it by hand). */
function asCustom(
	signature: Signature,
	content: Content,
	key: CustomSignature['key'],
): CustomSignature {
	return {
		header: signature.header,
		prefix: signature.prefix,
		encoding: signature.encoding,
		content: content.id
			? '{ID}.{timestamp}.{body}'
			: content.timestamp
				? '{timestamp}.{body}'
				: '{body}',
		key,
		timestampHeader:
			content.timestamp && content.timestamp.rank !== 0 ? content.timestamp.header : '',
		idHeader: content.id?.header ?? '',
		algorithm: 'sha256',
	};
}

const keyWords = (key: CustomSignature['key']) =>
	key === 'whsecBase64' ? 'the base64 after whsec_' : 'the whole secret';

function formText(custom: CustomSignature): string {
	const parts = [
		`header ${custom.header}`,
		`value ${custom.prefix}<${custom.encoding}>`,
		`HMAC-SHA256 of ${custom.content}`,
		`key ${keyWords(custom.key)}`,
	];
	if (custom.content.includes('{timestamp}'))
		parts.push(`timestamp from ${custom.timestampHeader || 't= in the signature value'}`);
	if (custom.idHeader) parts.push(`id from header ${custom.idHeader}`);
	return parts.join(', ');
}

const NOT_LEARNED =
	'Auto has not yet seen a verified delivery of this subscription in this n8n process and';
const TEACH =
	'a smaller delivery (e.g. a test event) teaches it the signed form, or choose the scheme under Options';

export function verifyAuto(
	received: Received,
	/** A header configured under Signature Header, searched even when its name lacks `signature`. */
	extraHeader?: string,
	/** The signed form of an earlier accepted delivery of this subscription: only it is tried. */
	learned?: SignedForm,
): VerifyResult {
	const { secret, headers, body, nowSeconds, tolerance } = received;
	const {
		headerNames,
		signatures,
		timestamps: signatureTimestamps,
	} = readSignatureHeaders(headers, extraHeader);
	if (headerNames.length === 0)
		return refusal('unsigned', 'missing signature header (no header name contains "signature")');
	if (signatures.length === 0)
		return refusal(
			'unsigned',
			`malformed ${headerNames.join(', ')} header: no HMAC-SHA256 value in hex or base64`,
		);
	// each header's t= elements name one time (a header sent twice counts as one); a relay's own header may name another
	const ownTimestamps = (name: string) =>
		signatureTimestamps.filter((timestamp) => timestamp.header.startsWith(`${name} (`));
	if (
		headerNames.some(
			(name) => new Set(ownTimestamps(name).map((timestamp) => timestamp.value)).size > 1,
		)
	) {
		return refusal(
			'unsigned',
			`malformed ${headerNames.join(', ')} header: its t= elements name different times`,
		);
	}
	if (!learned && body.length > MAX_SEARCH_BODY_BYTES) {
		return refusal(
			'search',
			`${NOT_LEARNED} does not search a body over ${MAX_SEARCH_BODY_BYTES} bytes; ${TEACH}`,
		);
	}
	const forms: Array<CustomSignature['key']> = secret.startsWith('whsec_')
		? ['secret', 'whsecBase64']
		: ['secret'];
	const usableKeys = forms
		.filter((form) => !learned || form === learned.key)
		.map((form) => [form, hmacKeyOf(secret, form)] as const)
		.filter(([, key]) => key.length >= MIN_KEY_BYTES);
	if (usableKeys.length === 0) return SHORT_KEY;
	const searchBudget = Math.min(
		MAX_SEARCH_HMACS,
		Math.max(2, Math.floor(MAX_SEARCH_HASHED_BYTES / Math.max(1, body.length))),
	);
	const budget = learned ? MAX_LEARNED_HMACS : searchBudget;
	let stale: (VerifyResult & { valid: false }) | undefined;
	const perHeader = [...new Set(signatures.map((signature) => signature.header))].map((name) => {
		const own = signatures.filter((signature) => signature.header === name);
		const found = candidates(headers, ownTimestamps(name), name, nowSeconds, tolerance);
		stale ??= found.stale;
		// GitHub's shape (`sha256=`, no `t=` or family timestamp): the body alone first, whatever headers a proxy added
		const bodyFirst =
			!found.timestamps.some((timestamp) => timestamp.rank === 0 || timestamp.rank === 2) &&
			own.some((signature) => signature.prefix === 'sha256=');
		const contents = learned
			? contentsOf(learned.content, found.timestamps, found.ids)
			: searchOrder(found.timestamps, found.ids, bodyFirst);
		// the base64 after whsec_ first on a Standard Webhooks-shaped header (`v1,`), else the whole secret (Stripe's whsec_ too)
		const keys = own.some((signature) => signature.prefix === 'v1,')
			? [...usableKeys].reverse()
			: usableKeys;
		// the two most likely signed contents with the most likely key first: a large first delivery gets two tries
		return [
			...keys.flatMap((key) => contents.slice(0, 2).map((content) => [content, key] as const)),
			...contents.slice(2).flatMap((content) => keys.map((key) => [content, key] as const)),
		];
	});
	// each signature header's most likely tries in turn, so a relay's own header spends no more than its share
	const tries = perHeader
		.flatMap((list, index) => list.map((one, rank) => ({ one, rank, index })))
		.sort((a, b) => a.rank - b.rank || a.index - b.index)
		.map(({ one }) => one)
		.filter(
			([content, [keyForm]], index, all) =>
				all.findIndex(([c, [k]]) => c.prefix === content.prefix && k === keyForm) === index,
		);
	for (const [content, [keyForm, key]] of tries.slice(0, budget)) {
		const expected = hmacOf('sha256', key, content.prefix, body);
		const match = signatures.find((signature) => sameBytes(signature.digest, expected));
		if (!match) continue;
		const custom = asCustom(match, content, keyForm);
		const form = {
			description: formText(custom),
			custom,
			...(content.id ? { signedId: content.id.value } : {}),
		};
		return content.timestamp
			? { valid: true, form, timestamp: Number(content.timestamp.value) }
			: { valid: true, form };
	}
	const triedOnly =
		tries.length > budget && !learned && searchBudget < MAX_SEARCH_HMACS ? searchBudget : undefined;
	const checked = learned
		? ` (checked as HMAC-SHA256 of ${learned.content} with ${keyWords(learned.key)}, the form of this subscription's verified deliveries; if the API changed how it signs, ${REPUBLISH}: its new subscription learns again)`
		: triedOnly
			? ` (${NOT_LEARNED} tried only the ${triedOnly} most likely forms over a body this large; ${TEACH})`
			: '';
	// the kind says what a genuine delivery would need: a clock in the window, a smaller first delivery
	const kind = stale?.kind === 'window' ? 'window' : triedOnly ? 'search' : 'signature';
	return refusal(
		kind,
		`signature does not match${checked}${stale ? ` (and ${stale.reason}: a timestamp outside the window is not tried)` : ''}`,
	);
}
