/**
 * A small JSON Schema subset. The same schema objects validate request bodies and query
 * parameters and are published in the OpenAPI document, so the two cannot drift apart.
 * Every failure names the field: top-level fields in quotes (`"email" must be ...`), nested
 * paths bare (`items[2].quantity must be ...`). Item indexes are 0-based.
 */
import { invalidRequest } from './errors';

type TypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface Schema {
	type?: TypeName | TypeName[];
	description?: string;
	enum?: readonly (string | number | boolean | null)[];
	format?: 'email' | 'date-time' | 'date' | 'uri';
	pattern?: string;
	minLength?: number;
	maxLength?: number;
	minimum?: number;
	maximum?: number;
	exclusiveMinimum?: number;
	minItems?: number;
	maxItems?: number;
	items?: Schema;
	properties?: Record<string, Schema>;
	required?: readonly string[];
	additionalProperties?: boolean | Schema;
	propertyNames?: Schema;
	minProperties?: number;
	default?: unknown;
	examples?: unknown[];
	readOnly?: boolean;
	const?: unknown;
	$ref?: string;
	/** Ending of the error message ("must be <this>") when the generated one is not clear. */
	'x-error'?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:?\d{2}))?$/;

function validCalendarDate(y: string, m: string, d: string): boolean {
	const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
	return (
		date.getUTCFullYear() === Number(y) &&
		date.getUTCMonth() === Number(m) - 1 &&
		date.getUTCDate() === Number(d)
	);
}

/** ISO 8601 date or date-time; a date-time needs a zone (Z or an offset) unless it is a bare date. */
export function isIsoDateTime(value: string): boolean {
	const match = DATE_TIME.exec(value);
	if (!match || !validCalendarDate(match[1], match[2], match[3])) return false;
	if (match[4] !== undefined && !/([Zz]|[+-]\d{2}:?\d{2})$/.test(value)) return false;
	return !Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value));
}

export function isIsoDate(value: string): boolean {
	const match = DATE.exec(value);
	return match !== null && validCalendarDate(match[1], match[2], match[3]);
}

export function isEmail(value: string): boolean {
	return value.length <= 254 && EMAIL.test(value);
}

export function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

function types(schema: Schema): TypeName[] {
	if (schema.type === undefined) return [];
	return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function label(path: string): string {
	return /^[A-Za-z0-9_]+$/.test(path) ? `"${path}"` : path;
}

function range(schema: Schema): string {
	if (schema.exclusiveMinimum !== undefined) return ` greater than ${schema.exclusiveMinimum}`;
	if (schema.minimum !== undefined && schema.maximum !== undefined)
		return ` from ${schema.minimum} to ${schema.maximum}`;
	if (schema.minimum !== undefined) return ` of at least ${schema.minimum}`;
	if (schema.maximum !== undefined) return ` of at most ${schema.maximum}`;
	return '';
}

/** "a number from 0 to 100", "a valid e-mail address", ... */
export function expectation(schema: Schema): string {
	if (schema['x-error']) return schema['x-error'];
	if (schema.enum)
		return `one of ${schema.enum
			.filter((v) => v !== null)
			.map((v) => JSON.stringify(v))
			.join(', ')}`;
	const type = types(schema).find((t) => t !== 'null');
	let text: string;
	switch (type) {
		case 'string':
			if (schema.format === 'email') text = 'a valid e-mail address';
			else if (schema.format === 'uri') text = 'an http or https URL';
			else if (schema.format === 'date-time')
				text = 'an ISO 8601 timestamp such as "2026-12-31T23:59:59Z" (or a date "2026-12-31")';
			else if (schema.format === 'date') text = 'an ISO 8601 date such as "2026-12-31"';
			else text = schema.minLength ? 'a non-empty string' : 'a string';
			if (schema.maxLength !== undefined) text += ` of at most ${schema.maxLength} characters`;
			break;
		case 'number':
			text = `a number${range(schema)}`;
			break;
		case 'integer':
			text = `an integer${range(schema)}`;
			break;
		case 'boolean':
			text = 'a boolean (true or false)';
			break;
		case 'array':
			text = schema.minItems ? 'a non-empty array' : 'an array';
			if (schema.maxItems !== undefined) text += ` of at most ${schema.maxItems} items`;
			break;
		case 'object':
			text = 'an object';
			break;
		default:
			text = 'a valid value';
	}
	return text;
}

function fail(path: string, schema: Schema): never {
	throw invalidRequest(`${label(path)} must be ${expectation(schema)}`, path);
}

function matchesType(value: unknown, type: TypeName): boolean {
	switch (type) {
		case 'null':
			return value === null;
		case 'string':
			return typeof value === 'string';
		case 'number':
			return typeof value === 'number' && Number.isFinite(value);
		case 'integer':
			return typeof value === 'number' && Number.isInteger(value);
		case 'boolean':
			return typeof value === 'boolean';
		case 'array':
			return Array.isArray(value);
		case 'object':
			return typeof value === 'object' && value !== null && !Array.isArray(value);
	}
}

/** Throws a 400 invalid_request naming the first offending field. */
export function validate(value: unknown, schema: Schema, path: string): void {
	const allowed = types(schema);
	if (allowed.length > 0 && !allowed.some((t) => matchesType(value, t))) fail(path, schema);
	if (value === null) return;
	if (schema.enum && !schema.enum.includes(value as string)) {
		const got =
			typeof value === 'string'
				? `; got ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`
				: '';
		throw invalidRequest(`${label(path)} must be ${expectation(schema)}${got}`, path);
	}

	if (typeof value === 'string') {
		if (schema.minLength !== undefined && value.trim().length < schema.minLength)
			fail(path, schema);
		if (schema.maxLength !== undefined && value.length > schema.maxLength) fail(path, schema);
		if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) fail(path, schema);
		if (schema.format === 'email' && !isEmail(value)) fail(path, schema);
		if (schema.format === 'uri' && !isHttpUrl(value)) fail(path, schema);
		if (schema.format === 'date-time' && !isIsoDateTime(value)) fail(path, schema);
		if (
			schema.format === 'date' &&
			!(isIsoDate(value) || (value.length > 10 && isIsoDateTime(value)))
		)
			fail(path, schema);
	}
	if (typeof value === 'number') {
		if (schema.minimum !== undefined && value < schema.minimum) fail(path, schema);
		if (schema.maximum !== undefined && value > schema.maximum) fail(path, schema);
		if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
			fail(path, schema);
	}
	if (Array.isArray(value)) {
		if (schema.minItems !== undefined && value.length < schema.minItems) fail(path, schema);
		if (schema.maxItems !== undefined && value.length > schema.maxItems) fail(path, schema);
		if (schema.items)
			value.forEach((item, i) => validate(item, schema.items as Schema, `${path}[${i}]`));
	}
	if (matchesType(value, 'object')) validateObject(value as Record<string, unknown>, schema, path);
}

