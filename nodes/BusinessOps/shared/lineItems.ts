/**
 * The line items of quotes and invoices: the Items form and Items (JSON) fields, `checkLineItems`
 * (the pure rule set) and the preSend steps that apply it to whichever input the user chose
 * before anything is sent.
 */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { givenAs, toStrictNumber } from '../../shared/typing';
import { sendStep } from './fields';
import { invalidInput, isEmptyValue, parseJsonParameter } from './validation';

/** One line of a quote or an invoice, as the API takes it. */
export interface LineItem {
	name: string;
	quantity: number;
	unitPrice: number;
	vatPercentage?: number;
}

export const LINE_ITEM_KEYS = ['name', 'quantity', 'unitPrice', 'vatPercentage'] as const;

/**
 * Keys a line of a fetched quote or invoice carries that the API computes or assigns itself: a
 * line copied from a record ("Get quote, then Create invoice with {{ $json.items }}") keeps them,
 * and they are dropped rather than refused. Any other unknown key is refused (a typo such as
 * "vat" would otherwise silently fall back to the default VAT).
 */
export const READ_ONLY_LINE_KEYS = ['id', 'total', 'subtotal', 'vatTotal', 'vatAmount', 'lineTotal', 'createdAt', 'updatedAt'] as const;

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
		description: 'Number of units; decimals allowed. A negative quantity (a credit line) is sent as given; the API decides whether it accepts it.',
	},
	{
		displayName: 'Unit Price',
		name: 'unitPrice',
		type: 'number',
		required: true,
		default: 0,
		description: 'Price of one unit, excluding VAT. A negative price (a discount line) is sent as given; the API decides whether it accepts it.',
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

/** The defaults of the form's fields, applied when a stored form row leaves a field out. */
const FORM_DEFAULTS: IDataObject = Object.fromEntries(ITEM_FORM_FIELDS.map((field) => [field.name, field.default]));

const ITEMS_LABEL = 'Items';
const ITEMS_JSON_LABEL = 'Items (JSON)';
const JSON_EXAMPLE = '[{"name": "Website design", "quantity": 2, "unitPrice": 95, "vatPercentage": 21}]';

export type LineItemsResult = { items: LineItem[] } | { problem: string };

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type NumberKey = 'quantity' | 'unitPrice' | 'vatPercentage';

/**
 * The number in `value`, or the problem with it, for the key `key` of line `line`. Only the VAT
 * percentage has a range: the spec says just "number" for quantity and unit price, so any number
 * goes there (discount and credit lines) and the API refuses what it does not take.
 */
function readNumber(line: number, key: NumberKey, value: unknown): number | string {
	const where = `line ${line} "${key}"`;
	if (value === undefined) return `${where} is missing`;
	const n = toStrictNumber(value);
	if (n === undefined) {
		const hint = typeof value === 'string' && /\d,\d/.test(value) ? ' (use a dot for decimals)' : '';
		return `${where} must be a number; got ${givenAs(value)}${hint}`;
	}
	if (key === 'vatPercentage' && (n < 0 || n > 100)) return `${where} must be from 0 to 100; got ${n}`;
	return n;
}

function readName(line: number, value: unknown): string | { problem: string } {
	const where = `line ${line} "name"`;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') {
		return { problem: value === undefined ? `${where} is missing` : `${where} must be text; got ${givenAs(value)}` };
	}
	const name = value.trim();
	return name === '' ? { problem: `${where} is empty; give the name of the product or service` } : name;
}

function checkLineItem(line: number, raw: unknown): LineItem | { problem: string } {
	if (!isPlainObject(raw)) {
		return { problem: `line ${line} must be an object with ${LINE_ITEM_KEYS.join(', ')}; got ${givenAs(raw)}` };
	}
	const known: readonly string[] = [...LINE_ITEM_KEYS, ...READ_ONLY_LINE_KEYS];
	const unknownKeys = Object.keys(raw).filter((key) => !known.includes(key));
	if (unknownKeys.length > 0) {
		const names = unknownKeys.map((key) => `"${key}"`).join(', ');
		return {
			problem: `line ${line} has unknown ${unknownKeys.length === 1 ? 'key' : 'keys'} ${names}; allowed keys: ${LINE_ITEM_KEYS.join(', ')} (${READ_ONLY_LINE_KEYS.join(', ')} of a fetched line are dropped)`,
		};
	}
	const name = readName(line, raw.name);
	if (typeof name !== 'string') return name;
	const item: LineItem = { name, quantity: 0, unitPrice: 0 };
	for (const key of ['quantity', 'unitPrice', 'vatPercentage'] as const) {
		// vatPercentage may be left out or empty: the API then applies the organization's default.
		if (key === 'vatPercentage' && isEmptyValue(raw[key])) continue;
		const n = readNumber(line, key, raw[key]);
		if (typeof n === 'string') return { problem: n };
		item[key] = n;
	}
	return item;
}

/**
 * Checks a list of line items and returns them as the API takes them, or the first problem:
 * numbers given as text ("2.5") become numbers; "2,5", "", "abc" and null are refused, as are an
 * empty list, an empty name, a VAT percentage outside 0 to 100 and keys the API does not know.
 * Any quantity and unit price is sent (0 and negative ones too). Lines are counted from 1, as in the form.
 */
