/**
 * Breaker (signatures rebuild): docs/signatures.md: "A GitHub-style `sha256=<hex>` signature of the
 * body verifies at every body size Auto accepts (below), whatever other headers a proxy adds."
 *
 * Auto tries the body alone first only when no timestamp header is "named for signing"; a
 * `webhook-timestamp` or `svix-timestamp` counts as such whoever added it. A relay in front of
 * n8n that stamps the Standard Webhooks headers of its own hop (`webhook-id`, `webhook-timestamp`;
 * relays such as Svix-style gateways and queues do) then moves `{body}` to the third place of the
 * search, and a first GitHub-style delivery of 600 KiB (budget: 2 tries) is refused with
 * "tried only the 2 most likely forms". Same for a lone `svix-timestamp` beside GitHub's own
 * `X-GitHub-Delivery`. Without those headers the same delivery verifies.
 * Expected: the genuine GitHub-style delivery verifies, whatever headers the proxy added.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runWebhook } from '../harness/engine';
import { atFixedTime, githubSignature } from '../trigger/helpers';
import { nodeWithWhk1, SIGNING, trigger } from './liveSubscription';

const NOW = 1_700_000_000;
atFixedTime(NOW);

let workflows = 0;
function node() {
	const testNode = nodeWithWhk1({ events: ['invoice.paid'], options: {} as INodeParameters });
	testNode.workflow.id = `workflow-auto-github-relay-${++workflows}`;
	return testNode;
}

const raw = JSON.stringify({
	id: 'evt_1',
	type: 'invoice.paid',
	data: { notes: 'n'.repeat(600 * 1024) },
});
const github = {
	'x-hub-signature-256': githubSignature(SIGNING, raw),
	'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
	'x-github-event': 'invoice.paid',
};

test('a first large GitHub-style delivery verifies although a relay added its own Standard Webhooks headers', async () => {
	expect(
		(await runWebhook(trigger, node(), { headers: github, rawBody: Buffer.from(raw) })).result
			.workflowData,
	).toHaveLength(1);
	const relayed = { ...github, 'webhook-id': 'relay_msg_2Xk9', 'webhook-timestamp': String(NOW) };
	const run = await runWebhook(trigger, node(), { headers: relayed, rawBody: Buffer.from(raw) });
	// fails today: 401, "... tried only the 2 most likely forms over a body this large ..."
	expect(run.status).toBeUndefined();
	expect(run.result.workflowData).toHaveLength(1);
});

test('a first large GitHub-style delivery verifies beside a proxy svix-timestamp header', async () => {
	const run = await runWebhook(trigger, node(), {
		headers: { ...github, 'svix-timestamp': String(NOW) },
		rawBody: Buffer.from(raw),
	});
	// fails today: 401, "... tried only the 2 most likely forms over a body this large ..."
	expect(run.status).toBeUndefined();
	expect(run.result.workflowData).toHaveLength(1);
});
