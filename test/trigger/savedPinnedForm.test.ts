/**
 * A `pinnedForm` saved before issue 29: only its signed content and key form are read (covered by
 * the HMAC of the delivery that pinned it); its header names and prefix, which a replay could
 * have poisoned, never decide anything.
 */
import type { INodeParameters } from 'n8n-workflow';

import { BusinessOpsTrigger } from '../../nodes/BusinessOpsTrigger/BusinessOpsTrigger.node';
import { MAX_SEARCH_BODY_BYTES } from '../../nodes/BusinessOpsTrigger/autoSignature';
import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import { createTriggerNode, runWebhook, TEST_API_KEY } from '../harness/engine';
import { atFixedTime, standardHeaders } from './helpers';

const trigger = new BusinessOpsTrigger();
const SIGNING = 'whsec_cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhlLXRyaWdnZXI=';
const NOW = 1_700_000_000;
const URL = 'https://n8n.example.test/webhook/webhook-uuid/webhook';

atFixedTime(NOW);

let workflows = 0;
async function bigDelivery(pinnedForm: Record<string, string>) {
	const record = { id: 'whk_1', url: URL, events: ['invoice.paid'], sealedSecret: sealSecret(SIGNING, TEST_API_KEY, 'whk_1'), pinnedForm };
	const testNode = createTriggerNode(trigger, { events: ['invoice.paid'], options: {} as INodeParameters }, { staticData: { 'node:Business Ops Trigger': { subscriptions: { production: record } } } });
	testNode.workflow.id = `workflow-saved-pin-${++workflows}`;
	const raw = JSON.stringify({ id: 'evt_big', type: 'invoice.paid', data: { pad: 'x'.repeat(MAX_SEARCH_BODY_BYTES) } });
	return await runWebhook(trigger, testNode, { headers: standardHeaders(SIGNING, 'msg_big', NOW, raw), rawBody: Buffer.from(raw) });
}

const poisoned = { header: 'x-poison-signature', prefix: '', encoding: 'base64', content: '{ID}.{timestamp}.{body}', key: 'whsecBase64', timestampHeader: 'x-poison-timestamp', idHeader: 'x-attacker-delivery-id', algorithm: 'sha256' };

test('a saved pinnedForm with poisoned header names and prefix still verifies a genuine delivery (its signed aspects only are read)', async () => {
	const run = await bigDelivery(poisoned);
	expect(run.result.workflowData).toHaveLength(1);
});

test('a saved pinnedForm that names no supported signed form is not read', async () => {
	const run = await bigDelivery({ ...poisoned, content: '{body}.{ID}' });
	expect(run.status).toBe(401);
	expect(run.result.workflowData).toBeUndefined();
});
