/**
 * Breaker b29c: "a leftover subscription at the URL … leave no orphan subscription" and "where the
 * spec is silent, accept every reasonable reading" (common rules).
 *
 * The spec says only that a subscription's `url` is "string, target address of the deliveries";
 * an API may keep it normalised (host in lower case, default port dropped, as WHATWG URL writes
 * it). n8n builds the webhook URL from N8N_WEBHOOK_URL / WEBHOOK_URL as written, e.g.
 * `https://N8N.Example.test:443/`. Then checkExists sees the stored subscription "at another URL",
 * forgets it and leaves it in place ("it may belong to another n8n"); create's look-up for ones
 * left behind compares URLs exactly and finds none; a new subscription is made. Every activation
 * (n8n 1.x: every save and start) adds one more, each delivering every event to this n8n, where
 * all but the newest are refused.
 * Expected: after several activations of one trigger, one subscription exists at its URL.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { activateTrigger, createTriggerNode } from '../harness/engine';
import { API, EVENTS, trigger, useFastClockAndLogs } from './liveSubscription';

useFastClockAndLogs();

/** An API that keeps each subscription's url as `new URL(url).href` writes it. */
function normalisingApi(): Map<string, IDataObject> {
	const subscriptions = new Map<string, IDataObject>();
	let next = 1;
	nock(API)
		.persist()
		.get('/v1/webhooks')
		.query(true)
		.reply(200, () => ({ data: [...subscriptions.values()], meta: { hasMore: false } }))
		.get(/\/v1\/webhooks\/whk_\d+$/)
		.reply((uri) => {
			const found = subscriptions.get(uri.split('/').pop() ?? '');
			return found
				? [200, { data: found }]
				: [404, { error: { code: 'not_found', message: 'Not found' } }];
		})
		.post('/v1/webhooks')
		.reply(201, (_uri, body) => {
			const { name, url, events } = body as IDataObject;
			const id = `whk_${next++}`;
			subscriptions.set(id, { id, name, url: new URL(String(url)).href, events, active: true });
			return {
				data: {
					...subscriptions.get(id),
					signingSecret: `whsec_${Buffer.from(`secret-of-${id}-0123456789`).toString('base64')}`,
				},
			};
		})
		.delete(/\/v1\/webhooks\/whk_\d+$/)
		.reply((uri) =>
			subscriptions.delete(uri.split('/').pop() ?? '')
				? [204, '']
				: [404, { error: { code: 'not_found', message: 'Not found' } }],
		);
	return subscriptions;
}

test('N8N_WEBHOOK_URL written with capitals and :443, an API that normalises URLs: three activations leave one subscription', async () => {
	const subscriptions = normalisingApi();
	const node = createTriggerNode(
		trigger,
		{ events: EVENTS },
		{ webhookBaseUrl: 'https://N8N.Example.test:443/' },
	);
	for (let start = 0; start < 3; start++) await activateTrigger(trigger, node);
	// fails today: whk_1, whk_2 and whk_3, all to this trigger's URL
	expect([...subscriptions.keys()]).toHaveLength(1);
});
