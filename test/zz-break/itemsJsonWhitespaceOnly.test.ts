/**
 * Break b28a: Items (JSON) of Quote / Invoice → Create given text of only spaces or a line break
 * (a cleared cell, a template with nothing in it). Issue 28's empty-value rule: `undefined`, `null`,
 * `""` and whitespace-only text mean "not given"; a required field is then refused as not given.
 * "" and null are ("no items were given; add at least one item, e.g. …"), but "  " and "\n" are
 * parsed as JSON and refused as "the text is not valid JSON (Unexpected end of JSON input)".
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { nodeType, recordRequests } from '../harness/description';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };

async function refusal(
	resource: string,
	value: unknown,
): Promise<{ message: string; sent: number }> {
	const requests = recordRequests();
	const parameters: INodeParameters = {
		resource,
		operation: 'create',
		contactId: { __rl: true, mode: 'id', value: 'ctc_1' },
		itemsInput: 'json',
		itemsJson: '={{ $json.value }}',
	};
	const error = await runDeclarativeNode(nodeType, parameters, {
		items: [{ json: { value } as INodeParameters }],
		credentials,
	}).then(
		() => new Error('not refused'),
		(e: Error) => e,
	);
	nock.cleanAll();
	return { message: error.message, sent: requests.length };
}

describe.each(['quote', 'invoice'])(
	'%s create: Items (JSON) of only spaces is "not given"',
	(resource) => {
		test.each(['  ', '\n', ' \t '])('%j is refused as no items given, like ""', async (value) => {
			const empty = await refusal(resource, '');
			const spaces = await refusal(resource, value);
			expect(spaces.sent).toBe(0);
			expect(spaces.message).toBe(empty.message);
			expect(spaces.message).not.toMatch(/not valid JSON/);
		});
	},
);
