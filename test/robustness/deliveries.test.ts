/**
 * Issues 7 and 11, trigger deliveries: more than 1,000 generated deliveries through the trigger's
 * webhook() in n8n's real WebhookContext, a deterministic (seeded) mix over five signing forms
 * (Standard Webhooks, GitHub-style, Stripe-style, bare hex of `<timestamp>.<body>` with a
 * timestamp header, bare base64 of `<id>.<timestamp>.<body>` keyed with the whsec_ bytes under
 * X-Webhook-* headers) and the schemes Auto, the three named ones and Custom: valid ones,
 * ones tampered in one byte (body, signature, timestamp), signed
 * with a wrong secret, replayed outside the time window (past and future), with a header left
 * out or malformed (garbage, wrong prefix, empty, very long, non-ASCII), duplicated headers,
 * and oversized bodies (1 to 5 MB, valid and invalid).
 *
 * Every valid delivery must start the workflow with its event; every bad one must be answered
 * 401 and start nothing; webhook() never throws. Auto accepts a delivery whose HMAC is authentic
 * in any form it searches (e.g. `sha512=<the SHA-256 hex>` or the id from another header): the
 * cases where a value looks malformed but still carries the true HMAC are marked as such by hand.
 *
 * The signatures are made here from the scheme descriptions (docs/signatures.md, sandbox README), not with
 * the node's verifier.
 */
import { createHmac } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import {
	captureLogWarnings,
	createTriggerNode,
	runWebhook,
	TEST_API_KEY,
	type TestNode,
} from '../harness/engine';
import { seededRandom } from '../../sandbox/src/prng';
import { trigger, WEBHOOK_URL as PROD_URL } from '../trigger/liveSubscription';

const EVENTS = ['invoice.paid', 'quote.approved', 'request.received'];
const SECRET = `whsec_${Buffer.from('robustness-secret-of-24b!').toString('base64')}`;
const WRONG_SECRET = `whsec_${Buffer.from('another-secret-of-24-byt').toString('base64')}`;

type Scheme = 'standard' | 'github' | 'stripe' | 'hex' | 'base64id';
const SCHEMES: Scheme[] = ['standard', 'github', 'stripe', 'hex', 'base64id'];
/** The headers of the two forms beyond the named schemes. */
const HEX_HEADERS = { signature: 'x-signature', timestamp: 'x-signature-timestamp' };
const B64_HEADERS = {
	signature: 'x-webhook-signature',
	timestamp: 'x-webhook-timestamp',
	id: 'x-webhook-id',
};

interface Config {
	name: string;
	options: INodeParameters;
	accepts: Scheme[];
	githubHeader: string;
	stripeHeader: string;
	tolerance: number;
	testNode?: TestNode;
}

const CONFIGS: Config[] = [
	{
		name: 'Auto',
		options: {},
		accepts: SCHEMES,
		githubHeader: 'x-hub-signature-256',
		stripeHeader: 'stripe-signature',
		tolerance: 300,
	},
	{
		name: 'Auto, one custom header',
		options: { signatureHeader: 'X-BO-Sig' },
		accepts: SCHEMES,
		githubHeader: 'x-bo-sig',
		stripeHeader: 'x-bo-sig',
		tolerance: 300,
	},
	{
		name: 'Custom (bare hex of timestamp.body)',
		options: {
			signatureScheme: 'custom',
			timestampTolerance: 200,
			customSignature: {
				settings: {
					header: 'X-Signature',
					prefix: '',
					encoding: 'hex',
					signedContent: '{timestamp}.{body}',
					key: 'secret',
					timestampHeader: 'X-Signature-Timestamp',
				},
			},
		},
		accepts: ['hex'],
		githubHeader: 'x-hub-signature-256',
		stripeHeader: 'stripe-signature',
		tolerance: 200,
	},
	{
		name: 'Custom (base64 of id.timestamp.body, whsec key)',
		options: {
			signatureScheme: 'custom',
			customSignature: {
				settings: {
					header: 'X-Webhook-Signature',
					encoding: 'base64',
					signedContent: '{ID}.{timestamp}.{body}',
					key: 'whsecBase64',
					timestampHeader: 'X-Webhook-Timestamp',
					idHeader: 'X-Webhook-Id',
				},
			},
		},
		accepts: ['base64id'],
		githubHeader: 'x-hub-signature-256',
		stripeHeader: 'stripe-signature',
		tolerance: 300,
	},
	{
		name: 'Standard Webhooks',
		options: { signatureScheme: 'standardWebhooks', timestampTolerance: 600 },
		accepts: ['standard'],
		githubHeader: 'x-hub-signature-256',
		stripeHeader: 'stripe-signature',
		tolerance: 600,
	},
	{
		name: 'GitHub-style',
		options: { signatureScheme: 'github' },
		accepts: ['github'],
		githubHeader: 'x-hub-signature-256',
		stripeHeader: 'stripe-signature',
		tolerance: 300,
	},
	{
		name: 'Stripe-style',
		options: { signatureScheme: 'stripe', timestampTolerance: 120 },
		accepts: ['stripe'],
		githubHeader: 'x-hub-signature-256',
		stripeHeader: 'stripe-signature',
		tolerance: 120,
	},
];

