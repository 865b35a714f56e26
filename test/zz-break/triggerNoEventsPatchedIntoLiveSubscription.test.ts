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

import { activateTrigger } from '../harness/engine';
import {
	API,
	EVENTS,
	nodeWithWhk1,
	trigger,
	WEBHOOK_URL,
	useFastClockAndLogs,
} from './liveSubscription';

const NAME = 'n8n: Test workflow / Business Ops Trigger (workflow-1)';

useFastClockAndLogs();

function published(events: unknown) {
	return nodeWithWhk1({ events } as INodeParameters);
}

/** The live subscription as the API answers it, and every PATCH body the trigger sends. */
function liveSubscription(): unknown[] {
	const patches: unknown[] = [];
	nock(API)
		.get('/v1/webhooks/whk_1')
		.reply(200, {
			data: { id: 'whk_1', name: NAME, url: WEBHOOK_URL, events: EVENTS, active: true },
		})
		.patch('/v1/webhooks/whk_1')
		.optionally()
		.reply(200, (_uri, body) => {
			patches.push(body);
			return {
				data: { id: 'whk_1', name: NAME, url: WEBHOOK_URL, ...(body as object), active: true },
			};
		});
	return patches;
}

test.each<[string, unknown]>([
	['an empty list', '={{ [] }}'],
	['an empty text', '={{ "" }}'],
])(
	'Event Names resolving to %s: the activation fails naming the field, the live subscription is not emptied',
	async (_what, events) => {
		const patches = liveSubscription();
		const node = published(events);
		// fails today: checkExists PATCHes {"events":[]} and answers true, so n8n never runs create
		await expect(activateTrigger(trigger, node)).rejects.toThrow(
			/Choose at least one event in "Event Names or IDs"/,
		);
		expect(patches).toEqual([]);
	},
);

test('Event Names resolving to one event as text: the live subscription is never PATCHed to no events', async () => {
	const patches = liveSubscription();
	const node = published('={{ "invoice.paid" }}');
	await activateTrigger(trigger, node).catch(() => undefined);
	// fails today: [{"events":[]}]
	expect(patches).not.toContainEqual({ events: [] });
});
