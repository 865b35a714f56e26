/**
 * Breaker b29c: "every failure of each lifecycle call (… malformed JSON …): does the activation
 * error name what to fix … leave no orphan" and "the stored subscription is deleted or replaced
 * only when it is known not to fit" (subscription.ts).
 *
 * checkExists reads GET /webhooks/{id}. An answer of 200 that is not a subscription (a body cut
 * off mid-JSON, a proxy's HTML page) is read as `{}`; its missing `url` counts as "its URL was
 * changed in Business Ops" with no remote URL, which discard() takes as pointing here: the live,
 * working subscription is DELETEd and a new one POSTed (a new signing secret, so deliveries already
 * signed with the old one are refused), and n8n's log says the URL was changed in Business Ops,
 * which nobody did.
 * Expected: an unreadable answer changes nothing: no DELETE, the record kept, and the activation
 * fails with what to do (or goes on with the subscription as it is).
 */
import type { IDataObject } from 'n8n-workflow';

import { publishWithWhk1Answered, useFastClockAndLogs } from './liveSubscription';

const logs = useFastClockAndLogs();

test.each<[string, string, string]>([
	[
		'a JSON body cut off',
		'{"data": {"id": "whk_1", "name": "n8n: Test workflow / Business Ops Trigger (workflow-1)", "url": "https://n8n.ex',
		'application/json',
	],
	["a proxy's HTML page", '<html><body>Please log in to the network</body></html>', 'text/html'],
])(
	'GET /webhooks/{id} answered 200 with %s: the live subscription is not deleted',
	async (_what, body, type) => {
		const { deletes, node } = await publishWithWhk1Answered(
			(get) => get.reply(200, body, { 'content-type': type }),
			[],
		);
		// failed before the fix: ['whk_1'], then whk_2 created and stored
		expect(deletes).toEqual([]);
		const stored = (node.workflow.staticData['node:Business Ops Trigger'] as IDataObject)
			.subscriptions as IDataObject;
		expect((stored.production as IDataObject).id).toBe('whk_1');
		expect(
			logs()
				.lines.map((line) => line.message)
				.join('\n'),
		).not.toMatch(/its URL was changed in Business Ops/);
	},
);
