/**
 * Webhook signatures. Pure functions, exported so tests and clients can craft or check deliveries.
 *
 * - standard (Standard Webhooks): `webhook-signature: v1,<base64 HMAC-SHA256>` over
 *   `${id}.${timestamp}.${body}`, keyed with the base64-decoded part of the secret after `whsec_`.
 * - github: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of body>`, keyed with the whole secret (UTF-8).
 * - stripe: `Stripe-Signature: t=<ts>,v1=<hex HMAC-SHA256 of `${t}.${body}`>`, keyed with the whole secret (UTF-8).
 * - hex / base64: a bare value under `X-Signature`, the timestamp in `X-Signature-Timestamp`.
 *
 * `signDelivery` takes a `SigningConfig`: the form plus switches for every other part (header
 * names, signed content, key, algorithm, rotation), so that the trigger is tested against APIs
 * that sign differently from its defaults.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNING_SCHEMES = ['standard', 'github', 'stripe'] as const;
export type SigningScheme = (typeof SIGNING_SCHEMES)[number];

/** Every value form the sandbox can sign in. */
export const SIGNING_FORMS = ['standard', 'github', 'stripe', 'hex', 'base64'] as const;
export type SigningForm = (typeof SIGNING_FORMS)[number];
export const SIGNED_CONTENTS = ['body', 'timestamp.body', 'id.timestamp.body'] as const;
export type SignedContent = (typeof SIGNED_CONTENTS)[number];

export interface SigningConfig {
	form: SigningForm;
	/** Header of the signature; default per form. */
	signatureHeader?: string;
	/** What is signed; default per form (standard id.timestamp.body, github body, the others timestamp.body). */
	content?: SignedContent;
	/** `whsec`: the base64 after `whsec_`; `secret`: the whole secret (UTF-8). Default: whsec for standard. */
	key?: 'secret' | 'whsec';
	/** Header of the timestamp when the content has one (stripe carries it in `t=` unless this is set). */
	timestampHeader?: string;
	/** Header of the message id when the content has one. */
	idHeader?: string;
	algorithm?: 'sha256' | 'sha512';
	/** Also sign with another secret, placed before the real signature (key rotation). */
	rotate?: boolean;
}

const DEFAULT_HEADER: Record<SigningForm, string> = {
	standard: 'webhook-signature',
	github: 'X-Hub-Signature-256',
	stripe: 'Stripe-Signature',
	hex: 'X-Signature',
	base64: 'X-Signature',
};
const DEFAULT_CONTENT: Record<SigningForm, SignedContent> = {
	standard: 'id.timestamp.body',
	github: 'body',
	stripe: 'timestamp.body',
	hex: 'timestamp.body',
	base64: 'timestamp.body',
};
const ROTATED_SECRET = `whsec_${Buffer.from('an-older-secret-rotated!').toString('base64')}`;

function macOf(
	config: SigningConfig,
	secret: string,
	id: string,
	timestampSec: number,
	body: string | Buffer,
): Buffer {
	const content = config.content ?? DEFAULT_CONTENT[config.form];
	const keyForm = config.key ?? (config.form === 'standard' ? 'whsec' : 'secret');
	const key = keyForm === 'whsec' ? standardKey(secret) : Buffer.from(secret, 'utf8');
	const prefix =
		content === 'body'
			? ''
			: content === 'timestamp.body'
				? `${timestampSec}.`
				: `${id}.${timestampSec}.`;
	return createHmac(config.algorithm ?? 'sha256', key)
		.update(prefix)
		.update(body)
		.digest();
}

function valueOf(form: SigningForm, mac: Buffer, timestampSec: number): string {
	switch (form) {
		case 'standard':
			return `v1,${mac.toString('base64')}`;
		case 'github':
			return `sha256=${mac.toString('hex')}`;
		case 'stripe':
			return `t=${timestampSec},v1=${mac.toString('hex')}`;
		case 'hex':
			return mac.toString('hex');
		case 'base64':
			return mac.toString('base64');
	}
}

