/**
 * Under Auto, the `t=` elements of every header whose name contains `signature` must name one time
 * (auto.ts: "one delivery is signed at one time"). docs/signatures.md states that rule for "a
 * signature header sent twice"; Auto applies it across different headers, so a relay that adds a
 * signature header of its own in the same shape (Convoy-style `x-relay-signature: t=<its time>,v1=…`)
 * makes every genuine Stripe-style delivery "malformed": refused at any size, learned form or not,
 * as long as the relay is there. (auto.ts is unchanged by the shrink: 1bdf489 does the same.)
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
const sent = NOW - 3;
const body = Buffer.from(JSON.stringify({ id: 'evt_2', type: 'invoice.paid' }));
const stripe = `t=${sent},v1=${createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(`${sent}.`).update(body).digest('hex')}`;

test('control: the Stripe-style delivery verifies as sent by the API', () => {
	expect(
		decideTrust({ headers: { 'stripe-signature': stripe }, rawBody: body, nowSeconds: NOW }, auto)
			.accepted,
	).toBe(true);
});

test("a relay's own signature header naming its own t= does not make the API's Stripe-style delivery malformed", () => {
	const headers = {
		'stripe-signature': stripe,
		'x-relay-signature': `t=${NOW},v1=${randomBytes(32).toString('hex')}`,
	};
	expect(decideTrust({ headers, rawBody: body, nowSeconds: NOW }, auto)).toMatchObject({
		accepted: true,
		timestamp: sent,
	});
});

test('nor once Auto has learned the form', () => {
	const headers = {
		'stripe-signature': stripe,
		'x-relay-signature': `t=${NOW},v1=${randomBytes(32).toString('hex')}`,
	};
	const learned = { content: '{timestamp}.{body}', key: 'secret' } as const;
	expect(
		decideTrust({ headers, rawBody: body, nowSeconds: NOW }, { ...auto, learned }),
	).toMatchObject({ accepted: true, timestamp: sent });
});
