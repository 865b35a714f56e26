/**
 * Breaker (trust path rewrite): "an attacker who has seen one genuine delivery and controls the
 * public URL must not flood n8n's log" (the refusal log: one line a minute per trigger and kind).
 *
 * The refusal log is throttled, but the lines webhook() writes for a verified delivery are not.
 * A replayer posts one captured genuine delivery again and again (GitHub-style has no timestamp,
 * so forever; Standard Webhooks within its 5-minute window, as fast as n8n answers):
 * - with Ignore Repeated Deliveries on, every replay writes an info line "ignored delivery
 *   msg_1: already accepted";
 * - when the body names no event type, the replayer adds an unsigned `x-event-type` header with
 *   any text it likes (up to the header size limit) and each replay writes a warning "ignored a
 *   delivery of event type "<that text>"" (or "could not read the event type").
 * 1,000 replays write 1,000 lines, a million write a million.
 * Expected: replays of one delivery write a bounded number of lines (here: at most a handful).
 */
import type { INodeParameters } from 'n8n-workflow';

import { runWebhook } from '../harness/engine';
import { atFixedTime, standardHeaders } from '../trigger/helpers';
import { nodeWithWhk1, SIGNING, trigger } from './liveSubscription';

const NOW = 1_700_000_000;
const fixed = atFixedTime(NOW);
const REPLAYS = 1_000;

let workflows = 0;
function node(options: INodeParameters) {
	const testNode = nodeWithWhk1({ events: ['invoice.paid'], options });
	testNode.workflow.id = `workflow-replay-flood-${++workflows}`;
	return testNode;
}

test('Ignore Repeated Deliveries: 1,000 replays of one accepted delivery do not write 1,000 log lines', async () => {
	const testNode = node({ signatureScheme: 'standardWebhooks', ignoreRepeatedDeliveries: true });
	const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
	const captured = {
		headers: standardHeaders(SIGNING, 'msg_1', NOW, raw),
		rawBody: Buffer.from(raw),
	};
	expect((await runWebhook(trigger, testNode, captured)).result.workflowData).toHaveLength(1);
	for (let i = 0; i < REPLAYS; i++) {
		expect((await runWebhook(trigger, testNode, captured)).result).toEqual({
			webhookResponse: { received: true, ignored: 'repeated delivery: msg_1' },
		});
	}
	// fails today: one info line per replay
	expect(fixed.logs().lines.length).toBeLessThanOrEqual(5);
});

test("replays with an unsigned event type header of the replayer's choosing do not write one warning each", async () => {
	const testNode = node({ signatureScheme: 'standardWebhooks' });
	// a genuine delivery whose body names no type (the trigger reads it from a header then)
	const raw = JSON.stringify({ id: 'evt_2', data: {} });
	const headers = standardHeaders(SIGNING, 'msg_2', NOW, raw);
	for (let i = 0; i < REPLAYS; i++) {
		const replay = {
			headers: { ...headers, 'x-event-type': `replayer-text-${i}-${'z'.repeat(1000)}` },
			rawBody: Buffer.from(raw),
		};
		expect((await runWebhook(trigger, testNode, replay)).result).toMatchObject({
			webhookResponse: { received: true },
		});
	}
	const warnings = fixed.logs().lines.filter((line) => line.level === 'warn');
	// fails today: 1,000 warnings, each carrying 1 KB of the replayer's text
	expect(warnings.length).toBeLessThanOrEqual(5);
});
