/**
 * Empty values, settled once for the whole node: for every field that sends a body or query
 * property, a value that resolves to nothing (`undefined`, `null`, or text that is empty or only
 * spaces) means "not given". An optional field then sends nothing at all; a required one fails
 * before anything is sent, naming the field. An expression on a missing input field, a cleared
 * input and an AI model's "" for what it does not know all resolve to nothing.
 *
 * A text field (type string) sends text: a number or true/false from an expression (a KvK or phone
 * number read from a spreadsheet column) is sent as its text; a list, an object, NaN or Infinity
 * fails, naming the field.
 *
 * `withEmptyValueRule` walks the node's properties once (collections included), so a new field is
 * covered without being listed: each sending field gets a first preSend step that reads the
 * field's own parameter (not the body, which a `value` expression may already have turned into
 * text such as "undefined").
 */
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { invalidInput, isEmptyValue, NO_ID, PICK_AN_ID } from './validation';

const RESOLVED_TO_NOTHING =
	'The field is empty or its expression resolved to nothing (for example a field the input item does not have). ';

type PreSend = (this: IExecuteSingleFunctions, options: IHttpRequestOptions) => Promise<IHttpRequestOptions>;

function emptyValueStep(field: INodeProperties, path: string): PreSend {
	const send = field.routing?.send ?? {};
	const property = String(send.property);
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const value = this.getNodeParameter(path, undefined, { extractValue: field.type === 'resourceLocator' });
		const target = (send.type === 'query' ? requestOptions.qs : requestOptions.body) as IDataObject | undefined;
		if (!isEmptyValue(value)) {
			if (field.type === 'string' && typeof value !== 'string') asText(this, field, path, value, target, property);
			return requestOptions;
		}
		if (field.required) {
			const picker = field.type === 'resourceLocator';
			throw invalidInput(this, field.displayName, picker ? NO_ID : 'a value is required', `${RESOLVED_TO_NOTHING}${picker ? PICK_AN_ID : ''}`, path);
		}
		if (target) delete target[property];
		return requestOptions;
	};
}

/**
 * A text field given another kind of value by an expression: numbers and booleans as text. NaN and
 * Infinity (a failed `Number()` of a cell) are refused: JSON would send them as null, which clears
 * the field.
 */
function asText(ctx: IExecuteSingleFunctions, field: INodeProperties, path: string, value: unknown, target: IDataObject | undefined, property: string) {
	if (typeof value === 'number' && !Number.isFinite(value)) {
		throw invalidInput(ctx, field.displayName, `must be text, not the number ${value}`, 'Check the expression: a conversion such as Number() of a text that is not a number gives NaN. ', path);
	}
	if (typeof value === 'number' || typeof value === 'boolean') {
		if (target && target[property] === value) target[property] = String(value);
		return;
	}
	const kind = Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
	throw invalidInput(ctx, field.displayName, `must be text, not ${kind}`, 'Give one text value, for example {{ $json.field }} or {{ $json.list[0] }}. ', path);
}

function withRule(field: INodeProperties, path: string): INodeProperties {
	const send = field.routing?.send;
	if (send?.property === undefined) return field;
	if (path.includes('[]')) {
		throw new Error(`Field "${field.displayName}" sends a property from inside a list; the empty-value rule does not cover it`);
	}
	return { ...field, routing: { ...field.routing, send: { ...send, preSend: [emptyValueStep(field, path), ...(send.preSend ?? [])] } } };
}

function walk(field: INodeProperties, parent: string): INodeProperties {
	const path = parent ? `${parent}.${field.name}` : field.name;
	const ruled = withRule(field, path);
	if (field.type === 'collection' && Array.isArray(field.options)) {
		return { ...ruled, options: (field.options as INodeProperties[]).map((child) => walk(child, path)) };
	}
	if (field.type === 'fixedCollection' && Array.isArray(field.options)) {
		const groups = field.options as Array<{ name: string; values: INodeProperties[] }>;
		return {
			...ruled,
			options: groups.map((group) => ({ ...group, values: group.values.map((leaf) => walk(leaf, `${path}.${group.name}[]`)) })),
		} as INodeProperties;
	}
	return ruled;
}

/** The node's properties with the empty-value rule on every field that sends a property. */
export function withEmptyValueRule(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((field) => walk(field, ''));
}
