/**
 * Breaker b29: "a forged request costs at most what a genuine one does" (issue 29).
 *
 * Counted in HMACs over the body (each one reads the whole body, up to 1 MiB under Auto).
 * A genuine Standard Webhooks delivery under Auto costs 1 HMAC, learned form or not. A forged
 * request of the same size and the same header names costs far more:
 * - before the process has learned the subscription's signed form (after a restart, on a fresh
 *   webhook process in queue mode, for every new subscription), the same shape with a junk
 *   signature costs 6 HMACs (3 signed contents x 2 key forms of a whsec_ secret);
 * - after the form is learned, a forged request that sends both the webhook-* and svix-* id and
 *   timestamp headers with distinct values costs 4 (every timestamp x every id), where the
 *   genuine delivery of that shape (the API sends one id and one timestamp) costs 1.
 * Expected: forged <= genuine + 1 in both states.
 */
import * as hmac from '../../nodes/BusinessOpsTrigger/signatures/hmac';
import { verifyDelivery } from '../../nodes/BusinessOpsTrigger/signatures/verify';
import { standardHeaders } from '../trigger/helpers';

const SECRET = 'whsec_cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhlLXRyaWdnZXI=';
const NOW = 1_700_000_000;
const BODY = Buffer.from(
	JSON.stringify({ id: 'evt_1', type: 'invoice.paid', pad: 'x'.repeat(256 * 1024) }),
);
const JUNK = `v1,${Buffer.alloc(32, 7).toString('base64')}`;

function hmacsOf(
	headers: Record<string, string>,
	learned?: hmac.SignedForm,
): { valid: boolean; hmacs: number } {
	const spy = jest.spyOn(hmac, 'hmacOf');
	try {
		const result = verifyDelivery({
			scheme: 'auto',
			secret: SECRET,
			headers,
			rawBody: BODY,
			nowSeconds: NOW,
			toleranceSeconds: 300,
			learned,
		});
		return { valid: result.valid, hmacs: spy.mock.calls.length };
	} finally {
		spy.mockRestore();
	}
}

afterEach(() => jest.restoreAllMocks());

test('nothing learned yet: a forged request of the genuine shape costs at most one HMAC more than the genuine one', () => {
	const genuine = standardHeaders(SECRET, 'msg_1', NOW, BODY);
	const forged = { ...genuine, 'webhook-signature': JUNK };
	const cost = { genuine: hmacsOf(genuine), forged: hmacsOf(forged) };
	expect(cost.genuine).toEqual({ valid: true, hmacs: 1 });
	expect(cost.forged.valid).toBe(false);
	// fails today: 6 HMACs over 256 KiB each for a forged request, 1 for the genuine one
	expect(cost.forged.hmacs).toBeLessThanOrEqual(cost.genuine.hmacs + 1);
});

test('form learned: extra known id and timestamp headers with distinct values do not multiply the cost of a forged request', () => {
	const learned: hmac.SignedForm = { content: '{ID}.{timestamp}.{body}', key: 'whsecBase64' };
	const genuine = standardHeaders(SECRET, 'msg_1', NOW, BODY);
	const forged = {
		...genuine,
		'webhook-signature': JUNK,
		'svix-id': 'msg_2',
		'svix-timestamp': String(NOW - 1),
	};
	const cost = { genuine: hmacsOf(genuine, learned), forged: hmacsOf(forged, learned) };
	expect(cost.genuine).toEqual({ valid: true, hmacs: 1 });
	expect(cost.forged.valid).toBe(false);
	// fails today: 4 HMACs (2 timestamps x 2 ids) for a forged request, 1 for the genuine one
	expect(cost.forged.hmacs).toBeLessThanOrEqual(cost.genuine.hmacs + 1);
});

test('form learned: three delivery-id headers and two timestamps in a forged request cost no more than the genuine delivery of that shape', () => {
	const learned: hmac.SignedForm = { content: '{ID}.{timestamp}.{body}', key: 'whsecBase64' };
	const { 'webhook-signature': signature } = standardHeaders(SECRET, 'msg_1', NOW, BODY);
	// the API's own shape: its id under x-bo-delivery, its timestamp under webhook-timestamp
	const genuine = {
		'x-bo-delivery': 'msg_1',
		'webhook-timestamp': String(NOW),
		'webhook-signature': signature,
	};
	const forged = {
		...genuine,
		'webhook-signature': JUNK,
		'x-a-delivery': 'a',
		'x-b-delivery': 'b',
		'svix-timestamp': String(NOW - 1),
	};
	const cost = { genuine: hmacsOf(genuine, learned), forged: hmacsOf(forged, learned) };
	expect(cost.genuine).toEqual({ valid: true, hmacs: 1 });
	expect(cost.forged.valid).toBe(false);
	// fails today: 6 HMACs (2 timestamps x 3 ids), each over the whole body (no size bound once learned)
	expect(cost.forged.hmacs).toBeLessThanOrEqual(cost.genuine.hmacs + 1);
});
