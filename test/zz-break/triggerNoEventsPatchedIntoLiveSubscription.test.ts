/**
 * Breaker b29c: "Bad input gets a clear error that says what to fix" and "Event Names checks at
 * activation" (issue 29).
 *
 * create() refuses an empty Event Names ("Choose at least one event"), but checkExists() does not
 * look: when the subscription already exists (n8n 1.x's save and restart, n8n 2.x's start-up), an
 * Event Names expression that resolves to nothing (an empty list, an empty text) or to one event
 * as text ("invoice.paid", which chosenEvents drops for not being a list) reaches updateInPlace,
 * which PATCHes the live subscription to `events: []`. The activation succeeds: the workflow looks
 * published and no event ever arrives again.
 * Expected: the activation fails as create's does, naming the field, and sends no PATCH; or (one
 * event as text) the subscription keeps that event. Never a PATCH to no events.
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { BusinessOpsTrigger } from '../../nodes/BusinessOpsTrigger/BusinessOpsTrigger.node';
import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import { fastClock, forgetRateBudgets, realClock } from '../harness/clock';
import { activateTrigger, createTriggerNode, TEST_API_KEY } from '../harness/engine';
import { captureLogs } from '../trigger/helpers';

const trigger = new BusinessOpsTrigger();
const API = 'https://api.business-ops.test';
const URL = 'https://n8n.example.test/webhook/webhook-uuid/webhook';
const SIGNING = 'whsec_cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhlLXRyaWdnZXI=';
const EVENTS = ['invoice.paid'];
const NAME = 'n8n: Test workflow / Business Ops Trigger (workflow-1)';

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

function published(events: unknown) {
	const sealedSecret = sealSecret(SIGNING, TEST_API_KEY, 'whk_1');
	return createTriggerNode(trigger, { events } as INodeParameters, {
		staticData: { 'node:Business Ops Trigger': { subscriptions: { production: { id: 'whk_1', url: URL, events: EVENTS, sealedSecret } } } },
	});
}

/** The live subscription as the API answers it, and every PATCH body the trigger sends. */
function liveSubscription(): unknown[] {
	const patches: unknown[] = [];
	nock(API)
		.get('/v1/webhooks/whk_1')
		.reply(200, { data: { id: 'whk_1', name: NAME, url: URL, events: EVENTS, active: true } })
		.patch('/v1/webhooks/whk_1')
		.optionally()
		.reply(200, (_uri, body) => {
			patches.push(body);
			return { data: { id: 'whk_1', name: NAME, url: URL, ...(body as object), active: true } };
		});
	return patches;
}

test.each<[string, unknown]>([
	['an empty list', '={{ [] }}'],
	['an empty text', '={{ "" }}'],
])('Event Names resolving to %s: the activation fails naming the field, the live subscription is not emptied', async (_what, events) => {
	const patches = liveSubscription();
	const node = published(events);
	// fails today: checkExists PATCHes {"events":[]} and answers true, so n8n never runs create
	await expect(activateTrigger(trigger, node)).rejects.toThrow(/Choose at least one event in "Event Names or IDs"/);
	expect(patches).toEqual([]);
});

test('Event Names resolving to one event as text: the live subscription is never PATCHed to no events', async () => {
	const patches = liveSubscription();
	const node = published('={{ "invoice.paid" }}');
	await activateTrigger(trigger, node).catch(() => undefined);
	// fails today: [{"events":[]}]
	expect(patches).not.toContainEqual({ events: [] });
});
