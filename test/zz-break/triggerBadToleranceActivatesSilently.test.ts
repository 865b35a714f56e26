/**
 * Breaker b29: "Bad input gets a clear error that says what to fix" and "Ignore Repeated
 * Deliveries holds for every tolerance the field accepts (or the field refuses it at activation,
 * naming it)" (issue 29, common rules).
 *
 * The Timestamp Tolerance (and the Custom settings) are checked only in create(). When n8n
 * activates a workflow whose subscription already exists (n8n's start-up re-activation, or any
 * activation after a delete that failed), checkExists answers true, create never runs, and a
 * tolerance that is not a number of seconds ("5m" from an expression, a negative number) is
 * accepted silently: the workflow shows as active while every delivery is refused with 401, the
 * reason only in n8n's log once a minute.
 * Expected: the activation fails with the same message that create gives, naming the field.
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { activateTrigger } from '../harness/engine';
import { API, nodeWithWhk1, trigger, WEBHOOK_URL, useFastClockAndLogs } from './liveSubscription';

const EVENTS = ['invoice.paid', 'quote.approved'];

useFastClockAndLogs();

test.each<[string, unknown]>([
	['"5m" from an expression', '5m'],
	['a negative number', -1],
])(
	'an existing subscription does not let a tolerance of %s through activation',
	async (_what, tolerance) => {
		nock(API)
			.get('/v1/webhooks/whk_1')
			.reply(200, {
				data: {
					id: 'whk_1',
					name: 'n8n: Test workflow / Business Ops Trigger (workflow-1)',
					url: WEBHOOK_URL,
					events: EVENTS,
					active: true,
				},
			});
		const testNode = nodeWithWhk1(
			{ events: EVENTS, options: { timestampTolerance: tolerance } as INodeParameters },
			EVENTS,
		);
		// fails today: checkExists answers true, create (the only place the field is checked) never runs
		await expect(activateTrigger(trigger, testNode)).rejects.toThrow(
			/Timestamp Tolerance \(Seconds\)" must be a number of seconds/,
		);
	},
);
