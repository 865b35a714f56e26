/**
 * Break b28a: Event Names or IDs (Webhook → Create / Update) given a list from an expression whose
 * entries are not text. The rule of eventsField turned every entry into text with String(), so a missing value
 * is sent as the event type "undefined", null as "null" and an object as "[object Object]".
 * Issue 28: the value a field's check accepted is the value sent; null/undefined mean "not given"
 * and nothing sends "undefined" or null; anything else is refused naming the field and [item N].
 */
import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { nodeType, recordRequests } from '../harness/description';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };
const webhook = { __rl: true, mode: 'id', value: 'whk_1' };

async function runWith(parameters: INodeParameters, value: unknown) {
	nock.cleanAll();
	const requests = recordRequests();
	const { items } = await runDeclarativeNode(nodeType, parameters, {
		items: [{ json: { value } as IDataObject }],
		credentials,
		continueOnFail: true,
	});
	return { requests, error: items[0]?.error?.message };
}

const operations: Array<[string, INodeParameters]> = [
	[
		'update',
		{
			resource: 'webhook',
			operation: 'update',
			webhookId: webhook,
			updateFields: { events: '={{ $json.value }}' },
		},
	],
	[
		'create',
		{
			resource: 'webhook',
			operation: 'create',
			name: 'n',
			url: 'https://example.com/h',
			events: '={{ $json.value }}',
		},
	],
];

describe.each(operations)(
	'Webhook %s: Event Names or IDs from an expression',
	(_name, parameters) => {
		test.each([
			['a missing value', [undefined]],
			['null', [null]],
			['an object', [{ id: 'invoice.paid' }]],
		])('a list holding %s is refused naming the field; nothing is sent', async (_what, value) => {
			const { requests, error } = await runWith(parameters, value);
			expect(error).toMatch(/^Event Names or IDs: .* \[item 0\]$/);
			expect(requests).toEqual([]);
		});

		test('no event type "null", "undefined" or "[object Object]" is ever sent', async () => {
			const { requests } = await runWith(parameters, ['invoice.paid', null, undefined, {}]);
			const sent = requests.flatMap(
				(request) => (request.body.events as unknown[] | undefined) ?? [],
			);
			for (const text of ['null', 'undefined', '[object Object]']) expect(sent).not.toContain(text);
		});
	},
);
