/**
 * Break b28a: Get Many's Return All given by an expression (a workflow's {{ $json.all }}, or an AI
 * model's $fromAI in tool mode). n8n shows every field whose display condition reads an expression,
 * so Limit stays in the request: its output cut (maxResults, default 50) then applies even when
 * Return All resolved to true, and only 50 of 350 records come back. And a Return All saved as the
 * text "false" hides Limit: the node then reads every page, ignoring Limit 5.
 * Issue 28: a boolean field reads true/false and the texts "true"/"false" as such; what the field's
 * check accepted is what the node acts on.
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { nodeType } from '../harness/description';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };
const API = 'https://api.business-ops.test';
const TOTAL = 350;

function page(n: number) {
	const first = (n - 1) * 100;
	const count = Math.max(0, Math.min(100, TOTAL - first));
	return {
		data: Array.from({ length: count }, (_, i) => ({ id: `c${first + i}` })),
		meta: { page: n, pageSize: 100, total: TOTAL, hasMore: first + count < TOTAL },
	};
}

async function contactsRead(parameters: INodeParameters, value?: unknown): Promise<number> {
	nock(API)
		.persist()
		.get(/\/v1\/contacts/)
		.reply((uri) => [200, page(Number(new URL(uri, API).searchParams.get('page') ?? 1))]);
	const { items } = await runDeclarativeNode(
		nodeType,
		{ resource: 'contact', operation: 'getAll', ...parameters },
		{
			items: [{ json: { value } as INodeParameters }],
			credentials,
		},
	);
	return items.length;
}

test.each([true, 'true'])(
	'Return All from an expression giving %p returns every record',
	async (value) => {
		expect(await contactsRead({ returnAll: '={{ $json.value }}' }, value)).toBe(TOTAL);
	},
);

test('Return All from an expression giving true returns every record, whatever Limit holds', async () => {
	expect(await contactsRead({ returnAll: '={{ $json.value }}', limit: 5 }, true)).toBe(TOTAL);
});

test('Return All saved as the text "false" reads it as false: Limit 5 returns 5 records', async () => {
	expect(await contactsRead({ returnAll: 'false', limit: 5 })).toBe(5);
});
