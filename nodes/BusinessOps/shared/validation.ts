import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runsAsTool, toolInputProblem } from '../../shared/api/errors';

/**
 * A value was given that the API would refuse or misread: fail before anything is sent. `hint` is
 * advice for the workflow's author; `parameter` (the field's name or dot path) lets a tool-mode
 * error name the model's argument that gives the field (see toolInputProblem).
 */
export function invalidInput(
	ctx: IExecuteSingleFunctions,
	field: string,
	problem: string,
	hint = '',
	parameter?: string | string[],
): NodeOperationError {
	const itemIndex = ctx.getItemIndex();
	if (runsAsTool(ctx.getNode())) {
		const { message, description } = toolInputProblem(ctx.getNode(), field, problem, parameter);
		return new NodeOperationError(ctx.getNode(), message, { description });
	}
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem} [item ${itemIndex}]`, {
		itemIndex,
		description: `${hint}Fix "${field}" for item ${itemIndex} and run the node again. Nothing was sent for this item.`,
	});
}

/** True for what counts as "not given": undefined, null, and text that is empty or only spaces. */
export function isEmptyValue(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** `send.value` of a text field sent without its outer spaces; any other value is sent as it is. */
export const TRIMMED_VALUE = '={{ typeof $value === "string" ? $value.trim() : $value }}';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const ID = /^[A-Za-z0-9_.:-]+$/;
const DOT_SEGMENT = /^\.{1,2}$/;

function isEmail(value: unknown): boolean {
	return typeof value === 'string' && value.trim().length <= 254 && EMAIL.test(value.trim());
}

/** An absolute http or https URL with a host. */
function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	let url: URL;
	try {
		url = new URL(value.trim());
	} catch {
		return false;
	}
	return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/** A valid JS Date, also one made in another realm (an expression sandbox). */
export function isValidJsDate(value: unknown): value is Date {
	return Object.prototype.toString.call(value) === '[object Date]' && !Number.isNaN((value as Date).getTime());
}

/**
 * A date as text: what an expression gives is often not text. `$now`, `$today` and Luxon's
 * `DateTime` give an object with `toISO()` (ISO 8601 with the workflow's offset), a JS `Date`
 * gives `toISOString()` (UTC); text is kept as it is.
 */
export function dateText(value: unknown): unknown {
	if (isValidJsDate(value)) return value.toISOString();
	const luxon = value as { toISO?: () => string | null; isValid?: boolean } | null;
	if (luxon && typeof luxon === 'object' && typeof luxon.toISO === 'function' && luxon.isValid !== false) {
		return luxon.toISO() ?? value;
	}
	return value;
}

export function isIsoDate(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const text = value.trim();
	if (!ISO_DATE.test(text) || Number.isNaN(Date.parse(text))) return false;
	// Date.parse rolls 2026-02-30 over to March 2: the written day must exist
	const [year, month, day] = text.slice(0, 10).split('-').map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Reads a number the way a person typed it, refusing anything ambiguous: "2,5" is refused
 * rather than read as 25 or 2.5, and "" or "abc" are refused rather than sent as 0.
 */
export function toStrictNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (!/^-?\d+(?:\.\d+)?$/.test(text)) return undefined;
	return Number(text);
}

/** What a checked field's value must be; see checkedField. */
export type FieldRule = 'email' | 'date' | 'percentage' | 'nonNegativeInteger' | 'currency' | 'httpUrl';

function problemWith(rule: FieldRule, value: unknown): string | undefined {
	switch (rule) {
		case 'email':
			return isEmail(value) ? undefined : `"${String(value)}" is not an e-mail address`;
		case 'date':
			return isIsoDate(dateText(value))
				? undefined
				: `"${String(value)}" is not a date; use ISO 8601, e.g. 2026-12-31 or 2026-12-31T12:00:00Z`;
		case 'percentage': {
			const n = toStrictNumber(value);
			return n !== undefined && n >= 0 && n <= 100 ? undefined : `"${String(value)}" must be a number from 0 to 100`;
		}
		case 'nonNegativeInteger': {
			const n = toStrictNumber(value);
			return n !== undefined && Number.isInteger(n) && n >= 0 ? undefined : `"${String(value)}" must be a whole number of 0 or more`;
		}
		case 'httpUrl':
			return isHttpUrl(value) ? undefined : `"${String(value)}" is not an http:// or https:// URL`;
		case 'currency':
			return typeof value === 'string' && /^[A-Z]{3}$/.test(value.trim())
				? undefined
				: `"${String(value)}" must be a 3-letter ISO 4217 code such as EUR`;
	}
}

/**
 * A field whose value is checked before anything is sent. The check is the field's own preSend:
 * it reads what the field put into the body (n8n fills the whole body before any preSend runs)
 * and names the field by its displayName. A field whose body is built by its operation's preSend
 * (Update Autonomy) is checked after that, since an operation precedes its fields.
 */
export function checkedField<T extends INodeProperties>(field: T, rule: FieldRule): T {
	const send = field.routing?.send ?? {};
	const property = send.property ?? field.name;
	async function check(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const value = (requestOptions.body as IDataObject | undefined)?.[property];
		if (value === undefined) return requestOptions;
		const problem = problemWith(rule, value);
		if (problem) throw invalidInput(this, field.displayName, problem, '', field.name);
		return requestOptions;
	}
	return { ...field, routing: { ...field.routing, send: { ...send, preSend: [check, ...(send.preSend ?? [])] } } };
}

/** A record picker given nothing: the problem, and the advice for the workflow's author. */
export const NO_ID = 'no ID was given';
export const PICK_AN_ID = 'Pick one from the list or enter an ID. ';

/**
 * preSend step of a resource locator: the ID goes into the URL or the body, so it must be one plain
 * segment. An optional picker left empty sends nothing (see emptyValues.ts).
 */
export function checkIdParameter(parameterName: string, label: string, required = true) {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const value = this.getNodeParameter(parameterName, undefined, { extractValue: true });
		const id = typeof value === 'number' ? String(value) : value;
		if (!required && isEmptyValue(id)) return requestOptions;
		if (typeof id !== 'string' || id.trim() === '') {
			throw invalidInput(this, label, NO_ID, PICK_AN_ID, parameterName);
		}
		if (!ID.test(id)) {
			throw invalidInput(this, label, `"${id}" is not an ID (letters, digits, "_", "-", "." and ":" only)`, '', parameterName);
		}
		if (DOT_SEGMENT.test(id)) {
			// a URL normalises "/contacts/.." into "/", so the request would reach another address
			throw invalidInput(this, label, `"${id}" is not an ID: "." and ".." name a folder of the address, not a record`, '', parameterName);
		}
		return requestOptions;
	};
}

/** Parses a JSON parameter that may arrive as text or, from an expression, as a value already. */
export function parseJsonParameter(ctx: IExecuteSingleFunctions, value: unknown, label: string, parameter?: string): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw invalidInput(ctx, label, `the text is not valid JSON (${(error as Error).message})`, '', parameter);
	}
}
