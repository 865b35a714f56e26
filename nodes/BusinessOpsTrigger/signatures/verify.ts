/** Checks a signature under the chosen scheme (presets of one Custom verifier); never throws; no reason holds the secret. */
import { asOption } from '../../shared/typing';
import { verifyAuto } from './auto';
import {
	checkTimestamp,
	decodeDigest,
	hmacOf,
	hmacKeyOf,
	MIN_KEY_BYTES,
	oneValue,
	refusal,
	sameBytes,
	SHORT_KEY,
	toleranceOf,
	valuesOf,
	type CustomSignature,
	type HeaderBag,
	type Received,
	type SignedForm,
	type VerifyResult,
} from './hmac';

export const SIGNATURE_SCHEMES = [
	'auto',
	'standardWebhooks',
	'github',
	'stripe',
	'custom',
	'none',
] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** The chosen scheme as the activation check and every delivery read it (trimmed; nothing is Auto). */
export function schemeOf(chosen: unknown): SignatureScheme | { problem: string } {
	const typed = asOption(chosen ?? 'auto', SIGNATURE_SCHEMES);
	if ('problem' in typed) return { problem: `"Signature Scheme" ${typed.problem}` };
	return typed.value as SignatureScheme;
}

export interface VerifyOptions {
	scheme: SignatureScheme | { problem: string };
	secret: string | { problem: string } | undefined;
	headers: HeaderBag;
	/** The bytes exactly as received (n8n's `req.rawBody`, inflated when gzip). */
	rawBody: Buffer | string | undefined;
	/** Header of the GitHub-style or Stripe-style signature; empty means the preset's. Auto looks there too. */
	signatureHeader?: string;
	custom?: CustomSignature | { problem: string };
	learned?: SignedForm;
	/** As set: anything but a number 0 or more refuses every delivery. */
	toleranceSeconds?: unknown;
	nowSeconds: number;
}

const form = (parts: Partial<CustomSignature>): CustomSignature => ({
	header: '',
	prefix: '',
	encoding: 'hex',
	content: '{body}',
	key: 'secret',
	timestampHeader: '',
	idHeader: '',
	algorithm: 'sha256',
	...parts,
});

/** The named schemes, each a Custom form (the GitHub- and Stripe-style header may be set under Signature Header). */
function presetOf(scheme: SignatureScheme, header: string | undefined) {
	if (scheme === 'github') header ??= 'X-Hub-Signature-256';
	if (scheme === 'stripe') header ??= 'Stripe-Signature';
	const presets: Partial<Record<SignatureScheme, [string, Partial<CustomSignature>]>> = {
		standardWebhooks: [
			'Standard Webhooks',
			{
				header: 'webhook-signature',
				timestampHeader: 'webhook-timestamp',
				idHeader: 'webhook-id',
				prefix: 'v1,',
				encoding: 'base64',
				content: '{ID}.{timestamp}.{body}',
				key: 'whsecBase64',
			},
		],
		github: [`GitHub-style (header ${header})`, { header, prefix: 'sha256=' }],
		stripe: [
			`Stripe-style (header ${header})`,
			{ header, prefix: 'v1=', content: '{timestamp}.{body}' },
		],
	};
	// own keys only: a scheme an expression names "constructor" is unknown, not an empty form
	const preset = Object.prototype.hasOwnProperty.call(presets, scheme)
		? presets[scheme]
		: undefined;
	return preset && { name: preset[0], form: form(preset[1]) };
}

const PLACEHOLDERS = /\{(body|timestamp|id)\}/gi;

export function customProblem(custom: CustomSignature): string | undefined {
	if (custom.header.trim() === '') return 'Custom signature: set "Signature Header"';
	if ((custom.content.match(/\{body\}/gi) ?? []).length !== 1) {
		return 'Custom signature: "Signed Content" must contain {body} exactly once, e.g. {timestamp}.{body}';
	}
	const unknown = custom.content.replace(PLACEHOLDERS, '').match(/\{[^}]*\}/);
	if (unknown)
		return `Custom signature: "Signed Content" has ${unknown[0]}; use {body}, {timestamp} and {ID}`;
	if (/\{id\}/i.test(custom.content) && custom.idHeader.trim() === '')
		return 'Custom signature: "Signed Content" uses {ID}, so set "ID Header"';
	return undefined;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Verifies `custom`'s form (a preset's refusals name its header only); each value of a repeated header is a candidate. */