// ---- deterministic randomness

const rng = seededRandom(7);
const int = (max: number) => Math.floor(rng() * max);
const pick = <T>(list: readonly T[]): T => list[int(list.length)];

// ---- signing, from the scheme descriptions

const standardKey = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
const hmac = (key: Buffer | string, ...parts: Array<string | Buffer>) => {
	const mac = createHmac('sha256', key);
	for (const part of parts) mac.update(part);
	return mac.digest();
};
const standardSig = (secret: string, id: string, ts: string, body: Buffer) =>
	hmac(standardKey(secret), `${id}.${ts}.`, body).toString('base64');
const githubHex = (secret: string, body: Buffer) =>
	hmac(Buffer.from(secret, 'utf8'), body).toString('hex');
const stripeHex = (secret: string, ts: string, body: Buffer) =>
	hmac(Buffer.from(secret, 'utf8'), `${ts}.`, body).toString('hex');

interface Delivery {
	label: string;
	headers: Record<string, string | string[]>;
	rawBody?: Buffer;
	/** accept: starts the workflow with this event id; 401: refused; other statuses: refused without execution. */
	expect: { accept: string } | { status: number } | { ignored: true };
}

interface Base {
	scheme: Scheme;
	id: string;
	ts: string;
	body: Buffer;
	secret: string;
}

const UNICODE = ['é', 'ß', '€', '😀', '中', 'ñ', '\u00a0', '"', '\\', '\n'];

function eventBody(id: string, padding = 0, type = pick(EVENTS)): Buffer {
	const note = Array.from({ length: 5 + int(40) }, () =>
		rng() < 0.2 ? pick(UNICODE) : String.fromCharCode(97 + int(26)),
	).join('');
	const event = {
		id,
		type,
		timestamp: new Date(Date.UTC(2026, int(12), 1 + int(28))).toISOString(),
		data: {
			id: `inv_${int(1e6)}`,
			status: 'paid',
			total: int(1e6) / 100,
			note,
			...(padding > 0 ? { padding: 'x'.repeat(padding) } : {}),
		},
	};
	return Buffer.from(JSON.stringify(event), 'utf8');
}

let counter = 0;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function freshBase(scheme: Scheme, padding = 0, type?: string): Base {
	const id = `evt_${(++counter).toString(36)}_${int(1e9).toString(36)}`;
	return {
		scheme,
		id,
		ts: String(nowSeconds()),
		body: eventBody(id, padding, type),
		secret: SECRET,
	};
}

function signatureHeaderOf(scheme: Scheme, config: Config): string {
	if (scheme === 'hex') return HEX_HEADERS.signature;
	if (scheme === 'base64id') return B64_HEADERS.signature;
	return scheme === 'standard'
		? 'webhook-signature'
		: scheme === 'github'
			? config.githubHeader
			: config.stripeHeader;
}

/** The header that carries a form's timestamp, when it has one outside the signature value. */
function timestampHeaderOf(scheme: Scheme): string | undefined {
	return {
		standard: 'webhook-timestamp',
		hex: HEX_HEADERS.timestamp,
		base64id: B64_HEADERS.timestamp,
	}[scheme as string];
}

function signed(base: Base, config: Config): Record<string, string | string[]> {
	const common = {
		'content-type': 'application/json',
		'user-agent': 'BusinessOps-Webhooks/1.0',
		'x-business-ops-delivery': base.id,
		'x-business-ops-attempt': '1',
	};
	switch (base.scheme) {
		case 'standard':
			return {
				...common,
				'webhook-id': base.id,
				'webhook-timestamp': base.ts,
				'webhook-signature': `v1,${standardSig(base.secret, base.id, base.ts, base.body)}`,
			};
		case 'github':
			return { ...common, [config.githubHeader]: `sha256=${githubHex(base.secret, base.body)}` };
		case 'stripe':
			return {
				...common,
				[config.stripeHeader]: `t=${base.ts},v1=${stripeHex(base.secret, base.ts, base.body)}`,
			};
		case 'hex':
			return {
				...common,
				[HEX_HEADERS.signature]: stripeHex(base.secret, base.ts, base.body),
				[HEX_HEADERS.timestamp]: base.ts,
			};
		case 'base64id':
			return {
				...common,
				[B64_HEADERS.signature]: standardSig(base.secret, base.id, base.ts, base.body),
				[B64_HEADERS.timestamp]: base.ts,
				[B64_HEADERS.id]: base.id,
			};
	}
}

