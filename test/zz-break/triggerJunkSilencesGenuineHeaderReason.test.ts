/**
 * Breaker (refusal log rebuild): docs/signatures.md: "junk that a stranger sends (no signature
 * header, or a malformed one) never keeps the reason a genuine delivery fails ... out of the log:
 * junk that falls in the same kind names the same reason."
 *
 * The kind `headers` holds both the stranger's junk ("missing webhook-signature header", a request
 * with no signature at all) and reasons only a genuine delivery gets: "malformed timestamp" (the
 * API sends its timestamp in milliseconds, or a proxy repeated the header), "missing webhook-id
 * header". One junk request a minute then keeps the genuine delivery's reason out of n8n's log:
 * the only line says the signature header is missing, while every genuine delivery is refused for
 * its timestamp.
 * Expected: the genuine delivery's reason ("malformed timestamp") reaches the log.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runWebhook } from '../harness/engine';
import { atFixedTime, standardHeaders } from '../trigger/helpers';
import { nodeWithWhk1, SIGNING, trigger } from './liveSubscription';

const NOW = 1_700_000_000;
const fixed = atFixedTime(NOW);
const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });

const refusals = () =>
	fixed.logs().lines.filter((line) => line.message.includes('refused a delivery'));

test('a request without any signature keeps "malformed timestamp" of the genuine delivery out of the log', async () => {
	const testNode = nodeWithWhk1({
		events: ['invoice.paid'],
		options: { signatureScheme: 'standardWebhooks' } as INodeParameters,
	});
	testNode.workflow.id = 'workflow-junk-silences-headers';
	// a stranger's request with no signature header at all
	expect(
		(await runWebhook(trigger, testNode, { headers: {}, rawBody: Buffer.from(raw) })).status,
	).toBe(401);
	// the API's genuine delivery, its timestamp in milliseconds
	const genuine = {
		headers: {
			...standardHeaders(SIGNING, 'msg_1', NOW, raw),
			'webhook-timestamp': String(NOW * 1000),
		},
		rawBody: Buffer.from(raw),
	};
	expect((await runWebhook(trigger, testNode, genuine)).status).toBe(401);
	// fails today: the only line says "missing webhook-signature header", the stranger's reason
	expect(refusals().some((line) => line.message.includes('malformed timestamp'))).toBe(true);
});
