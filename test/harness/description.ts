/**
 * Cases generated over the node's whole description: every resource and operation, and in each,
 * every field (collection and fixedCollection leaves included), with parameters that give that
 * one field a value and every required field a valid one. Nothing here lists the fields: they come
 * from the description, so a new field is covered as soon as it exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import nock from 'nock';
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	NodeParameterValueType,
} from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { loadNodeType, TEST_BASE_URL } from './engine';

export const nodeType = loadNodeType(new BusinessOps());
const properties = nodeType.description.properties;

/** A valid value for a field, by what its checks accept (shared with the e2e area engine). */
export const SAMPLE_BY_NAME = JSON.parse(
	readFileSync(join(__dirname, '..', 'fixtures', 'field-samples.json'), 'utf8'),
) as INodeParameters;

export function sample(field: INodeProperties): NodeParameterValueType {
	if (field.name in SAMPLE_BY_NAME) return SAMPLE_BY_NAME[field.name];
	switch (field.type) {
		case 'resourceLocator':
			return { __rl: true, mode: 'id', value: 'x_1' };
		case 'number':
			return 5;
		case 'boolean':
			return true;
		case 'options':
			return (field.options as INodePropertyOptions[])[0].value as NodeParameterValueType;
		case 'multiOptions':
			return ['invoice.paid'];
		case 'fixedCollection': {
			const group = (field.options as Array<{ name: string; values: INodeProperties[] }>)[0];
			const row: INodeParameters = Object.fromEntries(group.values.filter((leaf) => leaf.required).map((leaf) => [leaf.name, sample(leaf)]));
			return { [group.name]: [row] } as INodeParameters;
		}
		default:
			return 'Sample';
	}
}

export interface Operation {
	resource: string;
	operation: string;
	/** Top-level fields shown for this operation, besides Resource and Operation. */
	fields: INodeProperties[];
}

function shownFor(field: INodeProperties, resource: string, operation: string): boolean {
	const show = field.displayOptions?.show ?? {};
	return (
		(show.resource ?? [resource]).includes(resource) &&
		(show.operation ?? [operation]).includes(operation) &&
		field.name !== 'resource' &&
		field.name !== 'operation' &&
		field.name !== 'requestOptions'
	);
}

export function operations(): Operation[] {
	const resources = (properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]).map((o) => String(o.value));
	return resources.flatMap((resource) => {
		const selector = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))!;
		return (selector.options as INodePropertyOptions[]).map((option) => {
			const operation = String(option.value);
			return { resource, operation, fields: properties.filter((field) => shownFor(field, resource, operation)) };
		});
	});
}

/** The parameters of an operation with every required field (and its own show conditions) given. */
export function baseParameters({ resource, operation, fields }: Operation): INodeParameters {
	const parameters: INodeParameters = { resource, operation };
	for (const field of fields) {
		if (field.required && field.displayOptions?.show?.itemsInput?.[0] !== 'json') parameters[field.name] = sample(field);
	}
	return parameters;
}

/** One field of one operation: the parameters that give it `value`, with the property it sends. */
export interface FieldCase {
	title: string;
	parameters: (value: string) => INodeParameters;
	sends?: { type: 'body' | 'query'; property: string };
	required: boolean;
	displayName: string;
	fieldType: string;
	/** The field that gets the value (a collection's option, a row's leaf). */
	field: INodeProperties;
}

function sendsOf(field: INodeProperties): FieldCase['sends'] {
	const send = field.routing?.send;
	if (send?.property === undefined) return undefined;
	return { type: send.type === 'query' ? 'query' : 'body', property: String(send.property) };
}

/** The values a field's own show conditions ask for (Items (JSON) shows for Items Input "JSON"). */
function showValues(field: INodeProperties): INodeParameters {
	const shown = Object.entries(field.displayOptions?.show ?? {}).filter(([name]) => name !== 'resource' && name !== 'operation');
	return Object.fromEntries(shown.map(([name, values]) => [name, (values as NodeParameterValueType[])[0]]));
}

/**
 * Other optional top-level fields given a value, so that an operation that refuses to change
 * nothing (Update Autonomy) still has something to send; never one that decides whether `field` shows.
 */
