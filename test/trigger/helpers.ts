/**
 * Test-side signers, written from the scheme descriptions (not from the node's verifier), and
 * a log capture for checking that the signing secret never reaches the logs.
 */
import { createHmac } from 'node:crypto';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import * as hmac from '../../nodes/BusinessOpsTrigger/signatures/hmac';
import { verifyDelivery } from '../../nodes/BusinessOpsTrigger/signatures/verify';
import { fastClock, realClock } from '../harness/clock';

/** The Standard Webhooks specification's published test vector. */
export const VECTOR = {
	secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
	id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
	timestamp: 1614265330,
	body: '{"test": 2432232314}',
	signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

export function standardHeaders(
	secret: string,
	id: string,
	timestamp: number,
	body: string | Buffer,
) {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
	return {
		'webhook-id': id,
		'webhook-timestamp': String(timestamp),
		'webhook-signature': `v1,${mac}`,
	};
}

export function githubSignature(secret: string, body: string | Buffer): string {
	return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`;
}

export function stripeV1(secret: string, timestamp: number, body: string | Buffer): string {
	return createHmac('sha256', Buffer.from(secret, 'utf8'))
		.update(`${timestamp}.`)
		.update(body)
		.digest('hex');
}

export function stripeSignature(secret: string, timestamp: number, body: string | Buffer): string {
	return `t=${timestamp},v1=${stripeV1(secret, timestamp, body)}`;
}

export interface LogLine {
	level: string;
	message: string;
	meta?: unknown;
}

/** Replaces n8n's Logger (which node contexts read from the DI container) with a recorder. */
export function captureLogs(): { lines: LogLine[]; restore: () => void } {
	const lines: LogLine[] = [];
	const original = Container.get(Logger);
	const record =
		(level: string) =>
		(message: string, meta?: unknown): void => {
			lines.push({ level, message, meta });
		};
	const fake = {
		error: record('error'),
		warn: record('warn'),
		info: record('info'),
		debug: record('debug'),
		scoped: () => fake,
	};
	Container.set(Logger, fake as unknown as Logger);
	return { lines, restore: () => Container.set(Logger, original) };
}

/** A signing form as an API might use it; signed here from its description, not by the node. */
export interface FormSpec {
	header: string;
	/** How the value is written: `v1,<base64>`, `sha256=<hex>`, `t=<ts>,v1=<hex>`, bare hex or bare base64. */
	value: 'v1,base64' | 'sha256=hex' | 't=,v1=hex' | 'hex' | 'base64';
	content: 'body' | 'timestamp.body' | 'id.timestamp.body';
	key: 'secret' | 'whsec';
	/** Where a timestamp travels outside the value (`t=` carries it otherwise). */
	timestampHeader?: string;
	idHeader?: string;
	algorithm?: 'sha256' | 'sha512';
}

export function formHeaders(
	spec: FormSpec,
	secret: string,
	id: string,
	timestamp: number,
	body: string | Buffer,
) {
	const key =
		spec.key === 'whsec'
			? Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
			: Buffer.from(secret, 'utf8');
	const prefix =
		spec.content === 'body'
			? ''
			: spec.content === 'timestamp.body'
				? `${timestamp}.`
				: `${id}.${timestamp}.`;
	const mac = createHmac(spec.algorithm ?? 'sha256', key)
		.update(prefix)
		.update(body)
		.digest();
	const values = {
		'v1,base64': `v1,${mac.toString('base64')}`,
		'sha256=hex': `sha256=${mac.toString('hex')}`,
		't=,v1=hex': `t=${timestamp},v1=${mac.toString('hex')}`,
		hex: mac.toString('hex'),
		base64: mac.toString('base64'),
	};
	const headers: Record<string, string> = { [spec.header]: values[spec.value] };
	if (spec.timestampHeader) headers[spec.timestampHeader] = String(timestamp);
	if (spec.idHeader) headers[spec.idHeader] = id;
	return headers;
}

/** For each test of the file: the fast clock, captured logs and Date.now() at `nowSeconds`; all undone after. */
export function atFixedTime(nowSeconds: number): { logs: () => ReturnType<typeof captureLogs> } {
	let logs: ReturnType<typeof captureLogs>;
	beforeEach(() => {
		fastClock();
		logs = captureLogs();
		jest.spyOn(Date, 'now').mockReturnValue(nowSeconds * 1000);
	});
	afterEach(() => {
		realClock();
		logs.restore();
		jest.restoreAllMocks();
	});
	return { logs: () => logs };
}

/** Auto's verdict on a request at `nowSeconds` (`learned`: the form it learned) and how many HMACs it computed. */
export function autoHmacs(
	secret: string,
	headers: Record<string, string>,
	rawBody: Buffer,
	nowSeconds: number,
	learned?: hmac.SignedForm,
): { valid: boolean; hmacs: number } {
	const spy = jest.spyOn(hmac, 'hmacOf');
	try {
		const result = verifyDelivery({
			scheme: 'auto',
			secret,
			headers,
			rawBody,
			nowSeconds,
			toleranceSeconds: 300,
			learned,
		});
		return { valid: result.valid, hmacs: spy.mock.calls.length };
	} finally {
		spy.mockRestore();
	}
}
