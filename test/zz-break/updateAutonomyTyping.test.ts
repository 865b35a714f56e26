/**
 * Break b28a: Agent → Update Autonomy reads its fields outside the field builders
 * (buildAutonomyBody), and three of them do not follow issue 28's one typing rule:
 * - Clear Action Overrides saved as the text "false" (a boolean holding "false"): n8n hides
 *   Action Overrides (shown for clearActionOverrides [false] only), so the rows are dropped and the
 *   run is refused with "add an action override" although one is added;
 * - Default Mode " keep " (options: text with spaces around it is read without them): "keep" is
 *   one of its values (Keep Current Mode), yet it is refused as "not a mode";
 * - Action Name (text) given the number 14: text fields send a number as its text, yet it is
 *   refused as "has no action name"; given an object, it is refused with the same wrong reason.
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { nodeType, recordRequests } from '../harness/description';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };

async function updateAutonomy(parameters: INodeParameters, value?: unknown) {
	const requests = recordRequests();
	const { items } = await runDeclarativeNode(
		nodeType,
		{
			resource: 'agent',
			operation: 'updateAutonomy',
			agentId: { __rl: true, mode: 'id', value: 'agt_1' },
			...parameters,
		},
		{ items: [{ json: { value } as INodeParameters }], credentials, continueOnFail: true },
	);
	nock.cleanAll();
	return { bodies: requests.map((request) => request.body), error: items[0]?.error?.message };
}

const ROWS = { override: [{ action: 'send_invoice', mode: 'manual' }] };

test('Clear Action Overrides saved as the text "false" is false: the override rows are sent', async () => {
	const { bodies, error } = await updateAutonomy({
		clearActionOverrides: 'false',
		actionOverrides: ROWS,
	});
	expect(error).toBeUndefined();
	expect(bodies).toEqual([{ actionOverrides: { send_invoice: { mode: 'manual' } } }]);
});

test('Default Mode " keep " is Keep Current Mode: only the overrides are sent', async () => {
	const { bodies, error } = await updateAutonomy(
		{ defaultMode: '={{ $json.value }}', actionOverrides: ROWS },
		' keep ',
	);
	expect(error).toBeUndefined();
	expect(bodies).toEqual([{ actionOverrides: { send_invoice: { mode: 'manual' } } }]);
});

test('Action Name given the number 14 is sent as the text "14"', async () => {
	const { bodies, error } = await updateAutonomy(
		{ actionOverrides: { override: [{ action: '={{ $json.value }}', mode: 'manual' }] } },
		14,
	);
	expect(error).toBeUndefined();
	expect(bodies).toEqual([{ actionOverrides: { '14': { mode: 'manual' } } }]);
});

test('Action Name given an object is refused as not text (not as a missing name); nothing is sent', async () => {
	const { bodies, error } = await updateAutonomy(
		{ actionOverrides: { override: [{ action: '={{ $json.value }}', mode: 'manual' }] } },
		{ name: 'send_invoice' },
	);
	expect(bodies).toEqual([]);
	expect(error).toMatch(/^Action Overrides: .*text.* \[item 0\]$/);
	expect(error).not.toMatch(/has no action name/);
});
