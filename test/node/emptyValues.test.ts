/**
 * Empty values over the node's whole description: for every resource and operation, every
 * optional field (collection and fixedCollection leaves included) is given a value that resolves
 * to nothing, and the request that goes out must carry nothing for it. Required fields that
 * resolve to nothing must fail naming the field. Nothing here lists the fields: they come from
 * the description, so a new field is covered as soon as it exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import nock from 'nock';
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	NodeParameterValueType,
} from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { loadNodeType, runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

const nodeType = loadNodeType(new BusinessOps());
const properties = nodeType.description.properties;
const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };

/** Expressions and values that resolve to nothing, one per input item. */
const EMPTY_VALUES = ['={{ $json.missing }}', '={{ null }}', '', '={{ "" }}', '  '];
const SENT_AS_NOTHING = new Set<unknown>([undefined, null, '', 'undefined', 'UNDEFINED', 'null', 'NULL']);

/** A valid value for a field, by what its checks accept (shared with the e2e area engine). */
const SAMPLE_BY_NAME = JSON.parse(
	readFileSync(join(__dirname, '..', 'fixtures', 'field-samples.json'), 'utf8'),
) as INodeParameters;

function sample(field: INodeProperties): NodeParameterValueType {
	if (field.name in SAMPLE_BY_NAME) return SAMPLE_BY_NAME[field.name];
	switch (field.type) {
		case 'resourceLocator':
			return { __rl: true, mode: 'id', value: 'x_1' };
		case 'number':
			return 5;
		case 'boolean':
			return true;
		case 'options':
			return (field.options as INodePropertyOptions[])[0].value as NodeParameterValueType;
		case 'multiOptions':
			return ['invoice.paid'];
		case 'fixedCollection': {
			const group = (field.options as Array<{ name: string; values: INodeProperties[] }>)[0];
			const row: INodeParameters = Object.fromEntries(group.values.filter((leaf) => leaf.required).map((leaf) => [leaf.name, sample(leaf)]));
			return { [group.name]: [row] } as INodeParameters;
		}
		default:
			return 'Sample';
	}
}

interface Operation {
	resource: string;
	operation: string;
	/** Top-level fields shown for this operation, besides Resource and Operation. */
	fields: INodeProperties[];
}

function shownFor(field: INodeProperties, resource: string, operation: string): boolean {
	const show = field.displayOptions?.show ?? {};
	return (
		(show.resource ?? [resource]).includes(resource) &&
		(show.operation ?? [operation]).includes(operation) &&
		field.name !== 'resource' &&
		field.name !== 'operation' &&
		field.name !== 'requestOptions'
	);
}

function operations(): Operation[] {
	const resources = (properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]).map((o) => String(o.value));
	return resources.flatMap((resource) => {
		const selector = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))!;
		return (selector.options as INodePropertyOptions[]).map((option) => {
			const operation = String(option.value);
			return { resource, operation, fields: properties.filter((field) => shownFor(field, resource, operation)) };
		});
	});
}

/** The parameters of an operation with every required field (and its own show conditions) given. */
function baseParameters({ resource, operation, fields }: Operation): INodeParameters {
	const parameters: INodeParameters = { resource, operation };
	for (const field of fields) {
		if (field.required && field.displayOptions?.show?.itemsInput?.[0] !== 'json') parameters[field.name] = sample(field);
	}
	return parameters;
}

/** One case: parameters in which `path` resolves to nothing, with the property the field would send. */
interface EmptyCase {
	title: string;
	parameters: (empty: string) => INodeParameters;
	sends?: { type: 'body' | 'query'; property: string };
	required: boolean;
	displayName: string;
	fieldType: string;
}

function sendsOf(field: INodeProperties): EmptyCase['sends'] {
	const send = field.routing?.send;
	if (send?.property === undefined) return undefined;
	return { type: send.type === 'query' ? 'query' : 'body', property: String(send.property) };
}

