import { createHmac } from 'node:crypto';

import {
	standardWebhooksKey,
	verifyDelivery,
	type VerifyOptions,
	type VerifyResult,
} from '../../nodes/BusinessOpsTrigger/signature';
import { signatureHeaders } from '../../sandbox/src/signing';
import { githubSignature, standardHeaders, stripeSignature, stripeV1, VECTOR } from './helpers';

const NOW = VECTOR.timestamp;
const SECRET = 'whsec_c2VjcmV0LWZvci10aGUtdHJpZ2dlci10ZXN0cy0xMjM0NQ==';
const BODY = '{"id":"evt_1","type":"invoice.paid","timestamp":"2021-02-26T00:22:10.000Z","data":{"id":"inv_1"}}';

function verify(overrides: Partial<VerifyOptions>): VerifyResult {
	return verifyDelivery({
		scheme: 'auto',
		secret: SECRET,
		headers: {},
		rawBody: Buffer.from(BODY),
		nowSeconds: NOW,
		...overrides,
	});
}

function reasonOf(result: VerifyResult): string {
	if (result.valid) throw new Error('expected a failure');
	return result.reason;
}

describe('Standard Webhooks', () => {
	const vector = {
		'webhook-id': VECTOR.id,
		'webhook-timestamp': String(VECTOR.timestamp),
		'webhook-signature': VECTOR.signature,
	};
	const run = (headers: Record<string, string>, overrides: Partial<VerifyOptions> = {}) =>
		verify({
			scheme: 'standardWebhooks',
			secret: VECTOR.secret,
			headers,
			rawBody: Buffer.from(VECTOR.body),
			...overrides,
		});

	test('accepts the published test vector', () => {
		expect(run(vector)).toEqual({ valid: true, scheme: 'standardWebhooks', timestamp: VECTOR.timestamp });
	});

	test('the test-side signer reproduces the vector (so the other tests sign correctly)', () => {
		expect(standardHeaders(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toEqual(vector);
	});

	test('the key is the base64 after whsec_, not the secret text', () => {
		expect(standardWebhooksKey(VECTOR.secret)).toEqual(Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'));
	});

	test('header names are matched whatever their case', () => {
		const upper = Object.fromEntries(Object.entries(vector).map(([k, v]) => [k.toUpperCase(), v]));
		expect(run(upper).valid).toBe(true);
	});

	test('a body changed by one byte is refused', () => {
		const tampered = Buffer.from(VECTOR.body);
		tampered[tampered.length - 2] ^= 1;
		expect(reasonOf(run(vector, { rawBody: tampered }))).toBe('signature does not match');
	});

	test('the same JSON with different bytes (re-serialised) is refused', () => {
		const reserialised = JSON.stringify(JSON.parse(VECTOR.body));
		expect(reserialised).not.toBe(VECTOR.body);
		expect(reasonOf(run(vector, { rawBody: Buffer.from(reserialised) }))).toBe('signature does not match');
	});

	test('timestamps up to the tolerance are accepted, beyond it refused (stale and future)', () => {
		expect(run(vector, { nowSeconds: NOW + 300 }).valid).toBe(true);
		expect(run(vector, { nowSeconds: NOW - 300 }).valid).toBe(true);
		expect(reasonOf(run(vector, { nowSeconds: NOW + 301 }))).toBe('timestamp too old');
		expect(reasonOf(run(vector, { nowSeconds: NOW - 301 }))).toBe('timestamp in the future');
		expect(reasonOf(run(vector, { nowSeconds: NOW + 61, toleranceSeconds: 60 }))).toBe('timestamp too old');
	});

	test('a timestamp that was signed but moved is refused', () => {
		expect(reasonOf(run({ ...vector, 'webhook-timestamp': String(NOW + 1) }))).toBe('signature does not match');
	});

	test.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])('missing %s is refused', (name) => {
		const headers: Record<string, string> = { ...vector };
		delete headers[name];
		expect(reasonOf(run(headers))).toBe(`missing ${name} header`);
	});

	test.each([
		['webhook-signature', 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
		['webhook-signature', 'v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
		['webhook-signature', 'v1:g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
		['webhook-signature', 'v1,not-base64!'],
		['webhook-signature', 'v1,'],
	])('a malformed %s "%s" is refused', (name, value) => {
		expect(reasonOf(run({ ...vector, [name]: value }))).toBe('malformed webhook-signature header');
	});

	test.each(['abc', '1614265330.5', '-1614265330', '1614265330000000'])(
		'a malformed timestamp "%s" is refused',
		(value) => {
			expect(reasonOf(run({ ...vector, 'webhook-timestamp': value }))).toBe('malformed timestamp');
		},
	);

	test('several signatures (secret rotation): one valid is enough', () => {
		const other = 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
		expect(run({ ...vector, 'webhook-signature': `${other} ${VECTOR.signature}` }).valid).toBe(true);
		expect(run({ ...vector, 'webhook-signature': `v2,xyz ${VECTOR.signature}` }).valid).toBe(true);
		expect(run({ ...vector, 'webhook-signature': `${VECTOR.signature} ${other}` }).valid).toBe(true);
		expect(reasonOf(run({ ...vector, 'webhook-signature': `${other} ${other}` }))).toBe('signature does not match');
	});

	test('a wrong secret is refused', () => {
		expect(reasonOf(run(vector, { secret: SECRET }))).toBe('signature does not match');
	});
});

describe('GitHub-style', () => {
	const headers = { 'x-hub-signature-256': githubSignature(SECRET, BODY) };

	test('accepts a valid signature in the default header', () => {
		expect(verify({ scheme: 'github', headers })).toEqual({ valid: true, scheme: 'github' });
	});

	test('the key is the whole secret as UTF-8 (whsec_ included)', () => {
		const base64Keyed = `sha256=${createHmac('sha256', standardWebhooksKey(SECRET)).update(BODY).digest('hex')}`;
		expect(verify({ scheme: 'github', headers: { 'x-hub-signature-256': base64Keyed } }).valid).toBe(false);
	});

	test('upper-case hex is accepted', () => {
		const value = `sha256=${headers['x-hub-signature-256'].slice('sha256='.length).toUpperCase()}`;
		expect(verify({ scheme: 'github', headers: { 'x-hub-signature-256': value } }).valid).toBe(true);
	});

	test('a configured header is read instead of the default', () => {
		const custom = { 'x-signature': githubSignature(SECRET, BODY) };
		expect(verify({ scheme: 'github', headers: custom, signatureHeader: 'X-Signature' }).valid).toBe(true);
		expect(reasonOf(verify({ scheme: 'github', headers, signatureHeader: 'X-Signature' }))).toBe(
			'missing X-Signature header',
		);
	});

	test('tampered body, wrong secret, missing and malformed headers are refused', () => {
		expect(reasonOf(verify({ scheme: 'github', headers, rawBody: Buffer.from(BODY.replace('inv_1', 'inv_2')) }))).toBe(
			'signature does not match',
		);
		expect(reasonOf(verify({ scheme: 'github', headers, secret: 'other' }))).toBe('signature does not match');
		expect(reasonOf(verify({ scheme: 'github', headers: {} }))).toBe('missing X-Hub-Signature-256 header');
		const hex = headers['x-hub-signature-256'].slice('sha256='.length);
		for (const bad of [hex, `sha1=${hex}`, `sha256=${hex.slice(2)}`, `sha256=${hex}zz`]) {
			expect(reasonOf(verify({ scheme: 'github', headers: { 'x-hub-signature-256': bad } }))).toBe(
				'malformed X-Hub-Signature-256 header',
			);
		}
	});
});

describe('Stripe-style', () => {
	const headers = { 'stripe-signature': stripeSignature(SECRET, NOW, BODY) };

	test('accepts a valid signature', () => {
		expect(verify({ scheme: 'stripe', headers })).toEqual({ valid: true, scheme: 'stripe', timestamp: NOW });
	});

	test('several v1 signatures: one valid is enough; other schemes in the header are ignored', () => {
		const value = `t=${NOW},v1=${'0'.repeat(64)},v0=abc,v1=${stripeV1(SECRET, NOW, BODY)}`;
		expect(verify({ scheme: 'stripe', headers: { 'Stripe-Signature': value } }).valid).toBe(true);
		const none = `t=${NOW},v1=${'0'.repeat(64)},v1=${'1'.repeat(64)}`;
		expect(reasonOf(verify({ scheme: 'stripe', headers: { 'stripe-signature': none } }))).toBe(
			'signature does not match',
		);
	});

	test('stale and future timestamps are refused', () => {
		const stale = { 'stripe-signature': stripeSignature(SECRET, NOW - 301, BODY) };
		const future = { 'stripe-signature': stripeSignature(SECRET, NOW + 301, BODY) };
		expect(reasonOf(verify({ scheme: 'stripe', headers: stale }))).toBe('timestamp too old');
		expect(reasonOf(verify({ scheme: 'stripe', headers: future }))).toBe('timestamp in the future');
		expect(verify({ scheme: 'stripe', headers: stale, toleranceSeconds: 600 }).valid).toBe(true);
	});

	test('a changed t (signed value moved) is refused', () => {
		const moved = { 'stripe-signature': `t=${NOW + 1},v1=${stripeV1(SECRET, NOW, BODY)}` };
		expect(reasonOf(verify({ scheme: 'stripe', headers: moved }))).toBe('signature does not match');
	});

	test('missing and malformed headers are refused', () => {
		const v1 = stripeV1(SECRET, NOW, BODY);
		expect(reasonOf(verify({ scheme: 'stripe', headers: {} }))).toBe('missing Stripe-Signature header');
		for (const bad of [`v1=${v1}`, `t=${NOW}`, `t=${NOW},t=${NOW},v1=${v1}`, `t=${NOW},v1=xyz`, 'garbage']) {
			expect(reasonOf(verify({ scheme: 'stripe', headers: { 'stripe-signature': bad } }))).toBe(
				'malformed Stripe-Signature header',
			);
		}
		expect(reasonOf(verify({ scheme: 'stripe', headers: { 'stripe-signature': `t=soon,v1=${v1}` } }))).toBe(
			'malformed timestamp',
		);
	});

	test('tampered body and wrong secret are refused; a configured header is read', () => {
		expect(reasonOf(verify({ scheme: 'stripe', headers, rawBody: Buffer.from(`${BODY} `) }))).toBe(
			'signature does not match',
		);
		expect(reasonOf(verify({ scheme: 'stripe', headers, secret: 'whsec_other' }))).toBe('signature does not match');
		const custom = { 'x-bo-signature': stripeSignature(SECRET, NOW, BODY) };
		expect(verify({ scheme: 'stripe', headers: custom, signatureHeader: 'X-BO-Signature' }).valid).toBe(true);
	});
});

describe('Auto', () => {
	test('accepts each scheme when its headers verify', () => {
		expect(verify({ headers: standardHeaders(SECRET, 'evt_1', NOW, BODY) })).toMatchObject({
			valid: true,
			scheme: 'standardWebhooks',
		});
		expect(verify({ headers: { 'x-hub-signature-256': githubSignature(SECRET, BODY) } })).toMatchObject({
			valid: true,
			scheme: 'github',
		});
		expect(verify({ headers: { 'stripe-signature': stripeSignature(SECRET, NOW, BODY) } })).toMatchObject({
			valid: true,
			scheme: 'stripe',
		});
	});

	test('refuses a delivery without any signature header', () => {
		expect(reasonOf(verify({ headers: { 'content-type': 'application/json' } }))).toBe(
			'missing signature header (expected webhook-signature, X-Hub-Signature-256 or Stripe-Signature)',
		);
	});

	test('only a full match counts: a stale or wrong signature is not rescued by being present', () => {
		expect(reasonOf(verify({ headers: standardHeaders(SECRET, 'evt_1', NOW - 400, BODY) }))).toBe('timestamp too old');
		expect(reasonOf(verify({ headers: standardHeaders('whsec_b3RoZXI=', 'evt_1', NOW, BODY) }))).toBe(
			'signature does not match',
		);
		const partial = { 'webhook-signature': standardHeaders(SECRET, 'evt_1', NOW, BODY)['webhook-signature'] };
		expect(reasonOf(verify({ headers: partial }))).toBe('missing webhook-id, webhook-timestamp header');
		expect(
			verify({
				headers: {
					'x-hub-signature-256': githubSignature('wrong', BODY),
					'stripe-signature': stripeSignature('wrong', NOW, BODY),
				},
			}).valid,
		).toBe(false);
	});

	test('one valid scheme among several headers is accepted', () => {
		const headers = {
			...standardHeaders('whsec_b3RoZXI=', 'evt_1', NOW, BODY),
			'stripe-signature': stripeSignature(SECRET, NOW, BODY),
		};
		expect(verify({ headers })).toMatchObject({ valid: true, scheme: 'stripe' });
	});

	test('with one custom header, the value form picks GitHub-style or Stripe-style', () => {
		const signatureHeader = 'X-Signature';
		expect(verify({ signatureHeader, headers: { 'x-signature': githubSignature(SECRET, BODY) } }).valid).toBe(true);
		expect(
			verify({ signatureHeader, headers: { 'x-signature': stripeSignature(SECRET, NOW, BODY) } }).valid,
		).toBe(true);
		expect(reasonOf(verify({ signatureHeader, headers: { 'x-signature': 'nonsense' } }))).toBe(
			'malformed X-Signature header',
		);
	});
});

describe('fails closed, never throws', () => {
	const headers = standardHeaders(SECRET, 'evt_1', NOW, BODY);

	test('no stored secret', () => {
		for (const secret of [undefined, '']) {
			expect(reasonOf(verify({ headers, secret }))).toBe('no signing secret is stored');
		}
	});

	test('no raw body (the parsed body is never re-serialised)', () => {
		expect(reasonOf(verify({ headers, rawBody: undefined }))).toBe('the raw request body is not available');
	});

	test('None accepts anything, with or without secret and body', () => {
		expect(verify({ scheme: 'none', headers: {}, secret: undefined, rawBody: undefined })).toEqual({
			valid: true,
			scheme: 'none',
		});
	});

	test('odd inputs give a refusal, not an exception', () => {
		const odd: Array<Partial<VerifyOptions>> = [
			{ headers: { 'webhook-signature': ['v1,a', 'v1,b'], 'webhook-id': undefined } },
			{ headers: { 'stripe-signature': ['t=1', 'v1=2'] } },
			{ headers: headers, secret: 42 as unknown as string },
			{ headers: headers, rawBody: 12 as unknown as Buffer },
			{ headers: null as unknown as Record<string, string> },
			{ scheme: 'sha1' as never, headers },
		];
		for (const options of odd) {
			expect(() => verify(options)).not.toThrow();
			expect(verify(options).valid).toBe(false);
		}
	});

	test('no refusal reason contains the secret or an expected signature', () => {
		const expected = [
			headers['webhook-signature'].slice(3),
			githubSignature(SECRET, BODY).slice(7),
			stripeV1(SECRET, NOW, BODY),
		];
		const failures = [
			verify({ headers, rawBody: Buffer.from('{}') }),
			verify({ scheme: 'github', headers: { 'x-hub-signature-256': githubSignature(SECRET, '{}') } }),
			verify({ scheme: 'stripe', headers: { 'stripe-signature': stripeSignature(SECRET, NOW, '{}') } }),
			verify({ scheme: 'stripe', headers: { 'stripe-signature': stripeSignature(SECRET, 1, BODY) } }),
			verify({ headers: {} }),
		];
		for (const result of failures) {
			const reason = reasonOf(result);
			expect(reason).not.toContain(SECRET);
			expect(reason).not.toContain(SECRET.slice('whsec_'.length));
			for (const signature of expected) expect(reason).not.toContain(signature);
		}
	});
});

describe('interoperates with the sandbox API signer', () => {
	test.each(['standard', 'github', 'stripe'] as const)('%s deliveries verify, explicitly and under Auto', (scheme) => {
		const body = Buffer.from(BODY);
		const signed = signatureHeaders(scheme, SECRET, 'evt_1', NOW, body);
		const explicit = { standard: 'standardWebhooks', github: 'github', stripe: 'stripe' }[scheme] as VerifyOptions['scheme'];
		expect(verify({ scheme: explicit, headers: signed, rawBody: body }).valid).toBe(true);
		expect(verify({ scheme: 'auto', headers: signed, rawBody: body }).valid).toBe(true);
		expect(verify({ scheme: explicit, headers: signed, rawBody: Buffer.from(`${BODY}\n`) }).valid).toBe(false);
	});
});
