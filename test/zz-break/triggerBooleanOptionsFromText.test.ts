/**
 * Breaker b29c: "expressions in trigger parameters that resolve to … text ("0", "false")" and the
 * package's boolean rule (asBoolean, typing.ts: true/false or the text "true"/"false"; anything else
 * refused naming the field), which the Business Ops node applies to its own booleans.
 *
 * The trigger reads its boolean options without it:
 * - Skip Reachability Check: only the boolean true counts. An expression giving the text "true"
 *   is ignored, and publishing fails telling the user to "turn on Options → Skip Reachability
 *   Check", which is on.
 * - Ignore Repeated Deliveries and Include Headers: any truthy value counts. An expression giving
 *   the text "false" turns them on: a genuine retry of a delivery is answered 200 and never runs,
 *   and the request headers go into the output.
 * Expected: "true"/"false" text read as the boolean rule reads them.
 */
import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { createTriggerNode, runWebhook, runWebhookMethod } from '../harness/engine';
import { standardHeaders } from '../trigger/helpers';
import {
	API,
	EVENTS,
	nodeWithWhk1,
	SIGNING,
	trigger,
	useFastClockAndLogs,
} from './liveSubscription';

const NOW = 1_800_000_000;

useFastClockAndLogs();
beforeEach(() => {
	jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000);
});
afterEach(() => {
	jest.restoreAllMocks();
});

test('Skip Reachability Check from an expression giving "true": publishing with a local webhook URL subscribes', async () => {
	const posts: unknown[] = [];
	nock(API)
		.get('/v1/webhooks')
		.query(true)
		.optionally()
		.reply(200, { data: [], meta: { hasMore: false } })
		.post('/v1/webhooks')
		.optionally()
		.reply(201, (_uri, body) => {
			posts.push(body);
			return { data: { id: 'whk_2', signingSecret: SIGNING } };
		});
	const node = createTriggerNode(
		trigger,
		{
			events: EVENTS,
			options: { skipReachabilityCheck: '={{ "true" }}' } as unknown as INodeParameters,
		},
		{ webhookBaseUrl: 'http://localhost:5678/' },
	);
	// fails today: "… turn on Options → Skip Reachability Check." although it is on
	await expect(runWebhookMethod(trigger, node, 'create')).resolves.toBe(true);
	expect(posts).toHaveLength(1);
});

function published(options: IDataObject) {
	return nodeWithWhk1({ events: EVENTS, options: options as INodeParameters });
}

function delivery() {
	const body = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: { id: 'inv_1' } });
	return {
		headers: {
			'content-type': 'application/json',
			'x-forwarded-for': '203.0.113.9',
			...standardHeaders(SIGNING, 'msg_1', NOW, body),
		},
		rawBody: Buffer.from(body),
	};
}

test('Ignore Repeated Deliveries from an expression giving "false": a retried delivery runs again', async () => {
	const node = published({ ignoreRepeatedDeliveries: '={{ "false" }}' });
	const first = await runWebhook(trigger, node, delivery());
	const retry = await runWebhook(trigger, node, delivery());
	expect(first.result.workflowData).toBeDefined();
	// fails today: { webhookResponse: { received: true, ignored: 'repeated delivery: msg_1' } }
	expect(retry.result.workflowData).toBeDefined();
});

test('Include Headers from an expression giving "false": no headers in the output', async () => {
	const node = published({ includeHeaders: '={{ "false" }}' });
	const run = await runWebhook(trigger, node, delivery());
	// fails today: the output carries the request headers
	expect(run.result.workflowData?.[0][0].json).not.toHaveProperty('headers');
});
