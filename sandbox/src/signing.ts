/**
 * Webhook signatures. Pure functions, exported so tests and clients can craft or check deliveries.
 *
 * - standard (Standard Webhooks): `webhook-signature: v1,<base64 HMAC-SHA256>` over
 *   `${id}.${timestamp}.${body}`, keyed with the base64-decoded part of the secret after `whsec_`.
 * - github: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of body>`, keyed with the whole secret (UTF-8).
 * - stripe: `Stripe-Signature: t=<ts>,v1=<hex HMAC-SHA256 of `${t}.${body}`>`, keyed with the whole secret (UTF-8).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNING_SCHEMES = ['standard', 'github', 'stripe'] as const;
export type SigningScheme = (typeof SIGNING_SCHEMES)[number];

export function newSigningSecret(): string {
	return `whsec_${randomBytes(24).toString('base64')}`;
}

function standardKey(secret: string): Buffer {
	return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

export function signStandard(secret: string, id: string, timestampSec: number, body: string | Buffer): string {
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
	switch (scheme) {
		case 'standard':
			return {
				'webhook-id': eventId,
				'webhook-timestamp': String(timestampSec),
				'webhook-signature': signStandard(secret, eventId, timestampSec, body),
			};
		case 'github':
			return { 'X-Hub-Signature-256': signGithub(secret, body) };
		case 'stripe':
			return { 'Stripe-Signature': signStripe(secret, timestampSec, body) };
	}
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
		return given.split(',').some((part) => part.startsWith('v1=') && safeEqual(`t=${ts},${part}`, expected));
	} catch {
		return false;
	}
}
