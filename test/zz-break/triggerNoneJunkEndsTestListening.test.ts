/**
 * Breaker b29: "a stranger's POST to the test URL does not end Listen for test event; only a
 * verified delivery whose body is not a JSON object does" (issue 29 item 4; refuse() in
 * BusinessOpsTrigger.node.ts: "only a delivery whose signature verified (status 400) ends the
 * wait").
 *
 * Under Signature Scheme None nothing is verified, yet decideTrust answers a body that is not a
 * JSON object with status 400, and refuse() throws for every 400 in manual mode: any junk POST
 * (a scanner, `curl -d x`) to the test URL ends the user's listening with a failed test execution,
 * whose description even says the delivery "was signed with the subscription's secret".
 * Expected: the junk is answered (400) without a throw, like every other refusal of an
 * unverified request; the listening goes on.
 */
import type { INodeParameters } from 'n8n-workflow';

import { createTriggerNode, runWebhook } from '../harness/engine';
import { trigger, useFastClockAndLogs } from './liveSubscription';

useFastClockAndLogs();

test("under None, a stranger's junk POST to the test URL does not end the listening", async () => {
	const testNode = createTriggerNode(
		trigger,
		{ events: ['invoice.paid'], options: { signatureScheme: 'none' } as INodeParameters },
		{},
	);
	testNode.workflow.id = 'workflow-none-listening';
	// fails today: throws "Delivery refused (HTTP 400): body is not a JSON object" (n8n ends the listening)
	const run = await runWebhook(
		trigger,
		testNode,
		{ headers: {}, rawBody: Buffer.from('junk') },
		'manual',
	);
	expect([run.status, run.result]).toEqual([400, { noWebhookResponse: true }]);
});
