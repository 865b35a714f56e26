/**
 * Breaker b29: "Ignore Repeated Deliveries: a repeat runs once; the store is bounded" and "a
 * request whose signature has not verified changes nothing stored" (issue 29).
 *
 * deliveryIds.ts keeps ONE bounded map (MAX_REMEMBERED_IDS = 50,000) for every trigger of the
 * process, and anything a trigger accepts enters it. A stranger who knows the URL of any workflow
 * whose trigger checks no signature (Signature Scheme None, Ignore Repeated Deliveries on) fills
 * it with 50,000 unsigned requests with fresh ids in a few seconds, and so evicts the ids of every
 * signed trigger in the process. A captured genuine delivery of a signed trigger (GitHub-style:
 * no timestamp, so its signature never expires) then runs its workflow again.
 * Expected: the signed trigger's repeat is still ignored: unsigned traffic to another trigger
 * never makes this trigger forget what it accepted.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MAX_REPEAT_IDS } from '../../nodes/BusinessOpsTrigger/trust';
import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import { createTriggerNode, runWebhook, TEST_API_KEY } from '../harness/engine';
import { atFixedTime, githubSignature } from '../trigger/helpers';
import { trigger, WEBHOOK_URL } from './liveSubscription';

const SIGNING = 'a-github-style-signing-key-of-32-bytes';
const NOW = 1_700_000_000;

atFixedTime(NOW);

function node(workflowId: string, options: IDataObject, staticData?: IDataObject) {
	const testNode = createTriggerNode(
		trigger,
		{ events: ['invoice.paid'], options: options as INodeParameters },
		{ staticData },
	);
	testNode.workflow.id = workflowId;
	return testNode;
}

test('unsigned traffic to a None trigger does not make a signed trigger run a repeat again', async () => {
	const signed = node(
		'workflow-signed',
		{ signatureScheme: 'github', ignoreRepeatedDeliveries: true },
		{
			'node:Business Ops Trigger': {
				subscriptions: {
					production: {
						id: 'whk_1',
						url: WEBHOOK_URL,
						events: ['invoice.paid'],
						sealedSecret: sealSecret(SIGNING, TEST_API_KEY, 'whk_1'),
					},
				},
			},
		},
	);
	const raw = JSON.stringify({ id: 'evt_paid_once', type: 'invoice.paid', data: { amount: 100 } });
	const genuine = {
		headers: { 'x-hub-signature-256': githubSignature(SIGNING, raw) },
		rawBody: Buffer.from(raw),
	};
	expect((await runWebhook(trigger, signed, genuine)).result.workflowData).toHaveLength(1);
	const ignored = {
		webhookResponse: { received: true, ignored: 'repeated delivery: evt_paid_once' },
	};
	expect((await runWebhook(trigger, signed, genuine)).result).toEqual(ignored);

	// a stranger posts to another workflow's trigger that checks no signature
	const open = node('workflow-unsigned', {
		signatureScheme: 'none',
		ignoreRepeatedDeliveries: true,
	});
	for (let i = 0; i < MAX_REPEAT_IDS; i++) {
		await runWebhook(trigger, open, {
			headers: {},
			rawBody: Buffer.from(`{"id":"junk-${i}","type":"invoice.paid"}`),
		});
	}

	// fails today: the captured genuine delivery runs the signed workflow a second time
	expect((await runWebhook(trigger, signed, genuine)).result).toEqual(ignored);
}, 120_000);
