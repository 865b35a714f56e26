/**
 * Breaker b29c: "every failure of each lifecycle call (… malformed JSON …): does the activation
 * error name what to fix … leave no orphan" and "the stored subscription is deleted or replaced
 * only when it is known not to fit" (subscription.ts).
 *
 * checkExists reads GET /webhooks/{id}. An answer of 200 that is not a subscription (a body cut
 * off mid-JSON, a proxy's HTML page) is read as `{}`; its missing `url` counts as "its URL was
 * changed in Business Ops" with no remote URL, which discard() takes as pointing here: the live,
 * working subscription is DELETEd and a new one POSTed (a new signing secret, so deliveries already
 * signed with the old one are refused), and n8n's log says the URL was changed in Business Ops,
 * which nobody did.
 * Expected: an unreadable answer changes nothing: no DELETE, the record kept, and the activation
 * fails with what to do (or goes on with the subscription as it is).
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { BusinessOpsTrigger } from '../../nodes/BusinessOpsTrigger/BusinessOpsTrigger.node';
import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import { fastClock, forgetRateBudgets, realClock } from '../harness/clock';
import { activateTrigger, createTriggerNode, TEST_API_KEY } from '../harness/engine';
import { captureLogs } from '../trigger/helpers';

const trigger = new BusinessOpsTrigger();
const API = 'https://api.business-ops.test';
const URL = 'https://n8n.example.test/webhook/webhook-uuid/webhook';
const SIGNING = 'whsec_cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhlLXRyaWdnZXI=';
const NEW_SIGNING = 'whsec_bmV3LXNpZ25pbmctc2VjcmV0LW9mLXRoZS10cmlnZ2Vy';
const EVENTS = ['invoice.paid'];

let logs: ReturnType<typeof captureLogs>;
beforeEach(() => {
	fastClock();
	logs = captureLogs();
});
afterEach(() => {
	realClock();
	forgetRateBudgets();
	logs.restore();
	nock.cleanAll();
});

test.each<[string, string, string]>([
	['a JSON body cut off', '{"data": {"id": "whk_1", "name": "n8n: Test workflow / Business Ops Trigger (workflow-1)", "url": "https://n8n.ex', 'application/json'],
	["a proxy's HTML page", '<html><body>Please log in to the network</body></html>', 'text/html'],
])('GET /webhooks/{id} answered 200 with %s: the live subscription is not deleted', async (_what, body, type) => {
	const sealedSecret = sealSecret(SIGNING, TEST_API_KEY, 'whk_1');
	const staticData: IDataObject = { 'node:Business Ops Trigger': { subscriptions: { production: { id: 'whk_1', url: URL, events: EVENTS, sealedSecret } } } };
	const deletes: string[] = [];
	nock(API)
		.get('/v1/webhooks/whk_1')
		.reply(200, body, { 'content-type': type })
		.delete('/v1/webhooks/whk_1')
		.optionally()
		.reply(204, () => {
			deletes.push('whk_1');
			return '';
		})
		.get('/v1/webhooks')
		.query(true)
		.optionally()
		.reply(200, { data: [], meta: { hasMore: false } })
		.post('/v1/webhooks')
		.optionally()
		.reply(201, { data: { id: 'whk_2', url: URL, events: EVENTS, signingSecret: NEW_SIGNING } });
	const node = createTriggerNode(trigger, { events: EVENTS }, { staticData });
	await activateTrigger(trigger, node).catch(() => undefined);
	// fails today: ['whk_1'], then whk_2 is created and stored
	expect(deletes).toEqual([]);
	const stored = (node.workflow.staticData['node:Business Ops Trigger'] as IDataObject).subscriptions as IDataObject;
	expect((stored.production as IDataObject).id).toBe('whk_1');
	expect(logs.lines.map((line) => line.message).join('\n')).not.toMatch(/its URL was changed in Business Ops/);
});
