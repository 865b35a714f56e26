/**
 * Breaker (signatures rebuild): "a proxy that adds, repeats and reorders headers". docs/signatures.md
 * reads a repeated signature header whole ("whether it arrives joined (`v1,<a>, v1,<b>`, as n8n's
 * HTTP server joins a repeated header) or as separate values"), but not the signed id and
 * timestamp headers. A proxy that repeats `webhook-id` or `webhook-timestamp` with the same value
 * (Node's HTTP server hands them over joined: `msg_1, msg_1`, `1700000000, 1700000000`) makes a
 * genuine Standard Webhooks delivery fail: the preset hashes `msg_1, msg_1` as the id ("signature
 * does not match") or calls the timestamp malformed; Auto finds no usable timestamp at all.
 * Expected: a header repeated with one value means that value (as a repeated signature header is
 * read whole); the genuine delivery verifies. Two different values may well be refused.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runWebhook } from '../harness/engine';
import { atFixedTime, standardHeaders } from '../trigger/helpers';
import { nodeWithWhk1, SIGNING, trigger } from './liveSubscription';

const NOW = 1_700_000_000;
atFixedTime(NOW);

let workflows = 0;
function node(signatureScheme: string) {
	const testNode = nodeWithWhk1({
		events: ['invoice.paid'],
		options: { signatureScheme } as INodeParameters,
	});
	testNode.workflow.id = `workflow-repeated-headers-${++workflows}`;
	return testNode;
}

const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: { amount: 1 } });
const genuine = standardHeaders(SIGNING, 'msg_1', NOW, raw);

describe.each(['standardWebhooks', 'auto'])('%s', (scheme) => {
	test('the genuine delivery verifies as sent', async () => {
		expect(
			(await runWebhook(trigger, node(scheme), { headers: genuine, rawBody: Buffer.from(raw) }))
				.result.workflowData,
		).toHaveLength(1);
	});

	test('a proxy repeated webhook-timestamp (joined by the HTTP server)', async () => {
		const headers = { ...genuine, 'webhook-timestamp': `${NOW}, ${NOW}` };
		const run = await runWebhook(trigger, node(scheme), { headers, rawBody: Buffer.from(raw) });
		// fails today: 401 ("malformed timestamp" / "signature does not match")
		expect(run.status).toBeUndefined();
		expect(run.result.workflowData).toHaveLength(1);
	});

	test('a proxy repeated webhook-id (joined by the HTTP server)', async () => {
		const headers = { ...genuine, 'webhook-id': 'msg_1, msg_1' };
		const run = await runWebhook(trigger, node(scheme), { headers, rawBody: Buffer.from(raw) });
		// fails today: 401 "signature does not match"
		expect(run.status).toBeUndefined();
		expect(run.result.workflowData).toHaveLength(1);
	});
});

describe.each(['standardWebhooks', 'auto'])('%s, copies that differ', (scheme) => {
	test.each([
		['webhook-id', 'msg_1, msg_2'],
		['webhook-timestamp', `${NOW}, ${NOW - 1}`],
	])('a repeated %s of different values is refused', async (name, value) => {
		const run = await runWebhook(trigger, node(scheme), {
			headers: { ...genuine, [name]: value },
			rawBody: Buffer.from(raw),
		});
		expect(run.status).toBe(401);
		expect(run.result.workflowData).toBeUndefined();
	});
});
