/**
 * Breaker b29c: "Every call of the lifecycle waits at most 10 s … n8n gives the publication of a
 * workflow a deadline (about 84 s in n8n 2.41), so an API that does not answer … becomes an
 * activation error" (docs/subscriptions.md, "When publishing fails").
 *
 * The 10 s bounds only the wait for an answer. Before it is sent, each lifecycle request waits for
 * room in the API key's rate budget, with no bound. When another trigger on the same key was just
 * told 429 with Retry-After: 120 (the longest the package waits; n8n 1.x activates every published
 * workflow at start-up, so triggers on one key come together), the key is paused and publishing
 * waits those 120 s before its first request. n8n 2.41 has abandoned the publication at 84 s and
 * records no error at all; the subscription is then made later, outside the publication (its
 * signing secret in static data n8n may no longer save). A queue of other workflows' requests on
 * the key (120 per minute) holds it up the same way.
 * Expected: every request of the activation is sent (or the activation fails with what to do)
 * within n8n's 84 s.
 */
import nock from 'nock';
import type { IHookFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { apiRequest } from '../../nodes/shared/api/transport';
import { manualClock } from '../harness/clock';
import { activateTrigger, createTriggerNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { API, EVENTS, SIGNING, trigger, useLogs } from './liveSubscription';

/** n8n 2.41 aborts publication work after 84 s (0.7 of its 120 s lease); test/e2e/trigger-lifecycle.js pins it. */
const PUBLISH_DEADLINE_MS = 84_000;

useLogs();

/** Another trigger's activation with the same API key, answered 429 with Retry-After: 120 (not repeated). */
async function otherTriggerRateLimited(): Promise<void> {
	const node = createTriggerNode(trigger, { events: EVENTS }, { nodeName: 'Other trigger' }).node;
	const ctx = {
		getNode: () => node,
		getCredentials: async () => ({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL }),
		helpers: {
			httpRequestWithAuthentication: async () =>
				({
					statusCode: 429,
					headers: { 'retry-after': '120' },
					body: { error: { code: 'rate_limited', message: 'Too many requests' } },
				}) as IN8nHttpFullResponse,
		},
	} as unknown as IHookFunctions;
	await expect(apiRequest(ctx, 'GET', '/webhooks/whk_9', { activation: true })).rejects.toThrow(
		/HTTP 429/,
	);
}

test("publishing right after the key was told to wait 120 s sends its requests within n8n's publication deadline, or fails", async () => {
	const clock = manualClock();
	await otherTriggerRateLimited();
	const sentAt: number[] = [];
	nock(API)
		.get('/v1/webhooks')
		.query(true)
		.optionally()
		.reply(200, () => {
			sentAt.push(clock.elapsed());
			return { data: [], meta: { hasMore: false } };
		})
		.post('/v1/webhooks')
		.optionally()
		.reply(201, () => {
			sentAt.push(clock.elapsed());
			return { data: { id: 'whk_2', signingSecret: SIGNING } };
		});

	const started = clock.elapsed();
	await activateTrigger(trigger, createTriggerNode(trigger, { events: EVENTS })).catch(
		() => undefined,
	);
	// fails today: [120000, 180000] (the list read sent after 120 s, the POST a minute later)
	expect(sentAt.map((at) => at - started).filter((after) => after > PUBLISH_DEADLINE_MS)).toEqual(
		[],
	);
});
