/**
 * Breaker b29d: "checkSubscription: an answer that is not a subscription must never delete anything".
 *
 * subscriptionOf() takes any object with a text `url` as the subscription asked for. A JSON answer to
 * GET /webhooks/whk_1 that is not whk_1 (a proxy's JSON login answer carrying a `url`, a caching proxy
 * answering with another subscription) reads as "its URL was changed in Business Ops": the record is
 * dropped with a warning, then create finds no record, lists /webhooks, and DELETEs the live whk_1 at
 * exactly this trigger's URL as "left behind", then POSTs a new one (new signing secret).
 * Expected: an answer whose id is not the stored one (or without one) changes nothing: no DELETE.
 */
import type { IDataObject } from 'n8n-workflow';

import { EVENTS, publishWithWhk1Answered, useFastClockAndLogs } from './liveSubscription';

useFastClockAndLogs();

test.each<[string, IDataObject]>([
	[
		"a proxy's JSON answer with a url",
		{
			error: 'login required',
			url: 'https://sso.proxy.example/login?next=%2Fv1%2Fwebhooks%2Fwhk_1',
		},
	],
	[
		'another subscription',
		{
			data: {
				id: 'whk_9',
				name: 'other',
				url: 'https://elsewhere.example/hook',
				events: EVENTS,
				active: true,
			},
		},
	],
])(
	'GET /webhooks/whk_1 answered 200 with %s: the live whk_1 is not deleted',
	async (_what, body) => {
		const { deletes } = await publishWithWhk1Answered((get) => get.reply(200, body));
		// failed before the fix: ['whk_1'] (deleted as "left behind"), then whk_2 created and stored
		expect(deletes).toEqual([]);
	},
);
