/**
 * Empty values over the node's whole description: for every resource and operation, every
 * optional field (collection and fixedCollection leaves included) is given a value that resolves
 * to nothing, and the request that goes out must carry nothing for it. Required fields that
 * resolve to nothing must fail naming the field. Nothing here lists the fields: they come from
 * the description, so a new field is covered as soon as it exists.
 */
import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	baseParameters,
	casesOf,
	nodeType,
	operations,
	recordRequests,
	type FieldCase,
	type Sent,
} from '../harness/description';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };

/** Expressions and values that resolve to nothing, one per input item. */
const EMPTY_VALUES = ['={{ $json.missing }}', '={{ null }}', '', '={{ "" }}', '  '];
const SENT_AS_NOTHING = new Set<unknown>([
	undefined,
	null,
	'',
	'undefined',
	'UNDEFINED',
	'null',
	'NULL',
]);

function emptyValuesIn(request: Sent): string[] {
	const found: string[] = [];
	const visit = (value: unknown, where: string) => {
		if (SENT_AS_NOTHING.has(value)) found.push(`${where} = ${JSON.stringify(value)}`);
		else if (value && typeof value === 'object')
			for (const [key, child] of Object.entries(value)) visit(child, `${where}.${key}`);
	};
	visit(request.body, 'body');
	visit(request.query, 'query');
	return found;
}

const items: INodeExecutionData[] = EMPTY_VALUES.map((_, index) => ({ json: { index } }));
/** Each input item gives the field a different empty value. */
const perItem = `={{ [undefined, null, "", "", "  "][$json.index] }}`;

/** Runs a case over one input item per empty value, answering and recording every request. */
async function runWithEmptyValues(emptyCase: FieldCase) {
	const sent = recordRequests();
	const { items: output } = await runDeclarativeNode(nodeType, emptyCase.parameters(perItem), {
		items,
		credentials,
		continueOnFail: true,
	});
	return { sent, output };
}

const allCases = operations().flatMap((op) => casesOf(op).map((c) => ({ ...c, op })));

describe('Empty values over the whole description', () => {
	test('the walk finds the optional fields of every create and update', () => {
		const titles = allCases.filter((c) => !c.required).map((c) => c.title);
		expect(titles).toEqual(
			expect.arrayContaining([
				'contact create: Additional Fields > Billing Country',
				'contact update: Update Fields > Email',
				'quote create: Additional Fields > Valid Until',
				'invoice update: Update Fields > Due Date',
				'webhook update: Update Fields > URL',
				'organization update: Update Fields > Default VAT Percentage',
				'quote create: Items > VAT %',
				'invoice update: Update Fields > Items > VAT %',
			]),
		);
		expect(titles.length).toBeGreaterThan(60);
	});

	test.each(allCases.filter((c) => !c.required).map((c) => [c.title, c] as const))(
		'%s: undefined, null, "" and spaces send nothing for the field',
		async (_title, emptyCase) => {
			const { sent, output } = await runWithEmptyValues(emptyCase);
			const errors = output.filter((item) => item.error).map((item) => item.error?.message);
			expect(errors).toEqual([]);
			expect(sent).toHaveLength(EMPTY_VALUES.length);
			for (const request of sent) {
				expect(emptyValuesIn(request)).toEqual([]);
				if (emptyCase.sends) {
					const target = emptyCase.sends.type === 'query' ? request.query : request.body;
					expect(Object.keys(target)).not.toContain(emptyCase.sends.property);
				}
			}
		},
	);

	test.each(allCases.filter((c) => c.required).map((c) => [c.title, c] as const))(
		'%s: a required field that resolves to nothing fails naming the field, and nothing is sent',
		async (_title, emptyCase) => {
			const { sent, output } = await runWithEmptyValues(emptyCase);
			expect(sent).toEqual([]);
			expect(output).toHaveLength(EMPTY_VALUES.length);
			for (const item of output) expect(item.error?.message).toContain(emptyCase.displayName);
		},
	);

	const updates = operations().filter((op) =>
		op.fields.some((field) => field.name === 'updateFields'),
	);
	test.each(updates.map((op) => [`${op.resource} ${op.operation}`, op] as const))(
		'%s: Update Fields left empty, or holding only empty values, is refused before sending',
		async (_title, op) => {
			const sent = recordRequests();
			const options = op.fields.find((field) => field.name === 'updateFields')!
				.options as INodeProperties[];
			const emptyField = options.find((field) => field.routing?.send?.property !== undefined)!;
			const { items: output } = await runDeclarativeNode(
				nodeType,
				{
					...baseParameters(op),
					updateFields: `={{ $json.index === 0 ? {} : { ${emptyField.name}: "" } }}`,
				},
				{ items: items.slice(0, 2), credentials, continueOnFail: true },
			);
			expect(sent).toEqual([]);
			expect(output.map((item) => item.error?.message)).toEqual([
				'Update Fields: no field to change was added; add at least one [item 0]',
				'Update Fields: no field to change was added; add at least one [item 1]',
			]);
		},
	);

	const textCases = allCases.filter((c) => c.sends && c.fieldType === 'string');
	test.each(textCases.map((c) => [c.title, c] as const))(
		'%s: a number from an expression is sent as text (or refused naming the field); a list, NaN and Infinity are refused naming the field',
		async (_title, textCase) => {
			const sent = recordRequests();
			const { items: output } = await runDeclarativeNode(
				nodeType,
				textCase.parameters('={{ [12345678, ["a"], NaN, -Infinity][$json.index] }}'),
				{ items: items.slice(0, 4), credentials, continueOnFail: true },
			);
			const [fromNumber, fromList, fromNaN, fromInfinity] = output;
			expect(fromList.error?.message).toBe(
				`${textCase.displayName}: must be text; the expression gave a list [item 1]`,
			);
			expect(fromNaN.error?.message).toBe(
				`${textCase.displayName}: must be text; the expression gave the number NaN [item 2]`,
			);
			expect(fromInfinity.error?.message).toBe(
				`${textCase.displayName}: must be text; the expression gave the number -Infinity [item 3]`,
			);
			const target = (request: Sent) =>
				textCase.sends!.type === 'query' ? request.query : request.body;
			if (fromNumber.error) {
				expect(fromNumber.error.message).toContain(textCase.displayName);
				expect(sent).toEqual([]);
			} else {
				expect(sent.map((request) => target(request)[textCase.sends!.property])).toEqual([
					'12345678',
				]);
			}
		},
	);

	test('the text "undefined" typed on purpose is sent as given (only what resolves to nothing is dropped)', async () => {
		const sent = recordRequests();
		await runDeclarativeNode(
			nodeType,
			{
				resource: 'contact',
				operation: 'create',
				name: 'Jan',
				additionalFields: { phone: 'undefined' },
			},
			{ credentials },
		);
		expect(sent.map((request) => request.body)).toEqual([{ name: 'Jan', phone: 'undefined' }]);
	});
});