/** One character replaced by another of the same alphabet, so only the value changes, not the form. */
function flipChar(text: string, from: number, to: number, alphabet: string): string {
	const index = from + int(to - from);
	const current = text[index].toLowerCase();
	const choices = alphabet.split('').filter((c) => c.toLowerCase() !== current);
	return text.slice(0, index) + pick(choices) + text.slice(index + 1);
}
const HEX = '0123456789abcdef';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGITS = '0123456789';

function flipSignature(headers: Record<string, string | string[]>, scheme: Scheme, config: Config) {
	const name = signatureHeaderOf(scheme, config);
	const value = String(headers[name]);
	if (scheme === 'hex') headers[name] = flipChar(value, 0, value.length, HEX);
	if (scheme === 'base64id') headers[name] = flipChar(value, 0, value.length - 1, B64);
	if (scheme === 'standard') headers[name] = flipChar(value, 3, value.length - 1, B64);
	if (scheme === 'github') headers[name] = flipChar(value, 'sha256='.length, value.length, HEX);
	if (scheme === 'stripe') {
		const at = value.indexOf('v1=') + 3;
		headers[name] = flipChar(value, at, value.length, HEX);
	}
}

function flipTimestamp(headers: Record<string, string | string[]>, scheme: Scheme, config: Config) {
	const header = timestampHeaderOf(scheme);
	if (header) {
		const ts = String(headers[header]);
		headers[header] = flipChar(ts, 0, ts.length, DIGITS);
	} else if (scheme === 'stripe') {
		const name = config.stripeHeader;
		const value = String(headers[name]);
		const end = value.indexOf(',');
		headers[name] = flipChar(value, 2, end, DIGITS);
	} else {
		// GitHub-style carries no timestamp: the byte of its "sha256=" prefix instead
		const name = config.githubHeader;
		headers[name] = flipChar(String(headers[name]), 0, 6, 'abcdefghijklmnopqrstuvwxyz');
	}
}

function flipBodyByte(body: Buffer): Buffer {
	const copy = Buffer.from(body);
	const index = int(copy.length);
	copy[index] = copy[index] ^ (1 + int(255));
	return copy;
}

const VERY_LONG = 'a'.repeat(100_000);
const NON_ASCII = 'v1,ü€😀中文签名';

/**
 * Garbage for the signature header of a form, each with whether it still carries the true HMAC
 * in a form Auto searches (then Auto accepts it and every exact scheme refuses it).
 */
function malformedSignatures(base: Base, config: Config): Array<[string, boolean | 'any']> {
	const common: Array<[string, boolean]> = [
		'',
		' ',
		'garbage',
		VERY_LONG,
		NON_ASCII,
		'\u0000',
		'null',
		'undefined',
		'[object Object]',
	].map((v) => [v, false]);
	if (base.scheme === 'standard' || base.scheme === 'base64id') {
		const b64 = standardSig(base.secret, base.id, base.ts, base.body);
		const hex = Buffer.from(b64, 'base64').toString('hex');
		const cases: Array<[string, boolean]> = [
			[`v2,${b64}`, true],
			[`v1${b64}`, false],
			[`v1;${b64}`, false],
			[b64, true],
			[`v1,${hex}`, true],
			[`v1,${b64.slice(0, -2)}`, false],
			[`v1,${b64}A`, false],
			[`v1a,${b64}`, true],
			[`v1,${b64.replace('=', '')}`, true],
			[`v1,${VERY_LONG}`, false],
		];
		// the bare base64 form: the value itself is the valid one, so `b64` is left out there
		return [
			...common,
			...(base.scheme === 'standard' ? cases : cases.filter(([value]) => value !== b64)),
		];
	}
	if (base.scheme === 'github' || base.scheme === 'hex') {
		const hex =
			base.scheme === 'github'
				? githubHex(base.secret, base.body)
				: stripeHex(base.secret, base.ts, base.body);
		const b64 = Buffer.from(hex, 'hex').toString('base64');
		const cases: Array<[string, boolean]> = [
			[`sha1=${hex.slice(0, 40)}`, false],
			[`sha256:${hex}`, false],
			[hex, true],
			[`sha256=${b64}`, true],
			[`sha256=${hex.slice(1)}`, false],
			[`sha256=${hex}0`, false],
			[`sha512=${hex}`, true],
			[`sha256=${hex.replace(/./g, 'g')}`, false],
			[`sha256 =${hex}`, false],
		];
		return [
			...common,
			...(base.scheme === 'github' ? cases : cases.filter(([value]) => value !== hex)),
		];
	}
	const hex = stripeHex(base.secret, base.ts, base.body);
	const ts = base.ts;
	const out: Array<[string, boolean | 'any']> = [
		...common,
		[`v1=${hex}`, false],
		[`t=${ts}`, false],
		[`t=abc,v1=${hex}`, false],
		[`t=,v1=${hex}`, false],
		// the same t= twice names one timestamp: every scheme that reads t= takes it
		[`t=${ts},t=${ts},v1=${hex}`, 'any'],
		[`t=${ts},v0=${hex}`, true],
		[`t=${ts},v1=${Buffer.from(hex, 'hex').toString('base64')}`, true],
		[`t=${Number(ts) * 1000},v1=${hex}`, false],
		[`${ts},${hex}`, false],
		[`t=${ts};v1=${hex}`, false],
	];
	// with one header for both schemes, a GitHub-looking value is no Stripe signature either
	if (config.githubHeader === config.stripeHeader) out.push([`sha256=${hex}`, false]);
	return out;
}

