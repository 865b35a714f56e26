/**
 * Breaker b29: "Saved workflows keep working: a workflow saved before your change still runs, or
 * fails with a message saying what to change" (common rules; CHANGELOG: "A `pinnedForm` stored by
 * an earlier version is ignored. Saved workflows with Auto keep working unchanged.").
 *
 * Before issue 29, Auto's verified form was kept as `pinnedForm` in the subscription record, so
 * after a restart (and in every queue-mode webhook process) deliveries were checked in that form,
 * whatever the body size. Now the pin is ignored and the learned form lives only in process
 * memory: after the upgrade and after every restart, a genuine delivery over 1 MiB
 * (MAX_SEARCH_BODY_BYTES) is refused with 401 until some smaller delivery reaches that same
 * process, although the record says exactly which form it is signed in.
 * Expected: a genuine delivery in the form the saved record names runs, whatever its size.
 */
import type { INodeParameters } from 'n8n-workflow';

import { MAX_SEARCH_BODY_BYTES } from '../../nodes/BusinessOpsTrigger/autoSignature';
import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import { createTriggerNode, runWebhook, TEST_API_KEY } from '../harness/engine';
import { atFixedTime, standardHeaders } from '../trigger/helpers';
import { SIGNING, trigger, URL } from './liveSubscription';

const NOW = 1_700_000_000;

atFixedTime(NOW);

/** The record as the version before issue 29 saved it, after its first verified delivery. */
const savedRecord = () => ({
	id: 'whk_1',
	url: URL,
	events: ['request.received'],
	sealedSecret: sealSecret(SIGNING, TEST_API_KEY, 'whk_1'),
	pinnedForm: {
		header: 'webhook-signature',
		prefix: 'v1,',
		encoding: 'base64',
		content: '{ID}.{timestamp}.{body}',
		key: 'whsecBase64',
		timestampHeader: 'webhook-timestamp',
		idHeader: 'webhook-id',
		algorithm: 'sha256',
	},
});

test('after a restart, a saved Auto workflow with a pinned form still verifies a genuine delivery over 1 MiB', async () => {
	const testNode = createTriggerNode(
		trigger,
		{ events: ['request.received'], options: {} as INodeParameters },
		{ staticData: { 'node:Business Ops Trigger': { subscriptions: { production: savedRecord() } } } },
	);
	testNode.workflow.id = 'workflow-saved-before-29';
	const raw = JSON.stringify({ id: 'evt_big', type: 'request.received', data: { attachment: 'x'.repeat(MAX_SEARCH_BODY_BYTES + 1024) } });
	const run = await runWebhook(trigger, testNode, { headers: standardHeaders(SIGNING, 'msg_big', NOW, raw), rawBody: Buffer.from(raw) });
	// fails today: 401 "Auto has not yet seen a verified delivery of this subscription in this n8n process ..."
	expect(run.status).toBeUndefined();
	expect(run.result.workflowData).toHaveLength(1);
});
