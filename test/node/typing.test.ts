/**
 * The typing rule over the node's whole description (through n8n-core's RoutingNode): every
 * number, boolean, options and text field that sends a property is given, from an expression,
 * numeric text, "true" and "false", its value with spaces around it, NaN, an object and text of
 * only spaces. What is sent must be in the API's type, or the item is refused naming the field
 * and nothing is sent. The fields come from the description, so a new field is covered too.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { asBoolean } from '../../nodes/shared/typing';
import {
	casesOf,
	nodeType,
	operations,
	recordRequests,
	sample,
	SAMPLE_BY_NAME,
	type FieldCase,
} from '../harness/description';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };

type Outcome = { refused: string } | { sent: unknown } | { nothing: true };

/** Runs the case with the field's value given by an expression; what was sent for it, or the refusal. */
async function outcomeOf(fieldCase: FieldCase, value: unknown): Promise<Outcome> {
	nock.cleanAll();
	const requests = recordRequests();
	const { items } = await runDeclarativeNode(nodeType, fieldCase.parameters('={{ $json.value }}'), {
		items: [{ json: { value } as IDataObject }],
		credentials,
		continueOnFail: true,
	});
	const error = items[0]?.error?.message;
	if (error !== undefined) {
		expect(requests).toEqual([]);
		return { refused: error };
	}
	expect(requests).toHaveLength(1);
	const { type, property } = fieldCase.sends!;
	const target = type === 'query' ? requests[0].query : requests[0].body;
	return property in target ? { sent: target[property] } : { nothing: true };
}

/** What a field sends for `value`: in the query it is text. */
function sent(fieldCase: FieldCase, value: unknown): Outcome {
	return { sent: fieldCase.sends!.type === 'query' ? String(value) : value };
}

function refused(fieldCase: FieldCase): Outcome {
	return {
		refused: expect.stringMatching(
			new RegExp(`^${escape(fieldCase.displayName)}: .* \\[item 0\\]$`),
		) as unknown as string,
	};
}

