import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** A value was given that the API would refuse or misread: fail before anything is sent. */
export function invalidInput(ctx: IExecuteSingleFunctions, field: string, problem: string): NodeOperationError {
	const itemIndex = ctx.getItemIndex();
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem} [item ${itemIndex}]`, {
		itemIndex,
		description: `Fix "${field}" for item ${itemIndex} and run the node again. Nothing was sent for this item.`,
	});
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const ID = /^[A-Za-z0-9_.:-]+$/;

export function isEmail(value: unknown): boolean {
	return typeof value === 'string' && value.trim().length <= 254 && EMAIL.test(value.trim());
}

/** An absolute http or https URL with a host. */
export function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	let url: URL;
	try {
		url = new URL(value.trim());
	} catch {
		return false;
	}
	return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
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

type FieldKind = 'email' | 'date' | 'percentage' | 'nonNegativeInteger' | 'positiveInteger' | 'currency' | 'httpUrl';

/** Body fields checked before any request is sent, with the label the user sees in the node. */
const BODY_FIELD_RULES: Record<string, { label: string; kind: FieldKind }> = {
	email: { label: 'Email', kind: 'email' },
	fromEmail: { label: 'From Email', kind: 'email' },
	validUntil: { label: 'Valid Until', kind: 'date' },
	dueDate: { label: 'Due Date', kind: 'date' },
	issueDate: { label: 'Issue Date', kind: 'date' },
	defaultVatPercentage: { label: 'Default VAT Percentage', kind: 'percentage' },
	defaultPaymentTermsDays: { label: 'Default Payment Terms (Days)', kind: 'nonNegativeInteger' },
	autoAfterApprovalsCount: { label: 'Approvals Count', kind: 'positiveInteger' },
	defaultCurrency: { label: 'Default Currency', kind: 'currency' },
	url: { label: 'URL', kind: 'httpUrl' },
};

function problemWith(kind: FieldKind, value: unknown): string | undefined {
	switch (kind) {
		case 'email':
			return isEmail(value) ? undefined : `"${String(value)}" is not an e-mail address`;
		case 'date':
			return isIsoDate(value)
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
		case 'positiveInteger': {
			const n = toStrictNumber(value);
			return n !== undefined && Number.isInteger(n) && n >= 1 ? undefined : `"${String(value)}" must be a whole number of 1 or more`;
		}
		case 'httpUrl':
			return isHttpUrl(value) ? undefined : `"${String(value)}" is not an http:// or https:// URL`;
		case 'currency':
			return typeof value === 'string' && /^[A-Z]{3}$/.test(value.trim())
				? undefined
				: `"${String(value)}" must be a 3-letter ISO 4217 code such as EUR`;
	}
}

/** preSend step shared by every operation: checks the body fields named above. */
export async function validateRequestBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = requestOptions.body as IDataObject | undefined;
	if (!body || typeof body !== 'object') return requestOptions;
	for (const [name, rule] of Object.entries(BODY_FIELD_RULES)) {
		if (body[name] === undefined) continue;
		const problem = problemWith(rule.kind, body[name]);
		if (problem) throw invalidInput(this, rule.label, problem);
	}
	return requestOptions;
}

/** preSend step of a resource locator: the ID goes into the URL, so it must be one plain segment. */
export function checkIdParameter(parameterName: string, label: string) {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const value = this.getNodeParameter(parameterName, undefined, { extractValue: true });
		const id = typeof value === 'number' ? String(value) : value;
		if (typeof id !== 'string' || id.trim() === '') {
			throw invalidInput(this, label, 'no ID was given; pick one from the list or enter an ID');
		}
		if (!ID.test(id)) {
			throw invalidInput(this, label, `"${id}" is not an ID (letters, digits, "_", "-", "." and ":" only)`);
		}
		return requestOptions;
	};
}

/** preSend step of a required text field that an expression may still leave empty. */
export function checkNotEmpty(parameterName: string, label: string) {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const value = this.getNodeParameter(parameterName, '');
		if (value === undefined || value === null || String(value).trim() === '') {
			throw invalidInput(this, label, 'a value is required');
		}
		return requestOptions;
	};
}

/** Parses a JSON parameter that may arrive as text or, from an expression, as a value already. */
export function parseJsonParameter(ctx: IExecuteSingleFunctions, value: unknown, label: string): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw invalidInput(ctx, label, `the text is not valid JSON (${(error as Error).message})`);
	}
}
