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
		description: `${hint}Fix "${field}" for item ${itemIndex}. Nothing was sent for this item.`,
	});
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/;

/** What a text field's check accepts; the check reads the text as it will be sent. */
export type TextCheck = 'email' | 'httpUrl' | 'currency';

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
