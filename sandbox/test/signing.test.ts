import { createHmac } from 'node:crypto';

import {
	newSigningSecret,
	signatureHeaders,
	signGithub,
	signStandard,
	signStripe,
	verifyDelivery,
} from '../src/signing';

describe('signing', () => {
	test('signStandard matches the published Standard Webhooks test vector', () => {
		expect(
			signStandard(
				'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
				'msg_p5jXN8AQM9LWM0D4loKWxJek',
				1614265330,
				'{"test": 2432232314}',
			),
		).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
	});

	test('signGithub is sha256=<hex HMAC of the body> keyed with the whole secret', () => {
		const secret = 'whsec_abc';
		const body = '{"a":1}';
		expect(signGithub(secret, body)).toBe(
			`sha256=${createHmac('sha256', 'whsec_abc').update(body).digest('hex')}`,
		);
		// GitHub's documented example: secret "It's a Secret to Everybody", payload "Hello, World!".
		expect(signGithub("It's a Secret to Everybody", 'Hello, World!')).toBe(
			'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
		);
	});

	test('signStripe is t=<ts>,v1=<hex HMAC of "ts.body"> keyed with the whole secret', () => {
		const expected = createHmac('sha256', 'whsec_abc').update('1700000000.{"a":1}').digest('hex');
		expect(signStripe('whsec_abc', 1700000000, '{"a":1}')).toBe(`t=1700000000,v1=${expected}`);
	});

	test('secrets are whsec_ + base64 of 24 random bytes', () => {
		const secret = newSigningSecret();
		expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
		expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
		expect(newSigningSecret()).not.toBe(secret);
	});

	test('signatureHeaders and verifyDelivery agree for every scheme and refuse tampering', () => {
		const secret = newSigningSecret();
		const body = '{"id":"evt_1","type":"quote.approved"}';
		const now = Math.floor(Date.now() / 1000);
		for (const scheme of ['standard', 'github', 'stripe'] as const) {
			const headers = signatureHeaders(scheme, secret, 'evt_1', now, body);
			expect(verifyDelivery(scheme, secret, headers, body)).toBe(true);
			expect(verifyDelivery(scheme, secret, headers, body.replace('approved', 'created'))).toBe(
				false,
			);
			expect(verifyDelivery(scheme, newSigningSecret(), headers, body)).toBe(false);
		}
		const old = signatureHeaders('standard', secret, 'evt_1', now - 3600, body);
		expect(verifyDelivery('standard', secret, old, body)).toBe(false);
	});
});