const MALFORMED_TIMESTAMPS = (ts: string) => [
	'',
	' ',
	'abc',
	'1.7e9',
	'-1',
	`${ts}000`,
	'１７００００００００',
	`0x${Number(ts).toString(16)}`,
	`${ts} ${ts}`,
	`${ts}.5`,
	VERY_LONG.slice(0, 5000),
];

/** Every delivery of one round for one configuration and one scheme. */
function deliveriesFor(config: Config, scheme: Scheme, round: number): Array<() => Delivery> {
	const accepted = config.accepts.includes(scheme);
	const auto = config.name.startsWith('Auto');
	const custom = config.name.startsWith('Custom');
	const tag = (label: string) => `${config.name} / ${scheme} / ${label}`;
	const out: Array<() => Delivery> = [];
	/**
	 * A bad-looking delivery: 401. Unless it still carries the true HMAC in a form that Auto
	 * searches ('auto'), or that Custom also reads (several values split on spaces and commas,
	 * every copy of the header: 'flexible'), or that every scheme reads (a signature header sent
	 * twice, one copy genuine: 'any'): then those schemes accept it.
	 */
	const bad = (
		label: string,
		make: () => Omit<Delivery, 'label' | 'expect'> & { id?: string },
		authentic: false | 'auto' | 'flexible' | 'any' = false,
	) =>
		out.push(() => {
			const { id, ...delivery } = make();
			const accepts =
				authentic === 'any' ||
				(authentic !== false && auto) ||
				(authentic === 'flexible' && custom);
			return {
				label: tag(label),
				expect: accepts ? { accept: String(id) } : { status: 401 },
				...delivery,
			};
		});

	// valid (or signed under a scheme this configuration does not accept)
	for (let i = 0; i < 6; i++) {
		out.push(() => {
			const base = freshBase(scheme);
			return {
				label: tag(accepted ? 'valid' : 'valid, but a scheme this configuration does not accept'),
				headers: signed(base, config),
				rawBody: base.body,
				expect: accepted ? { accept: base.id } : { status: 401 },
			};
		});
	}
	if (!accepted) return out;

	// inside the window, near both edges: valid
	if (scheme !== 'github') {
		for (const offset of [-(config.tolerance - 15), config.tolerance - 15]) {
			out.push(() => {
				const base = { ...freshBase(scheme), ts: String(nowSeconds() + offset) };
				return {
					label: tag('valid, near the edge of the window'),
					headers: signed(base, config),
					rawBody: base.body,
					expect: { accept: base.id },
				};
			});
		}
	}
	// several signatures, one valid (key rotation): valid
	out.push(() => {
		const base = freshBase(scheme);
		const headers = signed(base, config);
		const other = signed({ ...base, secret: WRONG_SECRET }, config);
		if (scheme === 'standard')
			headers['webhook-signature'] =
				`${other['webhook-signature']} ${headers['webhook-signature']}`;
		if (scheme === 'stripe')
			headers[config.stripeHeader] =
				`${headers[config.stripeHeader]},v1=${String(other[config.stripeHeader]).split('v1=')[1]}`;
		if (scheme === 'hex' || scheme === 'base64id') {
			const name = signatureHeaderOf(scheme, config);
			headers[name] = `${other[name]} ${headers[name]}`;
		}
		return {
			label: tag('valid, with a second signature of another secret'),
			headers,
			rawBody: base.body,
			expect: { accept: base.id },
		};
	});
	// the same valid delivery twice inside the window (a retry): both start the workflow (dedupe is by event id)
	let retried: Base | undefined;
	for (const label of ['valid, first attempt', 'valid, the same delivery again (retry)']) {
		out.push(() => {
			retried ??= freshBase(scheme);
			return {
				label: tag(label),
				headers: signed(retried, config),
				rawBody: retried.body,
				expect: { accept: retried.id },
			};
		});
	}

	// tampered in one byte
	for (let i = 0; i < 3; i++) {
		bad('one byte of the body changed', () => {
			const base = freshBase(scheme);
			return { headers: signed(base, config), rawBody: flipBodyByte(base.body) };
		});
		bad('one character of the signature changed', () => {
			const base = freshBase(scheme);
			const headers = signed(base, config);
			flipSignature(headers, scheme, config);
			return { headers, rawBody: base.body };
		});
		bad(
			scheme === 'github'
				? 'one character of the signature prefix changed'
				: 'one digit of the timestamp changed',
			() => {
				const base = freshBase(scheme);
				const headers = signed(base, config);
				flipTimestamp(headers, scheme, config);
				return { headers, rawBody: base.body, id: base.id };
			},
			// Auto reads the value after any name=, so the prefix's spelling does not matter to it
			scheme === 'github' ? 'auto' : false,
		);
	}
	bad('body re-serialised (same JSON, other bytes)', () => {
		const base = freshBase(scheme);
		return {
			headers: signed(base, config),
			rawBody: Buffer.from(JSON.stringify(JSON.parse(base.body.toString('utf8')), null, 1)),
		};
	});
	bad('a byte appended to the body', () => {
		const base = freshBase(scheme);
		return { headers: signed(base, config), rawBody: Buffer.concat([base.body, Buffer.from(' ')]) };
	});
	if (scheme === 'standard' || scheme === 'base64id') {
		// Auto also finds the signed id in X-Business-Ops-Delivery, tried after a better-named id
		// header: the HMAC still covers the id it verified with
		const idHeader = scheme === 'standard' ? 'webhook-id' : B64_HEADERS.id;
		bad(
			`another ${idHeader} than the signed one`,
			() => {
				const base = freshBase(scheme);
				const headers = signed(base, config);
				headers[idHeader] = `${base.id}x`;
				return { headers, rawBody: base.body, id: base.id };
			},
			'auto',
		);
	}

	// wrong secret, and the right secret used the wrong way
	bad('signed with another secret', () => {
		const base = { ...freshBase(scheme), secret: WRONG_SECRET };
		return { headers: signed(base, config), rawBody: base.body };
	});
	// (Auto tries both key forms, the whole secret and the whsec_ bytes: there this is authentic)
	bad(
		'signed with the secret used the way of another scheme',
		() => {
			const base = freshBase(scheme);
			const headers = signed(base, config);
			if (scheme === 'standard') {
				headers['webhook-signature'] =
					`v1,${hmac(Buffer.from(SECRET, 'utf8'), `${base.id}.${base.ts}.`, base.body).toString('base64')}`;
			} else if (scheme === 'github') {
				headers[config.githubHeader] =
					`sha256=${hmac(standardKey(SECRET), base.body).toString('hex')}`;
			} else if (scheme === 'stripe') {
				headers[config.stripeHeader] =
					`t=${base.ts},v1=${hmac(standardKey(SECRET), `${base.ts}.`, base.body).toString('hex')}`;
			} else if (scheme === 'hex') {
				headers[HEX_HEADERS.signature] = hmac(
					standardKey(SECRET),
					`${base.ts}.`,
					base.body,
				).toString('hex');
			} else {
				headers[B64_HEADERS.signature] = hmac(
					Buffer.from(SECRET, 'utf8'),
					`${base.id}.${base.ts}.`,
					base.body,
				).toString('base64');
			}
			return { headers, rawBody: base.body, id: base.id };
		},
		'auto',
	);
	bad('signed with an empty secret', () => {
		const base = { ...freshBase(scheme), secret: '' };
		return { headers: signed(base, config), rawBody: base.body };
	});

	// replayed outside the window
	if (scheme !== 'github') {
		bad('timestamp before the window', () => {
			const base = {
				...freshBase(scheme),
				ts: String(nowSeconds() - config.tolerance - 2 - int(10 ** (1 + int(6)))),
			};
			return { headers: signed(base, config), rawBody: base.body };
		});
		bad('timestamp after the window', () => {
			const base = {
				...freshBase(scheme),
				ts: String(nowSeconds() + config.tolerance + 2 + int(10 ** (1 + int(6)))),
			};
			return { headers: signed(base, config), rawBody: base.body };
		});
		bad('timestamp 0 (1970)', () => {
			const base = { ...freshBase(scheme), ts: '0' };
			return { headers: signed(base, config), rawBody: base.body };
		});
		for (const ts of MALFORMED_TIMESTAMPS(String(nowSeconds()))) {
			bad(`malformed timestamp ${JSON.stringify(ts.slice(0, 20))}`, () => {
				const base = { ...freshBase(scheme), ts };
				return { headers: signed(base, config), rawBody: base.body };
			});
		}
	}

	// missing headers
	const names = {
		standard: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
		hex: [HEX_HEADERS.signature, HEX_HEADERS.timestamp],
		base64id: [B64_HEADERS.signature, B64_HEADERS.timestamp, B64_HEADERS.id],
	}[scheme as string] ?? [signatureHeaderOf(scheme, config)];
	for (const name of names) {
		bad(
			`without ${name}`,
			() => {
				const base = freshBase(scheme);
				const headers = signed(base, config);
				delete headers[name];
				return { headers, rawBody: base.body, id: base.id };
			},
			// without its id header, Auto still finds the signed id in X-Business-Ops-Delivery
			name === 'webhook-id' || name === B64_HEADERS.id ? 'auto' : false,
		);
	}
	if (scheme === 'standard') {
		bad('without any webhook-* header', () => {
			const base = freshBase(scheme);
			const headers = signed(base, config);
			for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
				delete headers[name];
			return { headers, rawBody: base.body };
		});
	}
	bad('without the raw body', () => {
		const base = freshBase(scheme);
		return { headers: signed(base, config) };
	});

	// malformed signature headers (one per round, in turn, so that all are used over the rounds)
	const malformed = malformedSignatures(freshBase(scheme), config);
	for (let i = 0; i < malformed.length; i++) {
		if (i % 3 !== round % 3 && round < 3) continue;
		const flexible =
			malformed[i][0].startsWith('v') &&
			malformed[i][1] &&
			scheme === 'base64id' &&
			!/^v1,[0-9a-f]{64}$/.test(malformed[i][0]);
		bad(
			`malformed ${signatureHeaderOf(scheme, config)} #${i}`,
			() => {
				const base = freshBase(scheme);
				const headers = signed(base, config);
				headers[signatureHeaderOf(scheme, config)] = malformedSignatures(base, config)[i][0];
				return { headers, rawBody: base.body, id: base.id };
			},
			// Custom with an empty prefix also splits `v2,<base64>` into values and takes unpadded base64
			malformed[i][1] === 'any'
				? 'any'
				: malformed[i][1]
					? flexible
						? 'flexible'
						: 'auto'
					: false,
		);
	}

	// duplicated headers: n8n hands them over joined by ", " (Node's http); other servers as arrays
	const sigName = signatureHeaderOf(scheme, config);
	// every copy of a signature header counts, under every scheme (a valid one among them verifies)
	bad(
		'signature header twice, the first copy forged (array)',
		() => {
			const base = freshBase(scheme);
			const headers = signed(base, config);
			const forged = signed({ ...base, secret: WRONG_SECRET }, config)[sigName];
			headers[sigName] = [String(forged), String(headers[sigName])];
			return { headers, rawBody: base.body, id: base.id };
		},
		'any',
	);
	bad('signature header twice, both forged (joined by ", ")', () => {
		const base = freshBase(scheme);
		const headers = signed({ ...base, secret: WRONG_SECRET }, config);
		headers[sigName] = `${headers[sigName]}, ${headers[sigName]}`;
		return { headers, rawBody: base.body };
	});
	bad('signature header as an empty array', () => {
		const base = freshBase(scheme);
		const headers = signed(base, config);
		headers[sigName] = [];
		return { headers, rawBody: base.body };
	});
	if (scheme !== 'standard') {
		bad(
			'signature header twice, valid copy second (joined by ", ")',
			() => {
				const base = freshBase(scheme);
				const headers = signed(base, config);
				const forged = signed({ ...base, secret: WRONG_SECRET }, config)[sigName];
				headers[sigName] = `${forged}, ${headers[sigName]}`;
				return { headers, rawBody: base.body, id: base.id };
			},
			'any',
		);
	}
	if (scheme === 'standard') {
		// Auto tries every copy of a timestamp header and also finds the id in X-Business-Ops-Delivery
		bad(
			'webhook-timestamp twice, a stale copy first (array)',
			() => {
				const base = freshBase(scheme);
				const headers = signed(base, config);
				headers['webhook-timestamp'] = [String(nowSeconds() - config.tolerance - 100), base.ts];
				return { headers, rawBody: base.body, id: base.id };
			},
			'auto',
		);
		bad(
			'webhook-id twice with different values (joined by ", "; equal copies read as one)',
			() => {
				const base = freshBase(scheme);
				const headers = signed(base, config);
				headers['webhook-id'] = `${base.id}, ${base.id}x`;
				return { headers, rawBody: base.body, id: base.id };
			},
			'auto',
		);
		bad(
			'webhook-timestamp twice with different values (joined by ", "; equal copies read as one)',
			() => {
				const base = freshBase(scheme);
				const headers = signed(base, config);
				headers['webhook-timestamp'] = `${base.ts}, ${Number(base.ts) - 1}`;
				return { headers, rawBody: base.body };
			},
		);
	}

	// valid signature, nothing to run: an event type not chosen (200) and a body that is no JSON object (400)
	if (round === 0) {
		out.push(() => {
			const base = freshBase(scheme, 0, 'agent.paused');
			return {
				label: tag('valid, event type not chosen'),
				headers: signed(base, config),
				rawBody: base.body,
				expect: { ignored: true },
			};
		});
		out.push(() => {
			const base = { ...freshBase(scheme), body: Buffer.from('[1,2,3]') };
			return {
				label: tag('valid signature, body not a JSON object'),
				headers: signed(base, config),
				rawBody: base.body,
				expect: { status: 400 },
			};
		});
	}

	// oversized bodies, 1 to 5 MB: valid and invalid
	if (round === 0) {
		const megabytes = 1 + ((CONFIGS.indexOf(config) * 3 + SCHEMES.indexOf(scheme)) % 5);
		out.push(() => {
			const base = freshBase(scheme, megabytes * 1024 * 1024);
			// Auto does not search a body over 1 MiB before a form is learned (the learned case: its own test below)
			const expect = accepted && auto ? { status: 401 } : { accept: base.id };
			return {
				label: tag(`valid, ${megabytes} MB`),
				headers: signed(base, config),
				rawBody: base.body,
				expect,
			};
		});
		bad(`${megabytes} MB, last byte changed`, () => {
			const base = freshBase(scheme, megabytes * 1024 * 1024);
			const body = Buffer.from(base.body);
			body[body.length - 2] ^= 1;
			return { headers: signed(base, config), rawBody: body };
		});
		bad(`${megabytes} MB, another secret`, () => {
			const base = { ...freshBase(scheme, megabytes * 1024 * 1024), secret: WRONG_SECRET };
			return { headers: signed(base, config), rawBody: base.body };
		});
	}
	return out;
}

