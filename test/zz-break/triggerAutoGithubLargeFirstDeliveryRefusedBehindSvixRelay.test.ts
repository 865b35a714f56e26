/**
 * docs/signatures.md: "A GitHub-style sha256=<hex> signature of the body verifies at every body size
 * Auto accepts (below), whatever other headers a proxy adds." A relay that signs what it forwards
 * Svix-style (svix-id, svix-timestamp, svix-signature: v1,<base64> of its own) makes Auto put the
 * `whsec_` key first for every form and spend its two tries over a large body on that key: the
 * body under the whole secret (GitHub's form) is never hashed, and the API's genuine first
 * delivery of 300 KiB is refused. (auto.ts is unchanged by the shrink: 1bdf489 does the same.)
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
const github = `sha256=${createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(BODY).digest('hex')}`;

test('a large GitHub-style first delivery verifies without the relay headers (control)', () => {
	expect(
		decideTrust(
			{ headers: { 'x-hub-signature-256': github }, rawBody: BODY, nowSeconds: NOW },
			auto,
		).accepted,
	).toBe(true);
});

test('a large GitHub-style first delivery verifies although a relay added its own Svix-style signature headers', () => {
	const relay = {
		'svix-id': 'msg_relay_1',
		'svix-timestamp': String(NOW),
		'svix-signature': `v1,${randomBytes(32).toString('base64')}`,
	};
	const trust = decideTrust(
		{ headers: { 'x-hub-signature-256': github, ...relay }, rawBody: BODY, nowSeconds: NOW },
		auto,
	);
	expect(trust).toMatchObject({ accepted: true });
});

test('the same for a large Stripe-style first delivery (t=, v1=<hex>, the whole secret) behind that relay', () => {
	const stripe = `t=${NOW},v1=${createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(`${NOW}.`).update(BODY).digest('hex')}`;
	const relay = {
		'svix-id': 'msg_relay_1',
		'svix-timestamp': String(NOW),
		'svix-signature': `v1,${randomBytes(32).toString('base64')}`,
	};
	expect(
		decideTrust({ headers: { 'stripe-signature': stripe }, rawBody: BODY, nowSeconds: NOW }, auto)
			.accepted,
	).toBe(true);
	expect(
		decideTrust(
			{ headers: { 'stripe-signature': stripe, ...relay }, rawBody: BODY, nowSeconds: NOW },
			auto,
		),
	).toMatchObject({ accepted: true });
});