function escape(text: string) {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Either outcome (a list of suggestions, or a check that refuses the value). */
function oneOf(actual: Outcome, options: Outcome[]) {
	const matches = options.filter((option) => {
		try {
			expect(actual).toEqual(option);
			return true;
		} catch {
			return false;
		}
	});
	if (matches.length === 0) expect(actual).toEqual(options[0]);
}

const TYPED = ['number', 'boolean', 'options', 'string'];
const cases = operations()
	.flatMap((op) => casesOf(op))
	.filter((fieldCase) => fieldCase.sends && TYPED.includes(fieldCase.fieldType));

describe('every field sends what its check accepted, in the API type', () => {
	test('the walk finds the fields of the issue', () => {
		const titles = cases.map((c) => c.title);
		expect(titles).toEqual(
			expect.arrayContaining([
				'organization update: Update Fields > Default Payment Terms (Days)',
				'organization update: Update Fields > Default VAT Percentage',
				'organization update: Update Fields > Default Currency',
				'request create: Process Immediately',
				'webhook update: Update Fields > Active',
			]),
		);
		expect(titles.length).toBeGreaterThan(40);
	});

	test.each(cases.map((c) => [c.title, c] as const))('%s', async (_title, fieldCase) => {
		const empty = fieldCase.required ? refused(fieldCase) : { nothing: true as const };
		expect(await outcomeOf(fieldCase, '  ')).toEqual(empty);
		expect(await outcomeOf(fieldCase, Number.NaN)).toEqual(refused(fieldCase));
		expect(await outcomeOf(fieldCase, { a: 1 })).toEqual(refused(fieldCase));
		const given = sample(fieldCase.field);
		switch (fieldCase.fieldType) {
			case 'number':
				expect(await outcomeOf(fieldCase, '14')).toEqual(sent(fieldCase, 14));
				expect(await outcomeOf(fieldCase, '  14  ')).toEqual(sent(fieldCase, 14));
				expect(await outcomeOf(fieldCase, 'true')).toEqual(refused(fieldCase));
				break;
			case 'boolean':
				expect(await outcomeOf(fieldCase, 'true')).toEqual(sent(fieldCase, true));
				expect(await outcomeOf(fieldCase, 'false')).toEqual(sent(fieldCase, false));
				expect(await outcomeOf(fieldCase, '  false  ')).toEqual(sent(fieldCase, false));
				// a spreadsheet's TRUE / FALSE, a form's True: any case
				expect(await outcomeOf(fieldCase, 'TRUE')).toEqual(sent(fieldCase, true));
				expect(await outcomeOf(fieldCase, ' False ')).toEqual(sent(fieldCase, false));
				expect(await outcomeOf(fieldCase, '14')).toEqual(refused(fieldCase));
				break;
			case 'options':
				expect(await outcomeOf(fieldCase, `  ${String(given)}  `)).toEqual(sent(fieldCase, given));
				for (const text of ['14', 'true', 'false'])
					oneOf(await outcomeOf(fieldCase, text), [refused(fieldCase), sent(fieldCase, text)]);
				break;
			default: {
				const spaced = await outcomeOf(fieldCase, `  ${String(given)}  `);
				// a checked field (its sample is named) sends the text its check read: without the spaces
				if (fieldCase.field.name in SAMPLE_BY_NAME) expect(spaced).toEqual(sent(fieldCase, given));
				else
					oneOf(spaced, [
						sent(fieldCase, `  ${String(given)}  `),
						sent(fieldCase, given),
						sent(fieldCase, String(given).toUpperCase()),
					]);
				for (const text of ['14', 'true', 'false']) {
					oneOf(await outcomeOf(fieldCase, text), [
						refused(fieldCase),
						sent(fieldCase, text),
						sent(fieldCase, text.toUpperCase()),
					]);
				}
			}
		}
	});
});

test('the boolean rule reads true and false in any case, spaces around ignored, and nothing else', () => {
	const read = (values: unknown[]) => values.map((value) => asBoolean(value));
	expect(read([true, false, 'TRUE', 'True', ' tRuE ', 'FALSE', ' False ', 'false'])).toEqual(
		[true, false, true, true, true, false, false, false].map((value) => ({ value })),
	);
	expect(read(['yes', '1', 0, 'truee', 'T', ''])).toEqual([
		{ problem: 'must be true or false; the expression gave "yes"' },
		{ problem: 'must be true or false; the expression gave "1"' },
		{ problem: 'must be true or false; the expression gave the number 0' },
		{ problem: 'must be true or false; the expression gave "truee"' },
		{ problem: 'must be true or false; the expression gave "T"' },
		{ problem: 'must be true or false; the expression gave ""' },
	]);
});

/**
 * Fields without `routing.send.property` are read by an operation step, not sent by RoutingNode, so
 * the walk above cannot give them a value and look at the body. Each is listed here with the step
 * that reads it through the typing rule and the test that pins it; a new field read that way fails
 * the completeness check until it is listed (and tested).
 */
const READ_BY_OPERATION: Record<string, string> = {
	'Return All': 'getManyFields preSend + Limit maxResults (test/node/typedInput.test.ts)',
	Simplify: 'simplifyField checkSimplify/simplify (test/node/emptyValues.test.ts)',
	'Default Mode': 'buildAutonomyBody (test/node/typedInput.test.ts)',
	'Approvals Count': 'buildAutonomyBody (test/node/agent.test.ts)',
	'Clear Action Overrides': 'buildAutonomyBody (test/node/typedInput.test.ts)',
	'Action Overrides > Action Name': 'actionOverridesOf (test/node/typedInput.test.ts)',
	'Action Overrides > Mode': 'actionOverridesOf (test/node/agent.test.ts)',
	'Items > Name': 'checkLineItems (test/node/lineItems.test.ts)',
	'Items > Quantity': 'checkLineItems (test/node/lineItems.test.ts)',
	'Items > Unit Price': 'checkLineItems (test/node/lineItems.test.ts)',
	'Items > VAT %': 'checkLineItems (test/node/lineItems.test.ts)',
	'Items (JSON)': 'itemsFrom (test/node/lineItems.test.ts, test/node/typedInput.test.ts)',
};

test('every typed field read by an operation step is listed with the step that types it', () => {
	const readByStep = operations()
		.flatMap((op) => casesOf(op))
		.filter((fieldCase) => !fieldCase.sends && TYPED.includes(fieldCase.fieldType))
		.map((fieldCase) => fieldCase.title.replace(/^[^:]+: (Update Fields > )?/, ''));
	expect([...new Set(readByStep)].sort()).toEqual(Object.keys(READ_BY_OPERATION).sort());
});
