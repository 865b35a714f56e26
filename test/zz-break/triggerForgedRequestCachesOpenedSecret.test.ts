/**
 * Breaker b29: "a request whose signature has not verified changes nothing stored or trusted:
 * no entry in any store" (issue 29).
 *
 * readSecret(..., remembered = true) runs for every request before the trust decision and puts
 * the opened secret into subscription.ts's `opened` cache. A forged request that reaches a process
 * first (after a restart, a fresh queue-mode webhook process) therefore writes that store, and
 * what it wrote changes how a later genuine delivery is decided: once the credential's API key
 * changed, the genuine delivery runs in the process a stranger "warmed", while a process that saw
 * no forged request refuses it with "publish the workflow again".
 * Expected: the later genuine delivery is answered the same with or without the forged request
 * before it (the forged request wrote nothing).
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import { createTriggerNode, runWebhook, TEST_API_KEY, type FakeDelivery } from '../harness/engine';
import { atFixedTime, standardHeaders } from '../trigger/helpers';
import { SIGNING, trigger, WEBHOOK_URL } from './liveSubscription';

const NOW = 1_700_000_000;
const OTHER_KEY = {
	apiKey: 'svc_' + 'Mm1nNn2bBb3vVv4cCc5xXx6zZz7aAa8s',
	baseUrl: 'https://api.business-ops.test/v1',
};

atFixedTime(NOW);

/** A stored production subscription, sealed afresh (each sealing differs: a subscription this process has never opened). */
const record = (): IDataObject => ({
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
});

let workflows = 0;
function node(staticData: IDataObject, credentials?: ICredentialDataDecryptedObject) {
	const testNode = createTriggerNode(
		trigger,
		{ events: ['invoice.paid'], options: {} as INodeParameters },
		{ staticData, ...(credentials ? { credentials } : {}) },
	);
	testNode.workflow.id = `workflow-b29-${++workflows}`;
	return testNode;
}

const body = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
const genuine: FakeDelivery = {
	headers: standardHeaders(SIGNING, 'msg_1', NOW, body),
	rawBody: Buffer.from(body),
};
const forged: FakeDelivery = {
	headers: {
		...genuine.headers,
		'webhook-signature': `v1,${Buffer.alloc(32, 1).toString('base64')}`,
	},
	rawBody: Buffer.from(body),
};

async function genuineAfterKeyChange(forgedFirst: boolean): Promise<number | 'ran'> {
	const staticData = record();
	if (forgedFirst)
		expect((await runWebhook(trigger, node(structuredClone(staticData)), forged)).status).toBe(401);
	const run = await runWebhook(trigger, node(structuredClone(staticData), OTHER_KEY), genuine);
	return run.result.workflowData ? 'ran' : (run.status ?? 0);
}

test('a forged request leaves nothing that decides a later genuine delivery', async () => {
	const without = await genuineAfterKeyChange(false);
	expect(without).toBe(401); // the key changed: "publish the workflow again"
	// fails today: the forged request opened and cached the secret, so the genuine delivery runs
	expect(await genuineAfterKeyChange(true)).toBe(without);
});
