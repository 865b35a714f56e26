/**
 * Breaker (trust path rewrite): "before learning, the most likely form first ... so each named
 * scheme's genuine delivery verifies with its first HMAC" and "a proxy between the API and n8n that
 * adds headers" (docs/signatures.md, autoSignature.ts searchOrder).
 *
 * Auto's first search tries `{ID}.{timestamp}.{body}` first whenever the request carries any id
 * candidate, with both key forms of a `whsec_` secret, before `{timestamp}.{body}`. A hosting
 * platform in front of n8n adds its own id header that is not on the tracing list (Render adds
 * `rndr-id`; `x-tenant-id`, `x-client-id` of gateways alike). A genuine Stripe-style delivery
 * (`Stripe-Signature: t=...,v1=<hex>` over `{timestamp}.{body}`, whole `whsec_` secret, as
 * Stripe signs) of 300 KiB, the first of the subscription in this process, then gets only its 2
 * most likely tries, both spent on the platform's id: it is refused "tried only the 2 most likely
 * forms". Without the platform's header the same delivery verifies with its first HMAC.
 * Expected: the platform's id header does not make the genuine delivery fail (the Stripe-shaped
 * value, with `t=` and no id named after the signature header, is tried as `{timestamp}.{body}` first).
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
	testNode.workflow.id = `workflow-auto-stripe-platform-id-${++workflows}`;
	return testNode;
}

const raw = JSON.stringify({
	id: 'evt_1',
	type: 'invoice.paid',
	data: { notes: 'n'.repeat(300 * 1024) },
});
const stripe = { 'stripe-signature': stripeSignature(SIGNING, NOW, raw) };

test('a platform id header in front of n8n does not make the first large Stripe-style delivery fail', async () => {
	// without the platform's header it verifies
	expect(
		(await runWebhook(trigger, node(), { headers: stripe, rawBody: Buffer.from(raw) })).result
			.workflowData,
	).toHaveLength(1);
	const run = await runWebhook(trigger, node(), {
		headers: { ...stripe, 'rndr-id': '7f3c2a91-bd1e-4c55' },
		rawBody: Buffer.from(raw),
	});
	// fails today: 401, "signature does not match (Auto has not yet seen ... tried only the 2 most likely forms ...)"
	expect(run.status).toBeUndefined();
	expect(run.result.workflowData).toHaveLength(1);
});
