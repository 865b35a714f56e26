/**
 * Breaker b29: "only what the HMAC covers decides anything" (issue 29).
 *
 * logFormOnce keys its store (formsLogged, shared by all triggers, 1000 entries) by the verified
 * form's description, and under Auto that description names the signature header, the prefix and
 * the id header: parts no signature covers. It runs before Ignore Repeated Deliveries. So one
 * captured genuine delivery, replayed within its window with a fresh signature header name each
 * time, is "ignored" as a repeat every time, yet each replay writes an info line to n8n's log and
 * a new entry into the store (evicting the other triggers' entries): the log grows without bound
 * with what the replayer chooses.
 * Expected: repeats of one delivery that differ only in unsigned parts write at most one
 * "deliveries verify under" line (unsigned header names decide nothing).
 */
import type { INodeParameters } from 'n8n-workflow';

import { runWebhook } from '../harness/engine';
import { atFixedTime, standardHeaders } from '../trigger/helpers';
import { nodeWithWhk1, SIGNING, trigger } from './liveSubscription';

const NOW = 1_700_000_000;

const fixed = atFixedTime(NOW);

test('replays of one delivery with renamed signature headers write one form line, not one each', async () => {
	const testNode = nodeWithWhk1({
		events: ['invoice.paid'],
		options: { ignoreRepeatedDeliveries: true } as INodeParameters,
	});
	testNode.workflow.id = 'workflow-b29-forms';
	const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
	const { 'webhook-signature': signature, ...rest } = standardHeaders(SIGNING, 'msg_1', NOW, raw);
	expect(
		(
			await runWebhook(trigger, testNode, {
				headers: { ...rest, 'webhook-signature': signature },
				rawBody: Buffer.from(raw),
			})
		).result.workflowData,
	).toHaveLength(1);
	for (let i = 0; i < 200; i++) {
		const replay = {
			headers: { ...rest, [`x-replay-${i}-signature`]: signature },
			rawBody: Buffer.from(raw),
		};
		expect((await runWebhook(trigger, testNode, replay)).result).toEqual({
			webhookResponse: { received: true, ignored: 'repeated delivery: msg_1' },
		});
	}
	const formLines = fixed
		.logs()
		.lines.filter((line) => line.message.includes('deliveries verify under'));
	// fails today: 201 lines, one per header name the replayer chose
	expect(formLines.length).toBe(1);
});
