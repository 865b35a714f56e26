/**
 * Breaker b29d: "take({ maxWaitMs }) / TooLongWait: a waiter that times out" and the activation's
 * message saying when to publish again (budgetTooBusy in transport.ts).
 *
 * When the key's window is full of requests still waiting for their answer (other workflows' slow
 * requests on the same key), room depends on an answer: waitMs() is Infinity. take() lets the
 * activation request queue (the at-once refusal skips Infinity), and at its 10 s deadline it leaves
 * with TooLongWait(this.waitMs()) = TooLongWait(Infinity). budgetTooBusy then writes
 * "would have waited Infinity s … publish the workflow again in Infinity minutes".
 * Expected: a message with a real figure (or none), never "Infinity"/"NaN".
 */
import nock from 'nock';

import {
	budgetFor,
	budgetKeyOf,
	DEFAULT_REQUESTS_PER_MINUTE,
	type Slot,
} from '../../nodes/shared/api/rateBudget';
import { manualClock } from '../harness/clock';
import { activateTrigger, createTriggerNode, TEST_API_KEY } from '../harness/engine';
import { API, EVENTS, trigger, useLogs } from './liveSubscription';

useLogs();

test('publishing while the key is full of requests still waiting for answers fails with a readable wait', async () => {
	manualClock();
	const budget = budgetFor(budgetKeyOf(TEST_API_KEY), DEFAULT_REQUESTS_PER_MINUTE);
	const inFlight: Slot[] = [];
	for (let i = 0; i < DEFAULT_REQUESTS_PER_MINUTE; i++) inFlight.push(await budget.take());
	nock(API)
		.get('/v1/webhooks')
		.query(true)
		.optionally()
		.reply(200, { data: [], meta: { hasMore: false } });

	const error = await activateTrigger(trigger, createTriggerNode(trigger, { events: EVENTS })).then(
		() => undefined,
		(e: unknown) => e as Error,
	);
	for (const slot of inFlight) slot.answered();
	expect(error?.message).toMatch(/rate limit/);
	// fails today: "Not sent: GET /webhooks would have waited Infinity s for room … publish the workflow again in Infinity minutes."
	expect(error?.message).not.toMatch(/Infinity|NaN/);
});