/** The signature headers of one delivery attempt under a signing configuration. */
export function signDelivery(
	config: SigningConfig,
	secret: string,
	eventId: string,
	timestampSec: number,
	body: string | Buffer,
): Record<string, string> {
	const content = config.content ?? DEFAULT_CONTENT[config.form];
	let value = valueOf(
		config.form,
		macOf(config, secret, eventId, timestampSec, body),
		timestampSec,
	);
	if (config.rotate) {
		const older = valueOf(
			config.form,
			macOf(config, ROTATED_SECRET, eventId, timestampSec, body),
			timestampSec,
		);
		value = config.form === 'stripe' ? `${value},${older.split(',')[1]}` : `${older} ${value}`;
	}
	const headers: Record<string, string> = {
		[config.signatureHeader || DEFAULT_HEADER[config.form]]: value,
	};
	const timestampHeader =
		config.timestampHeader ||
		(config.form === 'standard'
			? 'webhook-timestamp'
			: config.form === 'stripe'
				? ''
				: 'X-Signature-Timestamp');
	if (content !== 'body' && timestampHeader) headers[timestampHeader] = String(timestampSec);
	const idHeader = config.idHeader || (config.form === 'standard' ? 'webhook-id' : 'X-Message-Id');
	if (content === 'id.timestamp.body' || config.form === 'standard') headers[idHeader] = eventId;
	return headers;
}

export function newSigningSecret(): string {
	return `whsec_${randomBytes(24).toString('base64')}`;
}

function standardKey(secret: string): Buffer {
	return Buffer.from(
		secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret,
		'base64',
	);
}

export function signStandard(
	secret: string,
	id: string,
	timestampSec: number,
	body: string | Buffer,
): string {
	const hmac = createHmac('sha256', standardKey(secret));
	hmac.update(`${id}.${timestampSec}.`);
	hmac.update(body);
	return `v1,${hmac.digest('base64')}`;
}

export function signGithub(secret: string, body: string | Buffer): string {
	return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`;
}

export function signStripe(secret: string, timestampSec: number, body: string | Buffer): string {
	const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
	hmac.update(`${timestampSec}.`);
	hmac.update(body);
	return `t=${timestampSec},v1=${hmac.digest('hex')}`;
}

/** The signature headers of one delivery attempt under the given scheme. */
export function signatureHeaders(
	scheme: SigningScheme,
	secret: string,
	eventId: string,
	timestampSec: number,
	body: string | Buffer,
): Record<string, string> {
	return signDelivery({ form: scheme }, secret, eventId, timestampSec, body);
}

function safeEqual(a: string, b: string): boolean {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
	}
	return undefined;
}

/**
 * Checks a received delivery; never throws. `toleranceSec` bounds the age of the timestamp
 * (standard and stripe schemes) to refuse replays.
 */
export function verifyDelivery(
	scheme: SigningScheme,
	secret: string,
	headers: Headers,
	body: string | Buffer,
	options: { toleranceSec?: number; nowSec?: number } = {},
): boolean {
	const tolerance = options.toleranceSec ?? 300;
	const now = options.nowSec ?? Math.floor(Date.now() / 1000);
	const fresh = (ts: number): boolean => Number.isInteger(ts) && Math.abs(now - ts) <= tolerance;
	try {
		if (scheme === 'standard') {
			const id = header(headers, 'webhook-id');
			const ts = Number(header(headers, 'webhook-timestamp'));
			const given = header(headers, 'webhook-signature');
			if (!id || !given || !fresh(ts)) return false;
			const expected = signStandard(secret, id, ts, body);
			return given.split(' ').some((candidate) => safeEqual(candidate, expected));
		}
		if (scheme === 'github') {
			const given = header(headers, 'x-hub-signature-256');
			return given !== undefined && safeEqual(given, signGithub(secret, body));
		}
		const given = header(headers, 'stripe-signature') ?? '';
		const parts = new Map(given.split(',').map((part) => part.split('=', 2) as [string, string]));
		const ts = Number(parts.get('t'));
		if (!fresh(ts)) return false;
		const expected = signStripe(secret, ts, body);
		return given
			.split(',')
			.some((part) => part.startsWith('v1=') && safeEqual(`t=${ts},${part}`, expected));
	} catch {
		return false;
	}
}
