/** Field builders: each field that sends something declares its send rule. See ARCHITECTURE.md, "What a field sends". */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import {
	asBoolean,
	asNumber,
	asOption,
	asText,
	givenAs,
	isEmptyValue,
	type Typed,
} from '../../shared/typing';
import {
	invalidInput,
	numberProblem,
	textProblem,
	type NumberCheck,
	type TextCheck,
} from './validation';
import { dateRule, type ApiDate } from './dates';

export type Declaration = Omit<INodeProperties, 'type' | 'routing'>;

/** Typing and check of one field's given (non-empty) value: the value to send, or the problem. */
export type Rule = (ctx: IExecuteSingleFunctions, value: unknown) => Typed;

interface SendTo {
	in?: 'body' | 'query';
	as?: string;
}

type PreSend = (
	this: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
) => Promise<IHttpRequestOptions>;

/**
 * The first refusal of an item's input travels with its request to the routing seam (refusalOf): thrown
 * inside RoutingNode, the item would be absent from the item order, and under "Stop Workflow" later
 * items would still be sent. Once an item's input was refused, its later steps do not run.
 */
const REFUSAL = Symbol('refusal');
type Refusable = IHttpRequestOptions & { [REFUSAL]?: Error };

export const refusalOf = (options: IHttpRequestOptions): Error | undefined =>
	(options as Refusable)[REFUSAL];

export function sendStep(step: PreSend): PreSend {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		if (refusalOf(options)) return options;
		return await step
			.call(this, options)
			.catch((error) => Object.assign(options, { [REFUSAL]: error as Error }));
	};
}

export function valueToSend(
	ctx: IExecuteSingleFunctions,
	field: Pick<INodeProperties, 'displayName' | 'name' | 'required' | 'type'>,
	rule: Rule,
	value: unknown,
): unknown {
	// field.name lets a tool-mode refusal name the model's argument that gives the field
	if (isEmptyValue(value)) {
		if (!field.required) return undefined;
		const picker = field.type === 'resourceLocator';
		const hint = `The field is empty or its expression resolved to nothing (for example a field the input item does not have). ${picker ? 'Pick one from the list or enter an ID. ' : ''}`;
		throw invalidInput(
			ctx,
			field.displayName,
			picker ? 'no ID was given' : 'a value is required',
			hint,
			field.name,
		);
	}
	const typed = rule(ctx, value);
	if ('problem' in typed)
		throw invalidInput(ctx, field.displayName, typed.problem, typed.hint, field.name);
	return typed.value;
}

/** The node's parameter of `field`, as valueToSend types it: for values the node reads itself. */
export const parameterToSend = (ctx: IExecuteSingleFunctions, field: INodeProperties, rule: Rule) =>
	valueToSend(ctx, field, rule, ctx.getNodeParameter(field.name, null));

/** The builder the others stand on: `field` sends its value through `rule` (a refusal travels with the request: sendStep). */
export function sendingField(field: INodeProperties, rule: Rule, to: SendTo = {}): INodeProperties {
	const type = to.in ?? 'body';
	const property = to.as ?? field.name;
	const send = sendStep(async function (
		this: IExecuteSingleFunctions,
		options: IHttpRequestOptions,
	) {
		const target = (type === 'query' ? options.qs : options.body) as IDataObject;
		const value = valueToSend(this, field, rule, target[property]);
		if (value === undefined) delete target[property];
		else target[property] = value;
		return options;
	});
	return { ...field, routing: { ...field.routing, send: { type, property, preSend: [send] } } };
}

export function numberRule(check?: NumberCheck): Rule {
	return (_ctx, value) => {
		const typed = asNumber(value);
		if ('problem' in typed) return typed;
		const problem = check && numberProblem(check, typed.value as number);
		return problem ? { problem } : typed;
	};
}

export const booleanRule: Rule = (_ctx, value) => asBoolean(value);

/** A record ID: one plain segment of the URL (a number from an expression is its text). */
export const idRule: Rule = (_ctx, value) => {
	const id = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
	if (typeof id !== 'string')
		return { problem: `must be an ID; the expression gave ${givenAs(value)}` };
	if (!/^[A-Za-z0-9_.:-]+$/.test(id))
		return { problem: `"${id}" is not an ID (letters, digits, "_", "-", "." and ":" only)` };
	// a URL normalises "/contacts/.." into "/", so the request would reach another address
	if (id === '.' || id === '..')
		return {
			problem: `"${id}" is not an ID: "." and ".." name a folder of the address, not a record`,
		};
	return { value: id };
};

interface TextOptions {
	/** Send the text without the spaces around it (the check then reads it so too). */
	trim?: boolean;
	upperCase?: boolean;
	check?: TextCheck;
}

export function textField(field: Declaration, options: TextOptions & SendTo = {}): INodeProperties {
	return sendingField(
		{ ...field, type: 'string' },
		(_ctx, value) => {
			const typed = asText(value);
			if ('problem' in typed) return typed;
			let text = typed.value as string;
			if (options.trim) text = text.trim();
			if (options.upperCase) text = text.toUpperCase();
			const problem = options.check && textProblem(options.check, text);
			return problem ? { problem } : { value: text };
		},
		options,
	);
}

/** A number: numeric text is sent as its number; anything else is refused. */
export function numberField(
	field: Declaration,
	options: { check?: NumberCheck } & SendTo = {},
): INodeProperties {
	return sendingField({ ...field, type: 'number' }, numberRule(options.check), options);
}

/** true or false: the texts "true" and "false" (any case) are read as such; anything else is refused. */
export function booleanField(field: Declaration, to: SendTo = {}): INodeProperties {
	return sendingField({ ...field, type: 'boolean' }, booleanRule, to);
}

export function optionsField(
	field: Omit<Declaration, 'options'> & { options?: INodePropertyOptions[] },
	options: { others?: boolean } & SendTo = {},
): INodeProperties {
	const values = (field.options ?? []).map((option) => option.value);
	return sendingField(
		{ ...field, type: 'options' },
		(_ctx, value) => asOption(value, values, options.others),
		options,
	);
}

/** Given the workflow's time zone: the picker gives a local time without a zone. */
export function dateField(field: Omit<Declaration, 'default'>, as: ApiDate): INodeProperties {
	return sendingField({ ...field, type: 'dateTime', default: '' }, dateRule(as));
}

export function statusOptions(statuses: string[]): INodePropertyOptions[] {
	const titleOf = (value: string) =>
		value
			.split('_')
			.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
			.join(' ');
	return statuses
		.map((value) => ({ name: titleOf(value), value }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** A status; an expression may give another (the API decides). */
export function statusField(
	statuses: string[],
	field: Omit<Declaration, 'options' | 'displayName' | 'name'>,
): INodeProperties {
	return optionsField(
		{ displayName: 'Status', name: 'status', options: statusOptions(statuses), ...field },
		{ others: true },
	);
}

export function collectionOf(
	displayName: string,
	name: string,
	options: INodeProperties[],
	placeholder = 'Add Field',
): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

export function additionalFields(options: INodeProperties[]): INodeProperties {
	return collectionOf('Additional Fields', 'additionalFields', options);
}

export function updateFields(options: INodeProperties[]): INodeProperties {
	return collectionOf(
		'Update Fields',
		'updateFields',
		[...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	);
}

export function operationFields(
	resource: string,
	operation: string,
	fields: INodeProperties[],
): INodeProperties[] {
	return fields.map((field) => ({
		...field,
		displayOptions: {
			...field.displayOptions,
			show: { resource: [resource], operation: [operation], ...field.displayOptions?.show },
		},
	}));
}
