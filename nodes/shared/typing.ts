/** The one typing rule of every sending field: ARCHITECTURE.md, "What a field sends". */
import type { IDataObject } from 'n8n-workflow';

export type Typed = { value: unknown } | { problem: string; hint?: string };

export function givenAs(value: unknown): string {
	if (typeof value === 'string') return JSON.stringify(value);
	if (typeof value === 'number') return `the number ${value}`;
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	return String(value);
}

export const isEmptyValue = (value: unknown): boolean =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export const isRecord = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;

/** A number as a person typed it: "2,5" is refused rather than read as 25 or 2.5, "" or "abc" rather than sent as 0. */
export function toStrictNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (!PLAIN_NUMBER.test(text)) return undefined;
	const n = Number(text);
	// Text a JavaScript number cannot hold exactly would be sent as another number.
	return Number.isSafeInteger(Math.trunc(n)) && Math.abs(n) <= Number.MAX_SAFE_INTEGER
		? n
		: undefined;
}

/** What to fix in a text that is not a number: a decimal comma, or more digits than can be sent exactly. */
export function numberHint(value: unknown): string {
	if (typeof value !== 'string') return '';
	if (/\d,\d/.test(value)) return ' (use a dot for decimals)';
	return PLAIN_NUMBER.test(value.trim()) ? ' (too many digits to send exactly)' : '';
}

export function asNumber(value: unknown): Typed {
	const n = toStrictNumber(value);
	if (n !== undefined) return { value: n };
	return { problem: `must be a number; the expression gave ${givenAs(value)}${numberHint(value)}` };
}

export function asBoolean(value: unknown): Typed {
	if (typeof value === 'boolean') return { value };
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return { value: text === 'true' };
	return { problem: `must be true or false; the expression gave ${givenAs(value)}` };
}

export function asText(value: unknown): Typed {
	if (typeof value === 'string') return { value };
	// JSON would send NaN as null, which clears the field
	if (typeof value === 'number' && !Number.isFinite(value)) {
		return {
			problem: `must be text; the expression gave the number ${value}`,
			hint: 'Check the expression: a conversion such as Number() of a text that is not a number gives NaN. ',
		};
	}
	if (typeof value === 'number' || typeof value === 'boolean') return { value: String(value) };
	const kind = Array.isArray(value)
		? 'a list'
		: typeof value === 'object'
			? 'an object'
			: `a ${typeof value}`;
	return {
		problem: `must be text; the expression gave ${kind}`,
		hint: 'Give one text value, for example {{ $json.field }} or {{ $json.list[0] }}. ',
	};
}

/** One of `values`; with `others` set, any other text is sent too: the list is suggestions (the API's is not known in full, or is loaded from the API). */
export function asOption(value: unknown, values: readonly unknown[], others = false): Typed {
	const text = typeof value === 'string' ? value.trim() : value;
	if (values.includes(text)) return { value: text };
	if (others) {
		const typed = asText(value);
		return 'value' in typed ? { value: String(typed.value).trim() } : typed;
	}
	return {
		problem: `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}; the expression gave ${givenAs(value)}`,
	};
}
