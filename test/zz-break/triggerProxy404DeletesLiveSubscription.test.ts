/**
 * Breaker b29d: "checkSubscription: an answer that is not a subscription must never delete anything".
 *
 * checkExists takes any 404 to GET /webhooks/{id} as "the subscription is gone" (isNotFound reads
 * only the status): a proxy's or a load balancer's own 404 page (HTML, not the API's
 * `{ "error": { "code": "not_found" } }`, spec 7) drops the record; create then finds no record,
 * lists /webhooks and DELETEs the live subscription at exactly this trigger's URL as "left behind",
 * then POSTs a new one (new signing secret). The list itself shows the 404 was not the API's word.
 * Expected: a 404 whose body is not the API's not_found error changes nothing: no DELETE.
 * (Not new in f29c: the 404 reading predates it; found while checking the f29c rule.)
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

test("GET /webhooks/whk_1 answered by a proxy's 404 page: the live whk_1 is not deleted", async () => {
	const sealedSecret = sealSecret(SIGNING, TEST_API_KEY, 'whk_1');
	const staticData: IDataObject = { 'node:Business Ops Trigger': { subscriptions: { production: { id: 'whk_1', url: URL, events: EVENTS, sealedSecret } } } };
	const deletes: string[] = [];
	nock(API)
		.get('/v1/webhooks/whk_1')
		.reply(404, '<html><head><title>404 Not Found</title></head><body><center>nginx</center></body></html>', { 'content-type': 'text/html' })
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
