/**
 * Breaker b29c: "Event Names … checks at activation", "each concept has one owner" and "Bad
 * input gets a clear error that says what to fix … and loses nothing" (common rules).
 *
 * The Business Ops node's Event Names or IDs (Webhook → Create) reads an expression's value by
 * the rule of eventsField: "a, b" text is a list, entries are trimmed, and an entry that is not text (null, an
 * object) is refused naming it. The trigger's Event Names or IDs, the same field for the same API
 * call (POST /webhooks), is read by its own chosenEvents: text is dropped whole (publishing fails
 * with "Choose at least one event", although one was given), entries are not trimmed, and null or
 * an object is sent as the event type "null" or "[object Object]".
 * Expected: the trigger reads the field as the Webhook node does (one owner): text is a list,
 * entries trimmed, entries that are not text refused at activation naming the field; nothing sent
 * then.
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { activateTrigger, createTriggerNode } from '../harness/engine';
import { API, SIGNING, trigger, useFastClockAndLogs } from './liveSubscription';

useFastClockAndLogs();

/** Publishes a trigger whose Event Names come from `expression`; the events POST /webhooks was sent, if any. */
async function publishWith(expression: string): Promise<{ posted: unknown[]; error?: Error }> {
	const posted: unknown[] = [];
	nock(API)
		.get('/v1/webhooks')
		.query(true)
		.optionally()
		.reply(200, { data: [], meta: { hasMore: false } })
		.post('/v1/webhooks')
		.optionally()
		.reply(201, (_uri, body) => {
			posted.push((body as { events: unknown }).events);
			return { data: { id: 'whk_2', signingSecret: SIGNING } };
		});
	const node = createTriggerNode(trigger, { events: expression } as unknown as INodeParameters);
	const error = await activateTrigger(trigger, node).then(
		() => undefined,
		(e: unknown) => e as Error,
	);
	return { posted, error };
}

test.each<[string, string, string[]]>([
	['one event as text', '={{ "invoice.paid" }}', ['invoice.paid']],
	['"a, b" text', '={{ "invoice.paid, quote.approved" }}', ['invoice.paid', 'quote.approved']],
	[
		'entries with spaces around them',
		'={{ [" invoice.paid ", "quote.approved"] }}',
		['invoice.paid', 'quote.approved'],
	],
])(
	'%s subscribes to those events, as the Webhook node reads the field',
	async (_what, expression, events) => {
		const { posted, error } = await publishWith(expression);
		// fails today: text → "Choose at least one event in "Event Names or IDs"" and nothing posted; spaces are posted as they are
		expect(error?.message).toBeUndefined();
		expect(posted).toEqual([events]);
	},
);

test.each<[string, string]>([
	['null', '={{ [null, "invoice.paid"] }}'],
	['an object', '={{ [{ "name": "invoice.paid" }] }}'],
])(
	'an entry that is %s is refused at activation naming the field; nothing is subscribed',
	async (_what, expression) => {
		const { posted, error } = await publishWith(expression);
		// fails today: POST /webhooks with the event type "null" / "[object Object]"
		expect(posted).toEqual([]);
		expect(error?.message).toMatch(/Event Names or IDs/);
	},
);
