/**
 * Breaker b29e (f29d's id check in subscriptionOf): checkExists now takes the answer to
 * GET /webhooks/{id} as that subscription only when it repeats `id`. The spec's webhook
 * subscription fields (section 2) are name, url, events, active and signingSecret: `id` is not
 * among them ("beyond those listed: not shown"), and the path already names it. An API that
 * answers GET /webhooks/whk_1 with the subscription but without `id` (a reading the spec allows)
 * makes every publish of an already subscribed workflow fail with "not that webhook subscription
 * ... then publish the workflow again", which fails the same way, forever.
 * Expected: an answer that names no id (but is a subscription) is read as the one asked for; only an
 * answer naming another id is refused.
 */
import nock from 'nock';

import { activateTrigger } from '../harness/engine';
import {
	API,
	EVENTS,
	nodeWithWhk1,
	trigger,
	WEBHOOK_URL,
	useFastClockAndLogs,
} from './liveSubscription';

useFastClockAndLogs();

test('GET /webhooks/whk_1 answered with the subscription but no id: publishing keeps whk_1', async () => {
	nock(API)
		.get('/v1/webhooks/whk_1')
		.reply(200, {
			data: { name: 'Business Ops Trigger', url: WEBHOOK_URL, events: EVENTS, active: true },
		})
		// the stored name differs from this one: it is renamed in place
		.patch('/v1/webhooks/whk_1')
		.optionally()
		.reply(200, { data: { id: 'whk_1', url: WEBHOOK_URL, events: EVENTS, active: true } });
	const error = await activateTrigger(trigger, nodeWithWhk1()).then(
		() => undefined,
		(e: unknown) => (e as Error).message,
	);
	// failed before the fix: "The API answered GET /webhooks/whk_1 with something that is not that webhook subscription ..."
	expect(error).toBeUndefined();
	expect(nock.pendingMocks()).toEqual([]);
});
