/**
 * Break b28a: in tool mode the model sees one argument per $fromAI key, not the node's field
 * names (docs/ai-agents.md, "What the model sees"). Issue 28 and the project rules: a refusal in
 * tool mode reads as what to change in which argument the model sees; an Update whose every
 * argument is "" must not tell the model to change "Update Fields", an argument it never sees.
 * At the break a refused value named the field's display name ("Default Payment Terms (Days)") and
 * the empty Update named "Update Fields".
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { nodeType, recordRequests } from '../harness/description';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };

async function callTool(
	parameters: INodeParameters,
	args: INodeParameters,
): Promise<{ error: Error & { description?: string }; sent: number }> {
	const requests = recordRequests();
	const error = await runDeclarativeNode(nodeType, parameters, {
		items: [{ json: args }],
		credentials,
		asTool: true,
	}).then(
		() => {
			throw new Error('the call was not refused');
		},
		(e: Error) => e,
	);
	nock.cleanAll();
	return { error, sent: requests.length };
}

test('a value the typing refuses names the $fromAI argument the model sent', async () => {
	const { error, sent } = await callTool(
		{
			resource: 'organization',
			operation: 'update',
			updateFields: {
				defaultPaymentTermsDays:
					"={{ $fromAI('paymentTerms', 'Payment terms in days', 'string') }}",
			},
		},
		{ paymentTerms: 'two weeks' },
	);
	expect(sent).toBe(0);
	expect(`${error.message} ${error.description}`).toContain('paymentTerms');
	expect(error.message).not.toMatch(/\[item/);
});

test('an Update whose every argument is "" does not name "Update Fields"', async () => {
	const { error, sent } = await callTool(
		{
			resource: 'organization',
			operation: 'update',
			updateFields: { legalName: "={{ $fromAI('legalName', 'Registered name', 'string') }}" },
		},
		{ legalName: '' },
	);
	expect(sent).toBe(0);
	expect(`${error.message} ${error.description}`).not.toContain('Update Fields');
	expect(`${error.message} ${error.description}`).toContain('legalName');
});
