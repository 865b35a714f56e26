/**
 * Breaker (signatures rebuild): docs/signatures.md: "Under every scheme, a signature header sent
 * twice ... is read whole ... Stripe-style entries must then carry the same `t=` (one delivery is
 * signed at one time); two different ones are refused as malformed."
 *
 * The Stripe-Style scheme refuses them ("malformed Stripe-Signature header"), but Auto (the
 * default) takes every `t=` as a candidate and accepts `t=A,v1=…, t=B,v1=…`: the rule holds for
 * one scheme, not "under every scheme". (Low impact: the entry that verifies is genuine and in the
 * window; the documented rule and the two schemes disagree.)
 * Expected: Auto refuses a Stripe-style header whose entries name two different times, as the
 * Stripe-Style scheme does.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runWebhook } from '../harness/engine';
import { atFixedTime, stripeSignature } from '../trigger/helpers';
import { nodeWithWhk1, SIGNING, trigger } from './liveSubscription';

const NOW = 1_700_000_000;
atFixedTime(NOW);

let workflows = 0;
function node(options: INodeParameters) {
	const testNode = nodeWithWhk1({ events: ['invoice.paid'], options });
	testNode.workflow.id = `workflow-two-times-${++workflows}`;
	return testNode;
}

const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
const joined = {
	'stripe-signature': `${stripeSignature(SIGNING, NOW, raw)}, ${stripeSignature(SIGNING, NOW - 5, raw)}`,
};

test('Stripe-Style refuses entries of two different times', async () => {
	expect(
		(
			await runWebhook(trigger, node({ signatureScheme: 'stripe' }), {
				headers: joined,
				rawBody: Buffer.from(raw),
			})
		).status,
	).toBe(401);
});

test('Auto refuses them too ("under every scheme")', async () => {
	// fails today: Auto accepts and starts the workflow
	expect(
		(await runWebhook(trigger, node({}), { headers: joined, rawBody: Buffer.from(raw) })).status,
	).toBe(401);
});
