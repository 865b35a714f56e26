/**
 * Breaker (trust path rewrite): "the reason a genuine delivery fails must still reach the log;
 * junk a stranger sends never keeps it out" (trust.ts, REASON_KINDS).
 *
 * The refusal log throttles by kind of reason, one line a minute per trigger and kind, and the
 * first refusal of a minute decides the words logged. A stranger who knows the webhook URL sends
 * one junk request a minute whose reason falls into the same kind as the genuine failure:
 * - Auto (the default): a junk signature with a fresh timestamp is refused "signature does not
 *   match"; the API's genuine deliveries, refused because n8n's clock is off (or the API's retries
 *   are older than the window), say "signature does not match (and timestamp too old: ...)": the
 *   same kind, so the line that names the real cause never reaches the log;
 * - Standard Webhooks: `webhook-timestamp: x` is refused "malformed timestamp", in the kind of
 *   "timestamp too old": the log keeps saying "malformed timestamp" while every genuine delivery
 *   fails because it is too old.
 * Expected: the genuine delivery's reason (timestamp too old) appears in n8n's log.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runWebhook } from '../harness/engine';
import { atFixedTime, standardHeaders } from '../trigger/helpers';
import { nodeWithWhk1, SIGNING, trigger } from './liveSubscription';

const NOW = 1_700_000_000;
const fixed = atFixedTime(NOW);
const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
const JUNK = `v1,${Buffer.alloc(32, 7).toString('base64')}`;

let workflows = 0;
function node(options: INodeParameters) {
	const testNode = nodeWithWhk1({ events: ['invoice.paid'], options });
	testNode.workflow.id = `workflow-junk-silences-${++workflows}`;
	return testNode;
}

const refusals = () =>
	fixed.logs().lines.filter((line) => line.message.includes('refused a delivery'));

test('Auto: a junk request with a fresh timestamp keeps "timestamp too old" of the genuine delivery out of the log', async () => {
	const testNode = node({});
	const junk = {
		headers: { ...standardHeaders(SIGNING, 'msg_x', NOW, raw), 'webhook-signature': JUNK },
		rawBody: Buffer.from(raw),
	};
	expect((await runWebhook(trigger, testNode, junk)).status).toBe(401);
	// the API's genuine delivery, signed 10 minutes before n8n's clock says it is
	const genuine = {
		headers: standardHeaders(SIGNING, 'msg_1', NOW - 600, raw),
		rawBody: Buffer.from(raw),
	};
	expect((await runWebhook(trigger, testNode, genuine)).status).toBe(401);
	// fails today: the only line says "signature does not match", the stranger's reason
	expect(refusals().some((line) => line.message.includes('timestamp too old'))).toBe(true);
});

test('Standard Webhooks: a junk "malformed timestamp" keeps "timestamp too old" of the genuine delivery out of the log', async () => {
	const testNode = node({ signatureScheme: 'standardWebhooks' });
	const junk = {
		headers: { ...standardHeaders(SIGNING, 'msg_x', NOW, raw), 'webhook-timestamp': 'x' },
		rawBody: Buffer.from(raw),
	};
	expect((await runWebhook(trigger, testNode, junk)).status).toBe(401);
	const genuine = {
		headers: standardHeaders(SIGNING, 'msg_1', NOW - 600, raw),
		rawBody: Buffer.from(raw),
	};
	expect((await runWebhook(trigger, testNode, genuine)).status).toBe(401);
	// fails today: the only line says "malformed timestamp"
	expect(refusals().some((line) => line.message.includes('timestamp too old'))).toBe(true);
});
