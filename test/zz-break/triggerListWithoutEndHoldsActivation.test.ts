/**
 * Breaker b29c: "every failure of each lifecycle call … a list page that never ends: does the
 * activation error name what to fix" and "n8n gives the publication of a workflow a deadline
 * (about 84 s in n8n 2.41)" (docs/subscriptions.md, "When publishing fails").
 *
 * create() reads GET /webhooks (subscriptions left behind at this URL) through the page walker,
 * whose only bound is 10,000 pages. An API whose list keeps saying `hasMore: true` holds the
 * activation for 10,000 requests, paced at the key's 120 per minute: 83 minutes, long after n8n
 * 2.41 abandoned the publication (84 s, no error recorded). Its final error, like the one for a
 * page that is empty but says there are more, is the walker's ApplicationError: it names no fix.
 * Expected: the activation ends within n8n's 84 s, with an error that says what to do (publish
 * again), and nothing subscribed.
 */
import nock from 'nock';

import { manualClock } from '../harness/clock';
import { createTriggerNode, runWebhookMethod } from '../harness/engine';
import { API, EVENTS, trigger, useLogs } from './liveSubscription';

const OTHER = {
	id: 'whk_other',
	name: 'another tool',
	url: 'https://elsewhere.example.test/hook',
	events: EVENTS,
	active: true,
};
/** n8n 2.41 aborts publication work after 84 s (0.7 of its 120 s lease); test/e2e/trigger-lifecycle.js pins it. */
const PUBLISH_DEADLINE_MS = 84_000;
const PUBLISH_AGAIN = /publish the workflow again/;

useLogs();

/** The error create() threw (the activation step that reads the list). */
async function activationError(): Promise<Error> {
	const outcome = await runWebhookMethod(
		trigger,
		createTriggerNode(trigger, { events: EVENTS }),
		'create',
	).then(
		() => undefined,
		(error: unknown) => error as Error,
	);
	if (!outcome) throw new Error('the activation did not fail');
	return outcome;
}

test('a list whose pages keep saying hasMore: the activation fails within the deadline, naming what to do, nothing subscribed', async () => {
	const clock = manualClock();
	let lastSentAt = 0;
	let posts = 0;
	nock(API)
		.persist()
		.get('/v1/webhooks')
		.query(true)
		.reply(200, () => {
			lastSentAt = clock.elapsed();
			// past the deadline the list ends after all, only to keep this test short
			return { data: [OTHER], meta: { hasMore: clock.elapsed() <= PUBLISH_DEADLINE_MS } };
		})
		.post('/v1/webhooks')
		.reply(201, () => {
			posts++;
			return {
				data: { id: 'whk_2', signingSecret: 'whsec_cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhlLXRyaWdnZXI=' },
			};
		});
	const outcome = await runWebhookMethod(
		trigger,
		createTriggerNode(trigger, { events: EVENTS }),
		'create',
	).catch((error: Error) => error);
	// fails today: pages are read (paced at 120 per minute) until the API stops saying hasMore
	expect(lastSentAt).toBeLessThanOrEqual(PUBLISH_DEADLINE_MS);
	expect(posts).toBe(0);
	expect((outcome as Error).message).toMatch(PUBLISH_AGAIN);
});

test('a page with no records that says there are more: the activation error names what to do', async () => {
	nock(API)
		.get('/v1/webhooks')
		.query((q) => q.page === '1')
		.reply(200, { data: [OTHER], meta: { hasMore: true } })
		.get('/v1/webhooks')
		.query((q) => q.page === '2')
		.reply(200, { data: [], meta: { hasMore: true } });
	const error = await activationError();
	// fails today: "The API answered page 2 of the list with no records but said there were more; stopped reading the list"
	expect(error.message).toMatch(PUBLISH_AGAIN);
});
