/** The line items of quotes and invoices: the Items form and Items (JSON) fields, and their one check. */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { givenAs, isEmptyValue, isRecord, numberHint, toStrictNumber } from '../../shared/typing';
import { sendStep } from './fields';
import { invalidInput } from './validation';

/**
 * Keys a line of a fetched quote or invoice carries that the API computes or assigns itself: a
 * line copied from a record ("Get quote, then Create invoice with {{ $json.items }}") keeps them,
 * and they are dropped rather than refused. Any other unknown key is refused (a typo such as
 * "vat" would otherwise silently fall back to the default VAT).
 */
const READ_ONLY_LINE_KEYS = [
	'id',
	'total',
	'subtotal',
	'vatTotal',
	'vatAmount',
	'lineTotal',
	'createdAt',
	'updatedAt',
] as const;

/** The fields of one row of the Items form; their names are the API's keys. */
const ITEM_FORM_FIELDS: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Website design',
		description: 'Name of the product or service',
	},
	{
		displayName: 'Quantity',
		name: 'quantity',
		type: 'number',
		required: true,
		default: 1,
		description:
			'Number of units; decimals allowed. A negative quantity (a credit line) is sent as given; the API decides whether it accepts it.',
	},
	{
		displayName: 'Unit Price',
		name: 'unitPrice',
		type: 'number',
		required: true,
		default: 0,
		description:
			'Price of one unit, excluding VAT. A negative price (a discount line) is sent as given; the API decides whether it accepts it.',
	},
	{
		displayName: 'VAT %',
		name: 'vatPercentage',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 21,
		description:
			"VAT percentage of the line, from 0 to 100. Leave it empty to use the organization's default VAT percentage.",
	},
];

const LINE_ITEM_KEYS = ITEM_FORM_FIELDS.map((field) => field.name);

const FORM_DEFAULTS: IDataObject = Object.fromEntries(
	ITEM_FORM_FIELDS.map((field) => [field.name, field.default]),
);

const JSON_EXAMPLE =
	'[{"name": "Website design", "quantity": 2, "unitPrice": 95, "vatPercentage": 21}]';
const NO_ITEMS = 'no items were given; add at least one item';

/** The items as the API takes them, or the first problem's text; numbers given as text ("2.5") become numbers, "2,5" is refused. */
export function checkLineItems(value: unknown): IDataObject[] | string {
	if (!Array.isArray(value)) {
		return `must be a list (JSON array) of items such as ${JSON_EXAMPLE}; got ${givenAs(value)}`;
	}
	if (value.length === 0) return NO_ITEMS;
	const known = [...LINE_ITEM_KEYS, ...READ_ONLY_LINE_KEYS];
	const items: IDataObject[] = [];
	for (const [index, raw] of value.entries()) {
		const line = index + 1;
		const where = (key: string) => `line ${line} "${key}"`;
		if (!isRecord(raw)) {
			return `line ${line} must be an object with ${LINE_ITEM_KEYS.join(', ')}; got ${givenAs(raw)}`;
		}
		const unknownKeys = Object.keys(raw).filter((key) => !known.includes(key));
		if (unknownKeys.length > 0) {
			const names = unknownKeys.map((key) => `"${key}"`).join(', ');
			return `line ${line} has unknown ${unknownKeys.length === 1 ? 'key' : 'keys'} ${names}; allowed keys: ${LINE_ITEM_KEYS.join(', ')} (${READ_ONLY_LINE_KEYS.join(', ')} of a fetched line are dropped)`;
		}
		const name =
			typeof raw.name === 'number' && Number.isFinite(raw.name) ? String(raw.name) : raw.name;
		if (typeof name !== 'string') {
			return name === undefined
				? `${where('name')} is missing`
				: `${where('name')} must be text; got ${givenAs(name)}`;
		}
		if (name.trim() === '')
			return `${where('name')} is empty; give the name of the product or service`;
		const item: IDataObject = { name: name.trim() };
		for (const key of LINE_ITEM_KEYS.slice(1)) {
			const given = raw[key];
			// vatPercentage may be left out or empty: the API then applies the organization's default.
			if (key === 'vatPercentage' && isEmptyValue(given)) continue;
			if (given === undefined) return `${where(key)} is missing`;
			const n = toStrictNumber(given);
			if (n === undefined)
				return `${where(key)} must be a number; got ${givenAs(given)}${numberHint(given)}`;
			// Only the VAT percentage has a range: the spec says just "number" for quantity and unit price
			// (discount and credit lines go too) and the API refuses what it does not take.
			if (key === 'vatPercentage' && (n < 0 || n > 100))
				return `${where(key)} must be from 0 to 100; got ${n}`;
			item[key] = n;
		}
		items.push(item);
	}
	return items;
}

