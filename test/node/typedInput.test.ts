import type { INodeParameters, IDataObject } from 'n8n-workflow';
import nock from 'nock';
import { nodeType, recordRequests } from '../harness/description';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

/**
 * Break b28a: Items (JSON) of Quote / Invoice → Create given text of only spaces or a line break
 * (a cleared cell, a template with nothing in it). Issue 28's empty-value rule: `undefined`, `null`,
 * `""` and whitespace-only text mean "not given"; a required field is then refused as not given.
 * "" and null are ("no items were given; add at least one item, e.g. …"), but "  " and "\n" are
 * parsed as JSON and refused as "the text is not valid JSON (Unexpected end of JSON input)".
 */
describe('items JSON whitespace only', () => {
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
});

/**
 * Break b28a (minor): numeric text a JavaScript number cannot hold exactly. typing.ts promises to
 * read "a number the way a person typed it, refusing anything ambiguous … rather than guessed";
 * issue 28: the value the check accepted is the value sent. "9007199254740993" passes the
 * whole-number check only after rounding and is sent as 9007199254740992 (a different number), and
 * "99999999999999999999999" is sent as 1e+23. Expected: refused naming the field and [item N]
 * (or sent exactly, which a JSON number from JavaScript cannot do), never silently changed.
 */
describe('number text not exact', () => {
	const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };
	test.each(['9007199254740993', '99999999999999999999999'])(
		'Default Payment Terms (Days) %s is not sent as another number',
		async (value) => {
			const requests = recordRequests();
			const { items } = await runDeclarativeNode(
				nodeType,
				{
					resource: 'organization',
					operation: 'update',
					updateFields: { defaultPaymentTermsDays: '={{ $json.value }}' },
				},
				{ items: [{ json: { value } as INodeParameters }], credentials, continueOnFail: true },
			);
			nock.cleanAll();
			expect(items[0].error?.message).toMatch(/^Default Payment Terms \(Days\): .* \[item 0\]$/);
			expect(requests).toEqual([]);
		},
	);
});

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
describe('update autonomy typing', () => {
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
});

/**
 * Break b28a: in tool mode the model sees one argument per $fromAI key, not the node's field
 * names (docs/ai-agents.md, "What the model sees"). Issue 28 and the project rules: a refusal in
 * tool mode reads as what to change in which argument the model sees; an Update whose every
 * argument is "" must not tell the model to change "Update Fields", an argument it never sees.
 * At the break a refused value named the field's display name ("Default Payment Terms (Days)") and
 * the empty Update named "Update Fields".
 */
describe('tool mode argument names', () => {
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
});

/**
 * Break b28a: Event Names or IDs (Webhook → Create / Update) given a list from an expression whose
 * entries are not text. The rule of eventsField turned every entry into text with String(), so a missing value
 * is sent as the event type "undefined", null as "null" and an object as "[object Object]".
 * Issue 28: the value a field's check accepted is the value sent; null/undefined mean "not given"
 * and nothing sends "undefined" or null; anything else is refused naming the field and [item N].
 */
describe('webhook events list entries', () => {
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
				for (const text of ['null', 'undefined', '[object Object]'])
					expect(sent).not.toContain(text);
			});
		},
	);
});
