/**
 * Breaker: "Fetch Test Event" is the user waiting in the editor, but its list reads take the
 * rate budget's `poll` lane, after every waiting workflow run on the same key, and without the
 * editor's time limit. On a key busy with workflow runs the editor waits until the queue is empty.
 * The budget's own rule: "`editor`: a look-up of the editor … goes before every waiting
 * production request". Expected: the test event's request is served before a workflow run that
 * was already waiting (as the editor's look-ups are).
 */
import { PollContext } from 'n8n-core';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { budgetFor, budgetKeyOf } from '../../nodes/shared/api/rateBudget';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { createTestNode } from '../harness/engine';
import { trigger } from '../polling/harness';
import { useSandbox } from '../polling/harness';

const env = useSandbox();

test('Fetch Test Event goes before a workflow run already waiting on the same key', async () => {
	const sandbox = env.sandbox();
	forgetRateBudgets();
	fastClock();
	const credentials = {
		apiKey: sandbox.keys.admin,
		baseUrl: sandbox.baseUrl,
		requestsPerMinute: 1,
	};
	const budget = budgetFor(budgetKeyOf(sandbox.keys.admin), 1);
	const order: string[] = [];
	// a workflow run used this minute's request; another run waits for the next minute
	(await budget.take({ lane: 'run' })).answered();
	const waitingRun = budget.take({ lane: 'run' }).then((slot) => {
		order.push('workflow run');
		slot.answered();
	});

	const test = createTestNode(trigger, { events: ['quote.created'] }, { credentials });
	const ctx = new PollContext(test.workflow, test.node, test.additionalData, 'manual', 'activate');
	const send = ctx.helpers.httpRequestWithAuthentication;
	ctx.helpers.httpRequestWithAuthentication = async function (
		this: unknown,
		type: string,
		request: IHttpRequestOptions,
		...rest: unknown[]
	) {
		order.push(`Fetch Test Event ${request.url}`);
		return await (send as (...args: unknown[]) => Promise<unknown>).call(
			this,
			type,
			request,
			...rest,
		);
	} as typeof send;
	await trigger.poll.call(ctx);
	await waitingRun;

	expect(order[0]).toBe('Fetch Test Event /quotes');
});