export function checkLineItems(value: unknown): LineItemsResult {
	if (!Array.isArray(value)) {
		return { problem: `must be a list (JSON array) of items such as ${JSON_EXAMPLE}; got ${givenAs(value)}` };
	}
	if (value.length === 0) return { problem: 'no items were given; add at least one item' };
	const items: LineItem[] = [];
	for (const [index, raw] of value.entries()) {
		const item = checkLineItem(index + 1, raw);
		if ('problem' in item) return item;
		items.push(item);
	}
	return { items };
}

/** Rows of the Items form, with the form's defaults for fields a stored row leaves out. */
export function formRows(value: unknown): IDataObject[] {
	const rows = isPlainObject(value) ? value.item : undefined;
	if (!Array.isArray(rows)) return [];
	return rows.map((row) => ({ ...FORM_DEFAULTS, ...(row as IDataObject) }));
}

type ItemsSource = 'form' | 'json';

/** Each source's field, by its parameter name (a path under Update Fields). */
const LABEL: Record<ItemsSource, string> = { form: ITEMS_LABEL, json: ITEMS_JSON_LABEL };
const PARAMETER: Record<ItemsSource, string> = { form: 'items', json: 'itemsJson' };

/** Reads the items from their source, or throws the problem naming the field and the line. */
function itemsFrom(ctx: IExecuteSingleFunctions, source: ItemsSource, given: unknown, hint: string): LineItem[] {
	const label = LABEL[source];
	let value: unknown;
	if (source === 'form') {
		value = formRows(given);
	} else if (isEmptyValue(given)) {
		throw invalidInput(ctx, label, `no items were given; add at least one item, e.g. ${JSON_EXAMPLE}`, hint, PARAMETER.json);
	} else {
		value = parseJsonParameter(ctx, given, label, PARAMETER.json);
	}
	const result = checkLineItems(value);
	if ('problem' in result) throw invalidInput(ctx, label, result.problem, hint, PARAMETER[source]);
	return result.items;
}

/**
 * The step of one source: sends `body.items` from it. Under Update Fields (`update`), the Items
 * form added with no rows and an Items (JSON) that resolves to nothing change nothing (the
 * current lines stay), and the two sources given together are refused.
 */
function sendItems(source: ItemsSource, update: boolean) {
	return sendStep(async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const at = (name: string) => (update ? `updateFields.${name}` : name);
		const read = (from: ItemsSource) => this.getNodeParameter(at(PARAMETER[from]), from === 'form' ? {} : '');
		const given = read(source);
		if (update) {
			const other: ItemsSource = source === 'form' ? 'json' : 'form';
			const isGiven = (from: ItemsSource, value: unknown) => (from === 'form' ? formRows(value).length > 0 : !isEmptyValue(value));
			if (!isGiven(source, given)) return requestOptions;
			if (isGiven(other, read(other))) {
				throw invalidInput(this, ITEMS_LABEL, `use either "${ITEMS_LABEL}" or "${ITEMS_JSON_LABEL}", not both`, '', [PARAMETER.form, PARAMETER.json]);
			}
		}
		const hint = update ? 'To keep the current items, remove the field from Update Fields. ' : '';
		const body = isPlainObject(requestOptions.body) ? requestOptions.body : {};
		return { ...requestOptions, body: { ...body, items: itemsFrom(this, source, given, hint) } };
	});
}

/** The Items form: one row per line. */
function itemsFormField(description: string, update: boolean): INodeProperties {
	return {
		displayName: ITEMS_LABEL,
		name: 'items',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Item',
		default: {},
		description,
		options: [{ displayName: 'Item', name: 'item', values: ITEM_FORM_FIELDS }],
		routing: { send: { preSend: [sendItems('form', update)] } },
	};
}

/**
 * Items (JSON): an array of items as JSON text or, from an expression, as a value. A text field,
 * not `json`: the editor's "let the model define this parameter" gives a `json` field an argument
 * without a JSON Schema type, which strict model APIs (OpenAI strict, Gemini) refuse.
 */
function itemsJsonField(prefix: string, update: boolean): INodeProperties {
	return {
		displayName: ITEMS_JSON_LABEL,
		name: 'itemsJson',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description: `${prefix}A JSON array of items, each with name, quantity, unitPrice and optionally vatPercentage (left out: the organization's default VAT), e.g. ${JSON_EXAMPLE}`,
		hint: 'To take the items from the input, use an expression such as {{ $json.items }}',
		routing: { send: { preSend: [sendItems('json', update)] } },
	};
}

/** The line items of a create, sent as `body.items`: Items Input chooses the form or the JSON field. */
export function lineItemsFields(): INodeProperties[] {
	return [
		{
			displayName: 'Items Input',
			name: 'itemsInput',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Form', value: 'form', description: 'Enter the items one by one' },
				{ name: 'JSON', value: 'json', description: 'Give a JSON array of items, e.g. from an expression' },
			],
			default: 'form',
			description: 'How to give the line items',
		},
		{ ...itemsFormField('The lines, in the order they appear', false), required: true, displayOptions: { show: { itemsInput: ['form'] } } },
		{ ...itemsJsonField('', false), required: true, displayOptions: { show: { itemsInput: ['json'] } } },
	];
}

/** The line items under Update Fields: either source replaces all lines of the `resource`. */
export function lineItemsUpdateFields(resource: string): INodeProperties[] {
	return [
		itemsFormField(`Replaces all lines of the ${resource}, in the order given`, true),
		itemsJsonField(`Replaces all lines of the ${resource}. `, true),
	];
}
