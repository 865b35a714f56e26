/**
 * Breaker b29e (f29d's isApiNotFound): "the API's own 404" is told apart from a proxy's by the
 * error envelope's `code` being a string other than `http_404`. But readApiError turns any `code`
 * into text (JSON.stringify), so a gateway's JSON 404 in the common `{ "error": { "code": 404,
 * "message": "Not Found" } }` form (a number, not the spec-7 envelope whose code is a string such
 * as `not_found`) reads as code "404": the API's word. checkExists then forgets whk_1, create lists
 * /webhooks, DELETEs the live whk_1 at this trigger's URL as left behind and POSTs whk_2 (a new
 * signing secret). Expected: a 404 whose error code is not a string changes nothing: no DELETE.
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

test("GET /webhooks/whk_1 answered by a gateway's JSON 404 with a numeric code: the live whk_1 is not deleted", async () => {
	const sealedSecret = sealSecret(SIGNING, TEST_API_KEY, 'whk_1');
	const staticData: IDataObject = { 'node:Business Ops Trigger': { subscriptions: { production: { id: 'whk_1', url: URL, events: EVENTS, sealedSecret } } } };
	const deletes: string[] = [];
	nock(API)
		.get('/v1/webhooks/whk_1')
		.reply(404, { error: { code: 404, message: 'Not Found' } })
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
