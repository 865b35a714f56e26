/**
 * Breaker b29d: an attacker's or a broken proxy's header against "a 429 at publishing says when to
 * publish again from its Retry-After" (errors.ts publishAgainAfter).
 *
 * retryAfterMs() reads "Retry-After: 1e308" as finite seconds (Number.isFinite(1e308)) and multiplies
 * by 1000: Infinity ms. The activation error then says "(the API asked to wait Infinity s): publish
 * the workflow again in Infinity minutes". Outside activation the same header gives "The API asked
 * to wait Infinity s" (tooLongWait).
 * Expected: a wait nobody can act on is not shown as Infinity (a bounded figure, or "later").
 */
import nock from 'nock';

import { createTriggerNode, runWebhookMethod } from '../harness/engine';
import { API, trigger, useFastClockAndLogs } from './liveSubscription';

useFastClockAndLogs();

test('POST /webhooks answered 429 with Retry-After: 1e308 at publishing: no "Infinity" in the message', async () => {
	nock(API)
		.get('/v1/webhooks')
		.query(true)
		.reply(200, { data: [], meta: { hasMore: false } })
		.post('/v1/webhooks')
		.reply(
			429,
			{ error: { code: 'rate_limited', message: 'Too many requests' } },
			{ 'Retry-After': '1e308' },
		);
	const error = await runWebhookMethod(
		trigger,
		createTriggerNode(trigger, { events: ['invoice.paid'] }),
		'create',
	).then(
		() => undefined,
		(e: unknown) => e as Error,
	);
	expect(error?.message).toMatch(/HTTP 429/);
	// fails today: "… (the API asked to wait Infinity s): publish the workflow again in Infinity minutes."
	expect(error?.message).not.toMatch(/Infinity|NaN/);
});
