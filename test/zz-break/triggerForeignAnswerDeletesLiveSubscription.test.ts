/**
 * Breaker b29d: "checkSubscription: an answer that is not a subscription must never delete anything".
 *
 * subscriptionOf() takes any object with a text `url` as the subscription asked for. A JSON answer to
 * GET /webhooks/whk_1 that is not whk_1 (a proxy's JSON login answer carrying a `url`, a caching proxy
 * answering with another subscription) reads as "its URL was changed in Business Ops": the record is
 * dropped with a warning, then create finds no record, lists /webhooks, and DELETEs the live whk_1 at
 * exactly this trigger's URL as "left behind", then POSTs a new one (new signing secret).
 * Expected: an answer whose id is not the stored one (or without one) changes nothing: no DELETE.
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

test.each<[string, IDataObject]>([
	["a proxy's JSON answer with a url", { error: 'login required', url: 'https://sso.proxy.example/login?next=%2Fv1%2Fwebhooks%2Fwhk_1' }],
	['another subscription', { data: { id: 'whk_9', name: 'other', url: 'https://elsewhere.example/hook', events: EVENTS, active: true } }],
])('GET /webhooks/whk_1 answered 200 with %s: the live whk_1 is not deleted', async (_what, body) => {
	const sealedSecret = sealSecret(SIGNING, TEST_API_KEY, 'whk_1');
	const staticData: IDataObject = { 'node:Business Ops Trigger': { subscriptions: { production: { id: 'whk_1', url: URL, events: EVENTS, sealedSecret } } } };
	const deletes: string[] = [];
	nock(API)
		.get('/v1/webhooks/whk_1')
		.reply(200, body)
		.delete('/v1/webhooks/whk_1')
		.optionally()
		.reply(204, () => {
			deletes.push('whk_1');
			return '';
		})
		.get('/v1/webhooks')
		.query(true)
		.optionally()
		.reply(200, { data: [{ id: 'whk_1', url: URL, events: EVENTS, active: true }], meta: { hasMore: false } })
		.post('/v1/webhooks')
		.optionally()
		.reply(201, { data: { id: 'whk_2', url: URL, events: EVENTS, signingSecret: NEW_SIGNING } });
	const node = createTriggerNode(trigger, { events: EVENTS }, { staticData });
	await activateTrigger(trigger, node).catch(() => undefined);
	// fails today: ['whk_1'] (deleted as "left behind"), then whk_2 is created and stored
	expect(deletes).toEqual([]);
});