export function formRows(value: unknown): IDataObject[] {
	const rows = isRecord(value) ? value.item : undefined;
	if (!Array.isArray(rows)) return [];
	return rows.map((row) => ({ ...FORM_DEFAULTS, ...(row as IDataObject) }));
}

const SOURCES = {
	form: { label: 'Items', parameter: 'items' },
	json: { label: 'Items (JSON)', parameter: 'itemsJson' },
};
type ItemsSource = keyof typeof SOURCES;

/** Under Update Fields (`update`), a source given as nothing changes nothing (the current lines stay), and the two sources together are refused. */
function sendItems(source: ItemsSource, update: boolean) {
	return sendStep(async function (
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	) {
		const read = (from: ItemsSource) =>
			this.getNodeParameter(
				`${update ? 'updateFields.' : ''}${SOURCES[from].parameter}`,
				from === 'form' ? {} : '',
			);
		const isGiven = (from: ItemsSource) =>
			from === 'form' ? formRows(read(from)).length > 0 : !isEmptyValue(read(from));
		const { label, parameter } = SOURCES[source];
		const hint = update ? 'To keep the current items, remove the field from Update Fields. ' : '';
		if (update && !isGiven(source)) return requestOptions;
		if (update && isGiven(source === 'form' ? 'json' : 'form')) {
			const { form, json } = SOURCES;
			throw invalidInput(
				this,
				form.label,
				`use either "${form.label}" or "${json.label}", not both`,
				'',
				[form.parameter, json.parameter],
			);
		}
		const refusal = (problem: string, fix = hint) =>
			invalidInput(this, label, problem, fix, parameter);
		const given = read(source);
		if (source === 'json' && isEmptyValue(given))
			throw refusal(`${NO_ITEMS}, e.g. ${JSON_EXAMPLE}`);
		let lines: unknown = source === 'form' ? formRows(given) : given;
		// Items (JSON) is text, or from an expression a list already
		try {
			if (typeof lines === 'string') lines = JSON.parse(lines);
		} catch (error) {
			throw refusal(`the text is not valid JSON (${(error as Error).message})`, '');
		}
		const result = checkLineItems(lines);
		if (typeof result === 'string') throw refusal(result);
		const body = isRecord(requestOptions.body) ? requestOptions.body : {};
		return { ...requestOptions, body: { ...body, items: result } };
	});
}

function itemsFields(
	update: boolean,
	formDescription: string,
	jsonPrefix: string,
): INodeProperties[] {
	return [
		{
			displayName: SOURCES.form.label,
			name: 'items',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Item',
			default: {},
			description: formDescription,
			options: [{ displayName: 'Item', name: 'item', values: ITEM_FORM_FIELDS }],
			routing: { send: { preSend: [sendItems('form', update)] } },
		},
		// A text field, not `json`: the editor's "let the model define this parameter" gives a `json`
		// field an argument without a JSON Schema type, which strict model APIs (OpenAI strict, Gemini) refuse.
		{
			displayName: SOURCES.json.label,
			name: 'itemsJson',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: `${jsonPrefix}A JSON array of items, each with name, quantity, unitPrice and optionally vatPercentage (left out: the organization's default VAT), e.g. ${JSON_EXAMPLE}`,
			hint: 'To take the items from the input, use an expression such as {{ $json.items }}',
			routing: { send: { preSend: [sendItems('json', update)] } },
		},
	];
}

export function lineItemsFields(): INodeProperties[] {
	const [form, json] = itemsFields(false, 'The lines, in the order they appear', '');
	return [
		{
			displayName: 'Items Input',
			name: 'itemsInput',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Form', value: 'form', description: 'Enter the items one by one' },
				{
					name: 'JSON',
					value: 'json',
					description: 'Give a JSON array of items, e.g. from an expression',
				},
			],
			default: 'form',
			description: 'How to give the line items',
		},
		{ ...form, required: true, displayOptions: { show: { itemsInput: ['form'] } } },
		{ ...json, required: true, displayOptions: { show: { itemsInput: ['json'] } } },
	];
}

export function lineItemsUpdateFields(resource: string): INodeProperties[] {
	return itemsFields(
		true,
		`Replaces all lines of the ${resource}, in the order given`,
		`Replaces all lines of the ${resource}. `,
	);
}