function anchorsFor(op: Operation, field: INodeProperties): INodeParameters {
	const deciding = [...Object.keys(field.displayOptions?.show ?? {}), ...Object.keys(field.displayOptions?.hide ?? {})];
	const others = op.fields.filter(
		(other) =>
			other !== field &&
			!other.required &&
			!other.noDataExpression &&
			other.type !== 'collection' &&
			other.type !== 'fixedCollection' &&
			!deciding.includes(other.name),
	);
	return Object.fromEntries(others.map((other) => [other.name, sample(other)]));
}

/** A case per leaf of a fixedCollection row; `place` puts the collection's value into the parameters. */
function rowCases(field: INodeProperties, name: (leaf: string) => string, place: (value: INodeParameters) => INodeParameters): FieldCase[] {
	const group = (field.options as Array<{ name: string; values: INodeProperties[] }>)[0];
	const row = (sample(field) as Record<string, INodeParameters[]>)[group.name][0];
	return group.values.map((leaf) => ({
		title: name(leaf.displayName),
		parameters: (empty: string) => place({ [group.name]: [{ ...row, [leaf.name]: empty }] }),
		required: Boolean(leaf.required),
		displayName: field.displayName,
		fieldType: leaf.type,
		field: leaf,
	}));
}

export function casesOf(op: Operation): FieldCase[] {
	const base = baseParameters(op);
	const title = (name: string) => `${op.resource} ${op.operation}: ${name}`;
	const cases: FieldCase[] = [];
	for (const field of op.fields) {
		if (field.noDataExpression) continue;
		const around = () => ({ ...base, ...anchorsFor(op, field), ...showValues(field) });
		if (field.type === 'collection') {
			const options = field.options as INodeProperties[];
			for (const child of options) {
				// an Update with only an empty field changes nothing: another field keeps it a real update
				const other = options.find((o) => o.name !== child.name && o.type !== 'fixedCollection' && o.type !== 'json');
				const place = (value: NodeParameterValueType): INodeParameters => ({
					...around(),
					[field.name]: { ...(other ? { [other.name]: sample(other) } : {}), [child.name]: value },
				});
				const name = (leaf: string) => title(`${field.displayName} > ${leaf}`);
				if (child.type === 'fixedCollection') {
					cases.push(...rowCases(child, (leaf) => name(`${child.displayName} > ${leaf}`), place));
					continue;
				}
				cases.push({
					title: name(child.displayName),
					parameters: place,
					sends: sendsOf(child),
					required: false,
					displayName: child.displayName,
					fieldType: child.type,
					field: child,
				});
			}
		} else if (field.type === 'fixedCollection') {
			cases.push(...rowCases(field, (leaf) => title(`${field.displayName} > ${leaf}`), (value) => ({ ...around(), [field.name]: value })));
		} else {
			cases.push({
				title: title(field.displayName),
				parameters: (empty) => ({
					...around(),
					[field.name]: field.type === 'resourceLocator' ? { __rl: true, mode: 'id', value: empty } : empty,
				}),
				sends: sendsOf(field),
				required: Boolean(field.required),
				displayName: field.displayName,
				fieldType: field.type,
				field,
			});
		}
	}
	return cases;
}

export interface Sent {
	method: string;
	path: string;
	query: IDataObject;
	body: IDataObject;
}

/**
 * Answers every request like the API would for one record or one page, and records it. A list
 * read that a write to the same list follows is that write's look-up (Create or Update reads the
 * contacts to match on e-mail), not what the operation's fields send: it is left out.
 */
export function recordRequests(): Sent[] {
	const sent: Sent[] = [];
	const reply = (method: string) =>
		function (this: nock.ReplyFnContext, uri: string, body: nock.Body): nock.ReplyFnResult {
			const url = new URL(uri, TEST_BASE_URL);
			const last = sent[sent.length - 1];
			if (method !== 'GET' && last?.method === 'GET' && 'page' in last.query && url.pathname.startsWith(last.path)) sent.pop();
			sent.push({
				method,
				path: url.pathname,
				query: Object.fromEntries(url.searchParams.entries()),
				body: (typeof body === 'object' && body !== null ? body : {}) as IDataObject,
			});
			if (method === 'GET') return [200, { data: [{ id: 'x_1' }], meta: { page: 1, pageSize: 100, total: 1, hasMore: false } }];
			return [method === 'POST' ? 201 : 200, { data: { id: 'x_1' } }];
		};
	const scope = nock('https://api.business-ops.test').persist();
	for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) scope.intercept(/.*/, method).reply(reply(method));
	return sent;
}

