/**
 * Breaker (signatures rebuild): docs/signatures.md: "A delivery whose signature verified but whose
 * body is not a JSON object gets 400 `{"error":"body is not a JSON object"}`: only the secret's
 * holder can send one", and a timestamp outside the Timestamp Tolerance is refused as a replay.
 *
 * Before Auto has learned the form (a fresh n8n process, a restart), it also tries `{body}` alone.
 * A stranger who once saw a genuine Standard Webhooks delivery, however old, sends its signed
 * content `<webhook-id>.<webhook-timestamp>.<body>` as the body, with the genuine signature in any
 * `*signature*` header and no timestamp at all: the HMAC over the body alone matches, so the
 * signature "verifies" with no replay window, and the trigger answers 400 "body is not a JSON
 * object" (logging that a verified delivery had a bad body) instead of 401. The same works with a
 * Stripe-style delivery (`<t>.<body>`). No workflow starts, but the 400 shows the stranger the
 * signature verified, the window never applied, and the log blames the API's bodies.
 * (The "What Auto remembers" section describes this 400 as harmless, since nothing is learned; it
 * contradicts "only the secret's holder can send one" and the replay window. Included as doubtful.)
 * Expected by the breaker: 401. Kept as documented instead (docs/signatures.md, "When a delivery is
 * refused" and "What Auto remembers"): refusing it would mean never trying a `v1,` value as the body
 * alone, which the sandbox's own form "standard over body" needs. The capture gets 400, starts
 * nothing and teaches nothing: a later genuine delivery still verifies.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runWebhook } from '../harness/engine';
import { atFixedTime, standardHeaders } from '../trigger/helpers';
import { nodeWithWhk1, SIGNING, trigger } from './liveSubscription';

const NOW = 1_700_000_000;
atFixedTime(NOW);

test('an hour-old Standard Webhooks capture rebuilt as a body gets 400, starts nothing and teaches nothing', async () => {
	const testNode = nodeWithWhk1({ events: ['invoice.paid'], options: {} as INodeParameters });
	testNode.workflow.id = 'workflow-old-capture-as-body';
	const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
	const captured = standardHeaders(SIGNING, 'msg_1', NOW - 3600, raw);
	// as sent: refused, too old
	expect(
		(await runWebhook(trigger, testNode, { headers: captured, rawBody: Buffer.from(raw) })).status,
	).toBe(401);
	const rebuilt = Buffer.from(`msg_1.${NOW - 3600}.${raw}`);
	const run = await runWebhook(trigger, testNode, {
		headers: { 'x-signature': captured['webhook-signature'] },
		rawBody: rebuilt,
	});
	expect(run.status).toBe(400);
	expect(run.sent).toEqual({ error: 'body is not a JSON object' });
	expect(run.result.workflowData).toBeUndefined();
	const fresh = standardHeaders(SIGNING, 'msg_2', NOW, raw);
	expect(
		(await runWebhook(trigger, testNode, { headers: fresh, rawBody: Buffer.from(raw) })).result
			.workflowData,
	).toHaveLength(1);
});