/** The values a field's own show conditions ask for (Items (JSON) shows for Items Input "JSON"). */
function showValues(field: INodeProperties): INodeParameters {
	const shown = Object.entries(field.displayOptions?.show ?? {}).filter(([name]) => name !== 'resource' && name !== 'operation');
	return Object.fromEntries(shown.map(([name, values]) => [name, (values as NodeParameterValueType[])[0]]));
}

/**
 * Other optional top-level fields given a value, so that an operation that refuses to change
 * nothing (Update Autonomy) still has something to send; never one that decides whether `field` shows.
 */
function anchorsFor(op: Operation, field: INodeProperties): INodeParameters {
	const deciding = Object.keys(field.displayOptions?.show ?? {});
	const others = op.fields.filter(
		(other) =>
			other !== field &&
			!other.required &&
			!other.noDataExpression &&
			other.type !== 'collection' &&
			other.type !== 'fixedCollection' &&
			!deciding.includes(other.name),
	);
	return Object.fromEntries(others.map((other) => [other.name, sample(other)]));
}

/** A case per leaf of a fixedCollection row; `place` puts the collection's value into the parameters. */
function rowCases(field: INodeProperties, name: (leaf: string) => string, place: (value: INodeParameters) => INodeParameters): EmptyCase[] {
	const group = (field.options as Array<{ name: string; values: INodeProperties[] }>)[0];
	const row = (sample(field) as Record<string, INodeParameters[]>)[group.name][0];
	return group.values.map((leaf) => ({
		title: name(leaf.displayName),
		parameters: (empty: string) => place({ [group.name]: [{ ...row, [leaf.name]: empty }] }),
		required: Boolean(leaf.required),
		displayName: field.displayName,
		fieldType: leaf.type,
	}));
}

function casesOf(op: Operation): EmptyCase[] {
	const base = baseParameters(op);
	const title = (name: string) => `${op.resource} ${op.operation}: ${name}`;
	const cases: EmptyCase[] = [];
	for (const field of op.fields) {
		if (field.noDataExpression) continue;
		const around = () => ({ ...base, ...anchorsFor(op, field), ...showValues(field) });
		if (field.type === 'collection') {
			const options = field.options as INodeProperties[];
			for (const child of options) {
				// an Update with only an empty field changes nothing: another field keeps it a real update
				const other = options.find((o) => o.name !== child.name && o.type !== 'fixedCollection' && o.type !== 'json');
				const place = (value: NodeParameterValueType): INodeParameters => ({
					...around(),
					[field.name]: { ...(other ? { [other.name]: sample(other) } : {}), [child.name]: value },
				});
				const name = (leaf: string) => title(`${field.displayName} > ${leaf}`);
				if (child.type === 'fixedCollection') {
					cases.push(...rowCases(child, (leaf) => name(`${child.displayName} > ${leaf}`), place));
					continue;
				}
				cases.push({
					title: name(child.displayName),
					parameters: place,
					sends: sendsOf(child),
					required: false,
					displayName: child.displayName,
					fieldType: child.type,
				});
			}
		} else if (field.type === 'fixedCollection') {
			cases.push(...rowCases(field, (leaf) => title(`${field.displayName} > ${leaf}`), (value) => ({ ...around(), [field.name]: value })));
		} else {
			cases.push({
				title: title(field.displayName),
				parameters: (empty) => ({
					...around(),
					[field.name]: field.type === 'resourceLocator' ? { __rl: true, mode: 'id', value: empty } : empty,
				}),
				sends: sendsOf(field),
				required: Boolean(field.required),
				displayName: field.displayName,
				fieldType: field.type,
			});
		}
	}
	return cases;
}

interface Sent {
	method: string;
	path: string;
	query: IDataObject;
	body: IDataObject;
}