/** A trigger of this configuration, its workflow named after it, with a subscription stored and nothing learned. */
const sealedSecrets = new Map<string, string>();
function nodeFor(config: Config, id = 'whk_1'): TestNode {
	if (!sealedSecrets.has(id)) sealedSecrets.set(id, sealSecret(SECRET, TEST_API_KEY, id));
	const staticData = {
		'node:Business Ops Trigger': {
			subscriptions: {
				production: { id, url: PROD_URL, events: EVENTS, sealedSecret: sealedSecrets.get(id) },
			},
		},
	};
	const testNode = createTriggerNode(
		trigger,
		{ events: EVENTS, options: config.options },
		{ staticData },
	);
	testNode.workflow.id = config.name;
	return testNode;
}

interface Result {
	delivery: Delivery;
	status?: number;
	sent?: unknown;
	eventIds: unknown[];
	threw?: string;
	ignored: boolean;
}

function mismatch(result: Result): string | undefined {
	const { delivery, status, eventIds, threw, ignored } = result;
	if (threw) return `threw: ${threw}`;
	const expected = delivery.expect;
	if ('accept' in expected) {
		if (eventIds.length !== 1 || eventIds[0] !== expected.accept) {
			return `expected the workflow to start with ${expected.accept}; got HTTP ${status} ${JSON.stringify(result.sent)}`;
		}
		return status === undefined ? undefined : `accepted but also answered ${status}`;
	}
	if (eventIds.length > 0)
		return `started the workflow (${String(eventIds[0])}) instead of answering ${'status' in expected ? expected.status : 200}`;
	if ('ignored' in expected)
		return ignored ? undefined : `expected 200 "ignored", got HTTP ${status}`;
	if (status !== expected.status)
		return `expected HTTP ${expected.status}, got ${status ?? 'no status'} ${JSON.stringify(result.sent)}`;
	const reason = (result.sent as { error?: unknown } | undefined)?.error;
	if (typeof reason !== 'string' || reason === '') return 'refused without a reason';
	return undefined;
}

