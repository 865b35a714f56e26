/**
 * docs/signatures.md's table: Auto tries timestamps "in this order: webhook-timestamp or
 * svix-timestamp; t= in the signature value; …", so that "timestamp headers that proxies add …
 * never push out the API's own". The code ranks any `t=` in any signature-named header (rank 0)
 * above webhook-timestamp (rank 1): a relay that adds its own `x-relay-signature: t=<now>,v1=<hex>`
 * pushes the API's timestamp out of the two tries Auto has over a large body, and a genuine
 * Standard Webhooks first delivery of 300 KiB is refused. Once the form is learned ("at most 2 HMACs:
 * the best-named timestamp and id first … one HMAC for a genuine Standard Webhooks … delivery …
 * whatever headers proxies added"), the relay's t= and any id header it adds (`x-relay-id`,
 * `x-event-id`) fill both HMACs: every genuine delivery is refused while the relay is there.
 * (auto.ts is unchanged by the shrink: 1bdf489 does the same.)
 */
import { createHmac, randomBytes } from 'node:crypto';

import type { VerifyOptions } from '../../nodes/BusinessOpsTrigger/signatures/verify';
import { decideTrust as decideWith } from '../../nodes/BusinessOpsTrigger/trust';

type TrustSubscription = Omit<VerifyOptions, 'headers' | 'rawBody' | 'nowSeconds'>;
const decideTrust = (
	req: Pick<VerifyOptions, 'headers' | 'rawBody' | 'nowSeconds'>,
	subscription: TrustSubscription,
) => decideWith({ ...req, ...subscription });

const SECRET = 'whsec_cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhlLXRyaWdnZXI=';
const NOW = 1_700_000_000;
const auto: TrustSubscription = { scheme: 'auto', secret: SECRET, toleranceSeconds: 300 };
const BODY = Buffer.from(
	JSON.stringify({ id: 'evt_1', type: 'invoice.paid', pad: 'x'.repeat(300 * 1024) }),
);
const key = Buffer.from(SECRET.replace(/^whsec_/, ''), 'base64');
const sent = NOW - 3;
const standard = {
	'webhook-id': 'msg_1',
	'webhook-timestamp': String(sent),
	'webhook-signature': `v1,${createHmac('sha256', key).update(`msg_1.${sent}.`).update(BODY).digest('base64')}`,
};

test('control: the large first delivery verifies as sent by the API', () => {
	expect(decideTrust({ headers: standard, rawBody: BODY, nowSeconds: NOW }, auto).accepted).toBe(
		true,
	);
});

test("a relay's own signature header with t=<its time> does not push out webhook-timestamp", () => {
	const headers = {
		...standard,
		'x-relay-signature': `t=${NOW},v1=${randomBytes(32).toString('hex')}`,
	};
	expect(decideTrust({ headers, rawBody: BODY, nowSeconds: NOW }, auto)).toMatchObject({
		accepted: true,
		timestamp: sent,
	});
});

test.each([
	['x-relay-id', { 'x-relay-id': 'r1' }],
	['x-event-id', { 'x-event-id': 'r1' }],
])(
	'once the form is learned, a small delivery verifies behind a relay that adds its t= signature header and %s',
	(_name, id) => {
		const small = Buffer.from(JSON.stringify({ id: 'evt_3', type: 'invoice.paid' }));
		const headers = {
			'x-relay-signature': `t=${NOW},v1=${randomBytes(32).toString('hex')}`,
			...id,
			'webhook-id': 'msg_3',
			'webhook-timestamp': String(sent),
			'webhook-signature': `v1,${createHmac('sha256', key).update(`msg_3.${sent}.`).update(small).digest('base64')}`,
		};
		const learned = { content: '{ID}.{timestamp}.{body}', key: 'whsecBase64' } as const;
		expect(
			decideTrust({ headers, rawBody: small, nowSeconds: NOW }, { ...auto, learned }),
		).toMatchObject({ accepted: true, timestamp: sent });
	},
);