/** Answers every request like the API would for one record or one page, and records it. */
function recordRequests(): Sent[] {
	const sent: Sent[] = [];
	const reply = (method: string) =>
		function (this: nock.ReplyFnContext, uri: string, body: nock.Body): nock.ReplyFnResult {
			const url = new URL(uri, TEST_BASE_URL);
			sent.push({
				method,
				path: url.pathname,
				query: Object.fromEntries(url.searchParams.entries()),
				body: (typeof body === 'object' && body !== null ? body : {}) as IDataObject,
			});
			if (method === 'GET') return [200, { data: [{ id: 'x_1' }], meta: { page: 1, pageSize: 100, total: 1, hasMore: false } }];
			return [method === 'POST' ? 201 : 200, { data: { id: 'x_1' } }];
		};
	const scope = nock('https://api.business-ops.test').persist();
	for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) scope.intercept(/.*/, method).reply(reply(method));
	return sent;
}

function emptyValuesIn(request: Sent): string[] {
	const found: string[] = [];
	const visit = (value: unknown, where: string) => {
		if (SENT_AS_NOTHING.has(value)) found.push(`${where} = ${JSON.stringify(value)}`);
		else if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) visit(child, `${where}.${key}`);
	};
	visit(request.body, 'body');
	visit(request.query, 'query');
	return found;
}

const items: INodeExecutionData[] = EMPTY_VALUES.map((_, index) => ({ json: { index } }));
/** Each input item gives the field a different empty value. */
const perItem = `={{ [undefined, null, "", "", "  "][$json.index] }}`;

/** Runs a case over one input item per empty value, answering and recording every request. */
async function runWithEmptyValues(emptyCase: EmptyCase) {
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
		expect(titles).toEqual(expect.arrayContaining([
			'contact create: Additional Fields > Billing Country',
			'contact update: Update Fields > Email',
			'quote create: Additional Fields > Valid Until',
			'invoice update: Update Fields > Due Date',
			'webhook update: Update Fields > URL',
			'organization update: Update Fields > Default VAT Percentage',
			'quote create: Items > VAT %',
			'invoice update: Update Fields > Items > VAT %',
		]));
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

	const updates = operations().filter((op) => op.fields.some((field) => field.name === 'updateFields'));
	test.each(updates.map((op) => [`${op.resource} ${op.operation}`, op] as const))(
		'%s: Update Fields left empty, or holding only empty values, is refused before sending',
		async (_title, op) => {
			const sent = recordRequests();
			const options = op.fields.find((field) => field.name === 'updateFields')!.options as INodeProperties[];
			const emptyField = options.find((field) => field.routing?.send?.property !== undefined)!;
			const { items: output } = await runDeclarativeNode(
				nodeType,
				{ ...baseParameters(op), updateFields: `={{ $json.index === 0 ? {} : { ${emptyField.name}: "" } }}` },
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
			expect(fromList.error?.message).toBe(`${textCase.displayName}: must be text, not a list [item 1]`);
			expect(fromNaN.error?.message).toBe(`${textCase.displayName}: must be text, not the number NaN [item 2]`);
			expect(fromInfinity.error?.message).toBe(
				`${textCase.displayName}: must be text, not the number -Infinity [item 3]`,
			);
			const target = (request: Sent) => (textCase.sends!.type === 'query' ? request.query : request.body);
			if (fromNumber.error) {
				expect(fromNumber.error.message).toContain(textCase.displayName);
				expect(sent).toEqual([]);
			} else {
				expect(sent.map((request) => target(request)[textCase.sends!.property])).toEqual(['12345678']);
			}
		},
	);

	test('the text "undefined" typed on purpose is sent as given (only what resolves to nothing is dropped)', async () => {
		const sent = recordRequests();
		await runDeclarativeNode(
			nodeType,
			{ resource: 'contact', operation: 'create', name: 'Jan', additionalFields: { phone: 'undefined' } },
			{ credentials },
		);
		expect(sent.map((request) => request.body)).toEqual([{ name: 'Jan', phone: 'undefined' }]);
	});
});
