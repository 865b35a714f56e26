/**
 * Breaker b29c: "every failure of each lifecycle call …: does the activation error name what to
 * fix … leave no orphan subscription" (issue 29), for delete, run when a workflow is unpublished
 * or deleted.
 *
 * When DELETE /webhooks/{id} fails at unpublishing (a revoked key: 401; the API down: 503), n8n
 * shows nothing (it ignores delete's answer); the trigger logs one warning and keeps the record
 * "for the next activation". After unpublishing, or deleting the workflow (its static data goes
 * with it), there may be none: the subscription stays active and keeps delivering every event to a
 * URL n8n no longer serves. The warning is the API error's activation text, which ends with "then
 * publish the workflow again" / "publish the workflow again later": advice for publishing, not for
 * the subscription left behind, and never "delete it in the dashboard" (the id shows only inside
 * the request path).
 * Expected: the warning says the subscription is still active and that it should be deleted in the
 * Business Ops dashboard (Webhooks) if the workflow stays unpublished, naming its id.
 */
import nock from 'nock';

import { deactivateTrigger } from '../harness/engine';
import { API, nodeWithWhk1, trigger, useFastClockAndLogs } from './liveSubscription';

const logs = useFastClockAndLogs();

test.each<[string, number, object]>([
	[
		'401 (the key was revoked)',
		401,
		{ error: { code: 'unauthorized', message: 'Invalid API key' } },
	],
	[
		'503 (the API is down)',
		503,
		{ error: { code: 'unavailable', message: 'Service unavailable' } },
	],
])(
	'unpublishing while DELETE answers %s: the warning names the subscription left active and says to delete it in the dashboard',
	async (_what, status, body) => {
		nock(API).delete('/v1/webhooks/whk_1').reply(status, body);
		const node = nodeWithWhk1();
		await deactivateTrigger(trigger, node);
		const warnings = logs()
			.lines.filter((line) => line.level === 'warn')
			.map((line) => line.message);
		expect(warnings).toHaveLength(1);
		// fails today: "… could not delete its webhook subscription: Invalid API key (HTTP 401 unauthorized, DELETE /webhooks/whk_1). Check the API key and the Base URL in the Business Ops API credential, then publish the workflow again."
		expect(warnings[0]).toMatch(/whk_1/);
		expect(warnings[0]).toMatch(/delete it in the Business Ops dashboard \(Webhooks\)/i);
	},
);