function join(path: string, key: string): string {
	return path === '' ? key : `${path}.${key}`;
}

function validateObject(value: Record<string, unknown>, schema: Schema, path: string): void {
	const properties = schema.properties ?? {};
	for (const key of Object.keys(value)) {
		if (Object.prototype.hasOwnProperty.call(properties, key)) continue;
		if (typeof schema.additionalProperties === 'object') {
			if (schema.propertyNames) {
				const keyPath = join(path, key);
				if (!new RegExp(schema.propertyNames.pattern ?? '').test(key)) {
					throw invalidRequest(
						`${label(keyPath)} is not a valid name: names must be ${expectation(schema.propertyNames)}`,
						keyPath,
					);
				}
			}
			continue;
		}
		if (schema.additionalProperties === false) {
			const known = Object.keys(properties);
			const where = path === '' ? '' : ` in ${path}`;
			throw invalidRequest(
				`${label(join(path, key))} is not a known field${where}; known fields: ${known.join(', ')}`,
				join(path, key),
			);
		}
	}
	for (const key of schema.required ?? []) {
		if (value[key] === undefined)
			throw invalidRequest(`${label(join(path, key))} is required`, join(path, key));
	}
	if (schema.minProperties !== undefined && Object.keys(value).length < schema.minProperties) {
		throw invalidRequest(
			`${path === '' ? 'The body' : label(path)} must contain at least ${schema.minProperties} field`,
			path || undefined,
		);
	}
	for (const [key, propertySchema] of Object.entries(properties)) {
		if (value[key] !== undefined) validate(value[key], propertySchema, join(path, key));
	}
	if (typeof schema.additionalProperties === 'object') {
		for (const key of Object.keys(value)) {
			if (!Object.prototype.hasOwnProperty.call(properties, key)) {
				validate(value[key], schema.additionalProperties, join(path, key));
			}
		}
	}
}

/** Query strings are text: turn "2" into 2 where the schema wants a number, then validate. */
export function coerceQuery(raw: string, schema: Schema, name: string): unknown {
	const wanted = types(schema);
	if (wanted.includes('integer') || wanted.includes('number')) {
		const number = /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : Number.NaN;
		if (Number.isNaN(number)) fail(name, schema);
		validate(number, schema, name);
		return number;
	}
	if (wanted.includes('boolean')) {
		if (raw !== 'true' && raw !== 'false') fail(name, schema);
		return raw === 'true';
	}
	validate(raw, schema, name);
	return raw;
}