test('more than 1,000 generated deliveries: every valid one starts the workflow, every bad one is refused', async () => {
	const logs = captureLogWarnings();
	for (const config of CONFIGS) config.testNode = nodeFor(config);

	const makers: Array<{ config: Config; make: () => Delivery }> = [];
	for (let round = 0; round < 4; round++) {
		for (const config of CONFIGS) {
			for (const scheme of SCHEMES) {
				for (const make of deliveriesFor(config, scheme, round)) makers.push({ config, make });
			}
		}
	}
	// a deterministic shuffle, so the kinds are interleaved
	for (let i = makers.length - 1; i > 0; i--) {
		const j = int(i + 1);
		[makers[i], makers[j]] = [makers[j], makers[i]];
	}

	const results: Result[] = [];
	try {
		for (const { config, make } of makers) {
			const delivery = make();
			const result: Result = { delivery, eventIds: [], ignored: false };
			try {
				// Auto remembers the signed form of the first delivery it accepts (in this process, by
				// trigger and subscription record): each delivery meets a subscription of its own
				const testNode = config.name.startsWith('Auto')
					? nodeFor(config, `whk_auto_${results.length}`)
					: (config.testNode as TestNode);
				const run = await runWebhook(trigger, testNode, {
					headers: delivery.headers,
					rawBody: delivery.rawBody,
					// n8n parses the body as well; the node must not rely on it, and large ones are skipped here
					body: delivery.rawBody && delivery.rawBody.length < 100_000 ? undefined : {},
				});
				result.status = run.status;
				result.sent = run.sent;
				result.eventIds = (run.result.workflowData?.[0] ?? []).map((item) => item.json.id);
				result.ignored = Boolean((run.result.webhookResponse as IDataObject | undefined)?.ignored);
			} catch (error) {
				result.threw = (error as Error).message;
			}
			results.push(result);
		}
	} finally {
		logs.restore();
	}

	const problems = results.flatMap((result) => {
		const problem = mismatch(result);
		return problem ? [`${result.delivery.label}: ${problem}`] : [];
	});
	expect(problems).toEqual([]);

	const accepted = results.filter((r) => 'accept' in r.delivery.expect);
	const refused = results.filter((r) => r.status === 401);
	expect(results.length).toBeGreaterThanOrEqual(1000);
	expect(accepted.length).toBeGreaterThanOrEqual(100);
	expect(refused.length).toBeGreaterThanOrEqual(800);
	// every kind of delivery was generated for every scheme
	const kinds = new Set(results.map((r) => r.delivery.label.replace(/ #\d+$/, '')));
	expect(kinds.size).toBeGreaterThanOrEqual(150);
	// refusals are logged at most once a minute per trigger (each configuration is a workflow of its own) and kind of reason, none with the secret
	const refusals = logs.warnings.filter((line) =>
		line.includes('refused a delivery with HTTP 401'),
	);
	const kindsLogged = refusals.map(
		(line) =>
			`${/\(workflow ([^)]*\)?)\)/.exec(line)?.[1]} / ${/refusals of this trigger for (.*) are not logged/.exec(line)?.[1]}`,
	);
	expect(kindsLogged.length).toBeGreaterThanOrEqual(CONFIGS.length);
	expect(new Set(kindsLogged).size).toBe(kindsLogged.length);
	expect(
		logs.warnings.filter((line) => line.includes(SECRET) || line.includes(SECRET.slice(6))),
	).toEqual([]);
}, 30_000);

/** What each form signs, and with which key: forms with the same entry are one signed form. */
const SIGNED_FORM: Record<Scheme, string> = {
	standard: 'id.ts.body, whsec',
	base64id: 'id.ts.body, whsec',
	stripe: 'ts.body, secret',
	hex: 'ts.body, secret',
	github: 'body, secret',
};

test('Auto, learned: after the first verified delivery its signed form verifies at any size; another signed form and every forgery is refused; nothing is stored', async () => {
	const problems: string[] = [];
	let runs = 0;
	for (const config of CONFIGS.filter((c) => c.name.startsWith('Auto'))) {
		for (const scheme of SCHEMES) {
			const testNode = nodeFor(config, `whk_pin_${scheme}`);
			testNode.workflow.id = `${config.name} learned ${scheme}`;
			const deliver = async (
				label: string,
				headers: Record<string, string | string[]>,
				rawBody: Buffer,
				accept?: string,
			) => {
				runs++;
				const run = await runWebhook(trigger, testNode, { headers, rawBody, body: {} });
				const ids = (run.result.workflowData?.[0] ?? []).map((item) => item.json.id);
				const ok =
					accept === undefined
						? run.status === 401 && ids.length === 0
						: run.status === undefined && ids[0] === accept;
				if (!ok)
					problems.push(
						`${config.name} / ${scheme} / ${label}: HTTP ${run.status} ${JSON.stringify(run.sent)} ids ${JSON.stringify(ids)}`,
					);
			};
			const staticData = JSON.stringify(testNode.workflow.getStaticData('node', testNode.node));
			const first = freshBase(scheme);
			await deliver('first (learns)', signed(first, config), first.body, first.id);
			for (const size of [0, 100_000, 2 * 1024 * 1024]) {
				const base = freshBase(scheme, size);
				await deliver(`valid, ${size} bytes of padding`, signed(base, config), base.body, base.id);
				const tampered = Buffer.from(base.body);
				tampered[tampered.length - 2] ^= 1;
				await deliver(`tampered, ${size} bytes of padding`, signed(base, config), tampered);
				await deliver(
					`another secret, ${size} bytes of padding`,
					signed({ ...base, secret: WRONG_SECRET }, config),
					base.body,
				);
			}
			// the other forms, signed with the right secret: accepted when they sign the same content
			// with the same key (header names and value prefixes are not signed), else refused
			for (const other of SCHEMES.filter((s) => s !== scheme)) {
				const base = freshBase(other);
				await deliver(
					`signed in the ${other} form`,
					signed(base, config),
					base.body,
					SIGNED_FORM[other] === SIGNED_FORM[scheme] ? base.id : undefined,
				);
			}
			// junk signature, timestamp and id headers around a forged value
			const junk = freshBase(scheme);
			const forged: Record<string, string | string[]> = {
				...signed({ ...junk, secret: WRONG_SECRET }, config),
			};
			for (let i = 0; i < 8; i++) {
				forged[`x-${int(1e6)}-signature`] = `v1,${Buffer.alloc(32, i).toString('base64')}`;
				forged[`x-${int(1e6)}-timestamp`] = junk.ts;
				forged[`x-${int(1e6)}-id`] = `id_${i}`;
			}
			await deliver('forged, among junk headers', forged, junk.body);
			if (JSON.stringify(testNode.workflow.getStaticData('node', testNode.node)) !== staticData)
				problems.push(`${config.name} / ${scheme}: static data changed`);
		}
	}
	expect(problems).toEqual([]);
	expect(runs).toBeGreaterThanOrEqual(100);
}, 60_000);
