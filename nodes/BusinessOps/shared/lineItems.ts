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

import { toStrictNumber } from '../../shared/typing';
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

/** How a refused value is quoted in a message. */
function shown(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (typeof value === 'string') return JSON.stringify(value);
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	return String(value);
}

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
		return `${where} must be a number; got ${shown(value)}${hint}`;
	}
	if (key === 'vatPercentage' && (n < 0 || n > 100)) return `${where} must be from 0 to 100; got ${n}`;
	return n;
}

function readName(line: number, value: unknown): string | { problem: string } {
	const where = `line ${line} "name"`;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') {
		return { problem: value === undefined ? `${where} is missing` : `${where} must be text; got ${shown(value)}` };
	}
	const name = value.trim();
	return name === '' ? { problem: `${where} is empty; give the name of the product or service` } : name;
}

function checkLineItem(line: number, raw: unknown): LineItem | { problem: string } {
	if (!isPlainObject(raw)) {
		return { problem: `line ${line} must be an object with ${LINE_ITEM_KEYS.join(', ')}; got ${shown(raw)}` };
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
		return { problem: `must be a list (JSON array) of items such as ${JSON_EXAMPLE}; got ${shown(value)}` };
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

type ItemsSource = { mode: 'form' | 'json'; value: unknown };

/** The parameter each source is read from (under Update Fields too). */
const PARAMETER = { form: 'items', json: 'itemsJson' } as const;

/** Reads the items from their source, or throws the problem naming the field and the line. */
function itemsFrom(ctx: IExecuteSingleFunctions, source: ItemsSource, hint = ''): LineItem[] {
	const label = source.mode === 'form' ? ITEMS_LABEL : ITEMS_JSON_LABEL;
	const parameter = PARAMETER[source.mode];
	let value: unknown;
	if (source.mode === 'form') {
		value = formRows(source.value);
	} else if (isEmptyValue(source.value)) {
		throw invalidInput(ctx, label, `no items were given; add at least one item, e.g. ${JSON_EXAMPLE}`, hint, parameter);
	} else {
		value = parseJsonParameter(ctx, source.value, label, parameter);
	}
	const result = checkLineItems(value);
	if ('problem' in result) throw invalidInput(ctx, label, result.problem, hint, parameter);
	return result.items;
}

function withItems(requestOptions: IHttpRequestOptions, items: LineItem[]): IHttpRequestOptions {
	const body = isPlainObject(requestOptions.body) ? requestOptions.body : {};
	return { ...requestOptions, body: { ...body, items } };
}

/** preSend of Create: builds `body.items` from the form or the JSON, whichever Items Input names. */
export async function sendItemsOnCreate(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const mode = this.getNodeParameter('itemsInput', 'form') as 'form' | 'json';
	const value = this.getNodeParameter(mode === 'form' ? 'items' : 'itemsJson', mode === 'form' ? {} : '');
	return withItems(requestOptions, itemsFrom(this, { mode, value }));
}

/**
 * preSend of Update: sends `body.items` only when Items or Items (JSON) was added to Update
 * Fields and resolves to something (the empty-value rule of fields.ts).
 */
export async function sendItemsOnUpdate(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const fields = this.getNodeParameter('updateFields', {}) as IDataObject;
	// The Items form added with no rows is empty too: the current lines stay (CHANGELOG, issue 18).
	const inForm = formRows(fields.items).length > 0;
	const inJson = !isEmptyValue(fields.itemsJson);
	if (inForm && inJson) {
		throw invalidInput(this, ITEMS_LABEL, `use either "${ITEMS_LABEL}" or "${ITEMS_JSON_LABEL}", not both`, '', [PARAMETER.form, PARAMETER.json]);
	}
	if (!inForm && !inJson) return requestOptions;
	const source: ItemsSource = inForm ? { mode: 'form', value: fields.items } : { mode: 'json', value: fields.itemsJson };
	return withItems(requestOptions, itemsFrom(this, source, 'To keep the current items, remove the field from Update Fields. '));
}

/** The Items form: one row per line. */
export function itemsFormField(description: string): INodeProperties {
	return {
		displayName: ITEMS_LABEL,
		name: 'items',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Item',
		default: {},
		description,
		options: [
			{
				displayName: 'Item',
				name: 'item',
				values: ITEM_FORM_FIELDS,
			},
		],
	};
}

/**
 * Items (JSON): an array of items as JSON text or, from an expression, as a value. A text field,
 * not `json`: the editor's "let the model define this parameter" gives a `json` field an argument
 * without a JSON Schema type, which strict model APIs (OpenAI strict, Gemini) refuse.
 */
export function itemsJsonField(prefix = ''): INodeProperties {
	return {
		displayName: ITEMS_JSON_LABEL,
		name: 'itemsJson',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description: `${prefix}A JSON array of items, each with name, quantity, unitPrice and optionally vatPercentage (left out: the organization's default VAT), e.g. ${JSON_EXAMPLE}`,
		hint: 'To take the items from the input, use an expression such as {{ $json.items }}',
	};
}