function verifyForm(
	custom: CustomSignature,
	named: string | undefined,
	{ secret, headers, body, nowSeconds: now, tolerance }: Received,
): VerifyResult {
	const problem = customProblem(custom);
	if (problem) return refusal('settings', problem);
	const header = custom.header.trim();
	const given = valuesOf(headers, header).filter((value) => value.trim() !== '');
	if (given.length === 0) return refusal('unsigned', `missing ${header} header`);
	const malformed = (detail: string) =>
		refusal('unsigned', `malformed ${header} header${named ? '' : `: ${detail}`}`);
	// each value right after the prefix, where a value starts (after a space or comma)
	const after = new RegExp(`(?:^|[\\s,])${escaped(custom.prefix)}([^\\s,]+)`, 'g');
	const bytes = custom.algorithm === 'sha512' ? 64 : 32;
	// a named scheme's base64 is spelled as its specification says: standard alphabet, padded
	const spelled = (value: string) =>
		!named || custom.encoding === 'hex' || (value.length % 4 === 0 && !/[-_]/.test(value));
	const signatures = given
		.flatMap((value) =>
			[...value.matchAll(after)].map((match) =>
				spelled(match[1]) ? decodeDigest(match[1], custom.encoding, bytes) : undefined,
			),
		)
		.filter((digest): digest is Buffer => digest !== undefined);
	if (signatures.length === 0)
		return malformed(
			`expected ${custom.prefix}<${custom.encoding} HMAC-${custom.algorithm.toUpperCase()}>`,
		);

	const headerOf = (name: string) =>
		valuesOf(headers, name).length > 0 ? oneValue(valuesOf(headers, name)) : undefined;
	let timestamp: number | undefined;
	const parts = { timestamp: '', id: '' };
	if (/\{timestamp\}/i.test(custom.content)) {
		const source = custom.timestampHeader.trim();
		const elements = given
			.join(',')
			.split(/[\s,]+/)
			.filter((element) => /^(t|ts|timestamp)=/i.test(element));
		const found = source
			? [headerOf(source)]
			: [...new Set(elements.map((element) => element.slice(element.indexOf('=') + 1)))];
		if (found.length > 1) return malformed('its t= elements name different times');
		const text = found[0];
		if (text === undefined)
			return source || !named
				? refusal(
						'headers',
						`missing ${source ? `${source} header` : `timestamp (t= in ${header})`}`,
					)
				: malformed('no t=');
		const checked = checkTimestamp(text, now, tolerance);
		if (typeof checked !== 'number') return checked;
		[timestamp, parts.timestamp] = [checked, text];
	}
	if (/\{id\}/i.test(custom.content)) {
		parts.id = headerOf(custom.idHeader) ?? '';
		if (parts.id === '') return refusal('headers', `missing ${custom.idHeader.trim()} header`);
	}
	const key = hmacKeyOf(secret, custom.key);
	if (key.length < MIN_KEY_BYTES) return SHORT_KEY;
	const [before, rest] = custom.content.split(/\{body\}/i);
	const fill = (text: string) =>
		text.replace(/\{timestamp\}/gi, parts.timestamp).replace(/\{id\}/gi, parts.id);
	const expected = hmacOf(custom.algorithm, key, fill(before), body, fill(rest));
	if (!signatures.some((signature) => sameBytes(signature, expected)))
		return refusal('signature', 'signature does not match');
	const verified = named
		? { description: named }
		: { description: `Custom (header ${header})`, custom };
	return {
		valid: true,
		form: { ...verified, ...(parts.id !== '' ? { signedId: parts.id } : {}) },
		...(timestamp !== undefined ? { timestamp } : {}),
	};
}

/** Svix signs Standard Webhooks under `svix-` names: each header is read under its `webhook-` name, else its `svix-` one. */
function withSvixNames(headers: HeaderBag): HeaderBag {
	const read = { ...headers };
	for (const part of ['id', 'timestamp', 'signature']) {
		if (valuesOf(headers, `webhook-${part}`).length === 0)
			read[`webhook-${part}`] = valuesOf(headers, `svix-${part}`);
	}
	return read;
}

export function verifyDelivery(options: VerifyOptions): VerifyResult {
	try {
		const { scheme, secret, rawBody, headers, nowSeconds } = options;
		if (typeof scheme === 'object') return refusal('settings', scheme.problem);
		if (typeof secret === 'object' && scheme !== 'none') return refusal('secret', secret.problem);
		const tolerance = toleranceOf(options.toleranceSeconds);
		if (typeof tolerance !== 'number') return refusal('settings', tolerance.problem);
		if (scheme === 'none') return { valid: true, form: { description: 'None (not checked)' } };
		if (typeof secret !== 'string' || secret === '')
			return refusal('secret', 'no signing secret is stored');
		if (rawBody === undefined || rawBody === null)
			return refusal('body', 'the raw request body is not available');
		const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
		const configured = options.signatureHeader?.trim() || undefined;
		const received = { secret, headers, body, nowSeconds, tolerance };
		if (scheme === 'auto') return verifyAuto(received, configured?.toLowerCase(), options.learned);
		const custom = options.custom ?? form({});
		if ('problem' in custom) return refusal('settings', custom.problem);
		const named =
			scheme === 'custom' ? { name: undefined, form: custom } : presetOf(scheme, configured);
		if (!named) return refusal('settings', 'unknown signature scheme');
		const svix = scheme === 'standardWebhooks' ? { headers: withSvixNames(headers) } : {};
		return verifyForm(named.form, named.name, { ...received, ...svix });
	} catch {
		return refusal('other', 'signature could not be checked');
	}
}
