/**
 * Auto with several signature headers (the API's and a relay's): each header's tries come in turn,
 * and a signed content and key form two headers share is hashed once.
 */
import { createHmac } from 'node:crypto';

import * as hmac from '../../nodes/BusinessOpsTrigger/signatures/hmac';
import { verifyDelivery } from '../../nodes/BusinessOpsTrigger/signatures/verify';

const SECRET = 'production-secret-of-the-trigger';
const NOW = 1_700_000_000;
const BODY = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'invoice.paid' }));
const junk = (byte: number) => `sha256=${Buffer.alloc(32, byte).toString('hex')}`;

function hmacsOf(headers: Record<string, string>): { valid: boolean; hmacs: number } {
	const spy = jest.spyOn(hmac, 'hmacOf');
	try {
		const result = verifyDelivery({
			scheme: 'auto',
			secret: SECRET,
			headers,
			rawBody: BODY,
			nowSeconds: NOW,
			toleranceSeconds: 300,
		});
		return { valid: result.valid, hmacs: spy.mock.calls.length };
	} finally {
		spy.mockRestore();
	}
}

test('a second signature header of the same form adds no HMAC to a forged request', () => {
	const one = hmacsOf({ 'x-hub-signature-256': junk(1) });
	const two = hmacsOf({ 'x-hub-signature-256': junk(1), 'x-relay-signature': junk(2) });
	expect(one).toEqual({ valid: false, hmacs: 1 });
	expect(two).toEqual(one);
});

test("the API's signature verifies whichever header comes first", () => {
	const genuine = `sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}`;
	expect(
		hmacsOf({
			'x-relay-signature': `t=${NOW},v1=${Buffer.alloc(32, 3).toString('hex')}`,
			'x-hub-signature-256': genuine,
		}),
	).toEqual({ valid: true, hmacs: 2 });
});

test("a stale delivery behind a relay header naming its own fresh t= is refused for the API's timestamp", () => {
	const key = Buffer.from('production-signing-key-bytes');
	const secret = `whsec_${key.toString('base64')}`;
	const sent = NOW - 3600;
	const headers = {
		'webhook-id': 'msg_1',
		'webhook-timestamp': String(sent),
		'webhook-signature': `v1,${createHmac('sha256', key).update(`msg_1.${sent}.`).update(BODY).digest('base64')}`,
		'x-relay-signature': `t=${NOW},v1=${Buffer.alloc(32, 4).toString('hex')}`,
	};
	const result = verifyDelivery({
		scheme: 'auto',
		secret,
		headers,
		rawBody: BODY,
		nowSeconds: NOW,
		toleranceSeconds: 300,
	});
	expect(result).toEqual({
		valid: false,
		kind: 'window',
		reason:
			'signature does not match (and timestamp too old: a timestamp outside the window is not tried)',
	});
});
