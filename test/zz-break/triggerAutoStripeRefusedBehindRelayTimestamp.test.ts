/**
 * Breaker (signatures rebuild): docs/signatures.md, "What a delivery costs": "timestamp headers
 * that proxies add (stale, in the future, or equal to the real one) never push out the API's own".
 *
 * Auto ranks `webhook-timestamp`/`svix-timestamp` (rank 0) above the `t=` of a Stripe-style
 * signature value (rank 1), whoever sent the header. A relay in front of n8n that stamps its own
 * hop's `webhook-id` and `webhook-timestamp` (a second or two after the API signed) makes the
 * search of a SMALL first Stripe-style delivery spend its 8 HMACs on the relay's timestamp
 * (`{id}.{ts}`, `{ts}`, `{body}`, `{id}.{t=}`, each with both keys of a `whsec_` secret) and never
 * reach `t=.body`: the genuine delivery is refused "signature does not match". The search's own
 * rule says a `t=` value is Stripe's shape ("a timestamp in the signature value is signed without
 * an id: that first"), but only when `t=` is the best-ranked timestamp.
 * (Same root cause as triggerAutoGithubLargeFirstDeliveryRefusedByRelayTimestamp: a name-only
 * ranking lets a proxy's Standard Webhooks timestamp outrank the one inside the signature value.)
 * Expected: the genuine Stripe-style delivery verifies.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runWebhook } from '../harness/engine';
import { atFixedTime, stripeSignature } from '../trigger/helpers';
import { nodeWithWhk1, SIGNING, trigger } from './liveSubscription';

const NOW = 1_700_000_000;
atFixedTime(NOW);

let workflows = 0;
function node() {
	const testNode = nodeWithWhk1({ events: ['invoice.paid'], options: {} as INodeParameters });
	testNode.workflow.id = `workflow-auto-stripe-relay-${++workflows}`;
	return testNode;
}

const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: { amount: 100 } });
// signed by the API 2 s before the relay forwarded it
const stripe = { 'stripe-signature': stripeSignature(SIGNING, NOW - 2, raw) };

test('a relay stamping its own webhook-timestamp does not make a small Stripe-style delivery fail', async () => {
	expect(
		(await runWebhook(trigger, node(), { headers: stripe, rawBody: Buffer.from(raw) })).result
			.workflowData,
	).toHaveLength(1);
	const relayed = { ...stripe, 'webhook-id': 'relay_msg_2Xk9', 'webhook-timestamp': String(NOW) };
	const run = await runWebhook(trigger, node(), { headers: relayed, rawBody: Buffer.from(raw) });
	// fails today: 401 "signature does not match"
	expect(run.status).toBeUndefined();
	expect(run.result.workflowData).toHaveLength(1);
});
