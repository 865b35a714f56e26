import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runsAsTool, toolInputProblem } from '../../shared/api/toolErrors';

/**
 * A value the API would refuse or misread: fail before anything is sent. `hint` is advice for the
 * workflow's author; `parameter` (name or dot path) lets a tool-mode error name the model's argument.
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
		return toolInputProblem(ctx.getNode(), field, problem, parameter);
	}
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem} [item ${itemIndex}]`, {
		itemIndex,
		description: `${hint}Fix "${field}" for item ${itemIndex} and run the node again. Nothing was sent for this item.`,
	});
}

/** True for what counts as "not given": undefined, null, and text that is empty or only spaces. */
export const isEmptyValue = (value: unknown): boolean =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/;
const ISO_DATE =
	/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const ID = /^[A-Za-z0-9_.:-]+$/;

export function isIsoDate(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const text = value.trim();
	if (!ISO_DATE.test(text) || Number.isNaN(Date.parse(text))) return false;
	// Date.parse rolls 2026-02-30 over to March 2: the written day must exist
	const [year, month, day] = text.slice(0, 10).split('-').map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	);
}

/** What a text field's check accepts; the check reads the text as it will be sent. */
export type TextCheck = 'email' | 'httpUrl' | 'currency';

/** What a number field's check accepts. */
export type NumberCheck = 'percentage' | 'nonNegativeInteger' | 'positiveInteger';

export function textProblem(check: TextCheck, text: string): string | undefined {
	switch (check) {
		case 'email':
			return text.length <= 254 && EMAIL.test(text)
				? undefined
				: `"${text}" is not an e-mail address`;
		case 'httpUrl':
			// an http(s) URL without a host does not parse (WHATWG URL: special schemes need one)
			return URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol)
				? undefined
				: `"${text}" is not an http:// or https:// URL`;
		case 'currency':
			return /^[A-Z]{3}$/.test(text)
				? undefined
				: `"${text}" must be a 3-letter ISO 4217 code such as EUR`;
	}
}

export function numberProblem(check: NumberCheck, n: number): string | undefined {
	switch (check) {
		case 'percentage':
			return n >= 0 && n <= 100 ? undefined : `"${n}" must be a number from 0 to 100`;
		case 'nonNegativeInteger':
			return Number.isInteger(n) && n >= 0
				? undefined
				: `"${n}" must be a whole number of 0 or more`;
		case 'positiveInteger':
			return Number.isInteger(n) && n >= 1
				? undefined
				: `"${n}" must be a whole number of 1 or more`;
	}
}

/** A record ID: one plain segment of the URL. */
export function idProblem(id: string): string | undefined {
	if (!ID.test(id)) return `"${id}" is not an ID (letters, digits, "_", "-", "." and ":" only)`;
	// a URL normalises "/contacts/.." into "/", so the request would reach another address
	if (id === '.' || id === '..')
		return `"${id}" is not an ID: "." and ".." name a folder of the address, not a record`;
	return undefined;
}
