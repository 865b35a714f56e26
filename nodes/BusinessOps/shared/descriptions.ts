import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IDisplayOptions,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../../shared/api/pages';
import { booleanRule, numberRule, optionsField, sendingField, valueToSend, type Rule } from './fields';
import { guarded } from './stopOnError';
import { givenAs } from '../../shared/typing';
import { idProblem } from './validation';

export type ShowFor = NonNullable<IDisplayOptions['show']>;

/** displayOptions that show a field only for the given resource and operations. */
export function showFor(resource: string, operations: string[], extra: ShowFor = {}): IDisplayOptions {
	return { show: { resource: [resource], operation: operations, ...extra } };
}

interface IdLocatorOptions {
	displayName: string;
	name: string;
	/** Name of the `methods.listSearch` function that fills the "From list" mode. */
	searchListMethod: string;
	placeholder: string;
	description?: string;
	required?: boolean;
	/** Sent as the body property of its name; left out, the ID goes into the URL (see idPath). */
	inBody?: boolean;
}

/** A record ID: one plain segment of the URL (a number from an expression is its text). */
const idRule: Rule = (_ctx, value) => {
	const id = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
	if (typeof id !== 'string') return { problem: `must be an ID; the expression gave ${givenAs(value)}` };
	const problem = idProblem(id);
	return problem ? { problem } : { value: id };
};

/**
 * A record picker with "From list" (searchable) and "By ID" modes. Its ID is checked before the
 * request is sent: in the body (`inBody`) like any sending field; in the URL, by its own step,
 * which reads the parameter by its name (such a picker sits at the top level).
 */
export function idLocator(options: IdLocatorOptions): Omit<INodeProperties, 'displayOptions'> {
	const field: INodeProperties = {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${options.displayName.toLowerCase()}...`,
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			// No `validation` regex here: n8n runs such regexes before every execution in a VM with
			// a 250 ms limit, which a busy instance can exceed and then fails the workflow.
			// idRule checks the ID instead, per item, before the request is sent.
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.placeholder,
			},
		],
	};
	if (options.inBody) return sendingField(field, idRule);
	async function checkId(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		valueToSend(this, field, idRule, this.getNodeParameter(field.name, undefined, { extractValue: true }));
		return requestOptions;
	}
	return { ...field, routing: { send: { preSend: [guarded(checkId)] } } };
}

/** A record picker (see idLocator) shown for the given operations of one resource. */
export function idLocatorFor(resource: string, operations: string[], options: IdLocatorOptions): INodeProperties {
	return { ...idLocator(options), displayOptions: showFor(resource, operations) };
}

/** A Filters collection for a Get Many operation; each filter adds its own query parameter. */
export function filtersField(resource: string, filters: INodeProperties[], operation = 'getAll'): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: showFor(resource, [operation]),
		options: filters,
	};
}

/** One filter of a Filters collection: a choice sent as the query parameter of the same name. */
export function queryOptionFilter(
	displayName: string,
	name: string,
	options: INodePropertyOptions[],
	description: string,
): INodeProperties {
	return optionsField({ displayName, name, options, default: options[0].value, description }, { in: 'query' });
}

/** "in_collection" as "In Collection". */
export function titleOf(value: string): string {
	return value
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}

/** A Status filter sent as query `status`, one choice per status value, sorted by name. */
export function statusFilter(statuses: string[], records: string): INodeProperties {
	const options = statuses
		.map((value) => ({ name: titleOf(value), value }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return queryOptionFilter('Status', 'status', options, `Only ${records} with this status`);
}

/** A path segment for a resource locator parameter, as used in `routing.request.url`. */
export function idPath(parameterName: string): string {
	return `{{ encodeURIComponent($parameter["${parameterName}"]) }}`;
}

const RETURN_ALL: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

/** Return All asks for the largest page the API allows; the routing seam follows the pages. */
async function pageSizeOfReturnAll(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
	if (valueToSend(this, RETURN_ALL, booleanRule, this.getNodeParameter(RETURN_ALL.name, false)) === true) {
		requestOptions.qs = { ...requestOptions.qs, pageSize: MAX_PAGE_SIZE };
	}
	return requestOptions;
}

const limitRule: Rule = (ctx, value) => {
	const typed = numberRule('positiveInteger')(ctx, value);
	return 'problem' in typed ? typed : { value: Math.min(typed.value as number, MAX_PAGE_SIZE) };
};

/**
 * Return All and Limit for a Get Many operation. Return All pages at the largest page size the
 * API allows; Limit asks for no more than it needs (as the page size). The routing seam follows the pages.
 */
export function getManyFields(resource: string, operation = 'getAll'): INodeProperties[] {
	const limit: INodeProperties = {
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		// Hidden only when Return All is the boolean true: Return All saved as the text "false" or
		// given by an expression keeps Limit read, and the cut below reads Return All as its typing
		// rule does (true or the text "true"), so Limit applies exactly when Return All is false.
		displayOptions: { ...showFor(resource, [operation]), hide: { returnAll: [true] } },
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		// Left empty (or refused), Limit is its default: RoutingNode cuts an item's output to
		// maxResults, the error item of Continue included.
		routing: {
			output: {
				maxResults:
					'={{ String($parameter.returnAll).trim().toLowerCase() === "true" ? undefined : Number($value) >= 1 ? Number($value) : 50 }}',
			},
		},
	};
	return [
		{
			...RETURN_ALL,
			displayOptions: showFor(resource, [operation]),
			routing: { send: { preSend: [guarded(pageSizeOfReturnAll)] } },
		},
		sendingField(limit, limitRule, { in: 'query', as: 'pageSize' }),
	];
}

const SIMPLIFY: INodeProperties = { displayName: 'Simplify', name: 'simplify', type: 'boolean', default: false };

/** Simplify is read after the answer: checked before the request is sent, so that a bad value sends nothing. */
async function checkSimplify(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
	valueToSend(this, SIMPLIFY, booleanRule, this.getNodeParameter(SIMPLIFY.name, false));
	return requestOptions;
}

/** A Simplify toggle that keeps the given fields of each record. */
export function simplifyField(resource: string, operations: string[], keep: string[]): INodeProperties {
	async function simplify(
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		if (valueToSend(this, SIMPLIFY, booleanRule, this.getNodeParameter(SIMPLIFY.name, false)) !== true) return items;
		return items.map((item) => {
			const json: IDataObject = {};
			for (const key of keep) if (item.json[key] !== undefined) json[key] = item.json[key];
			return { ...item, json };
		});
	}
	return {
		...SIMPLIFY,
		displayOptions: showFor(resource, operations),
		description: `Whether to return only ${keep.join(', ')} instead of the whole record`,
		routing: { send: { preSend: [guarded(checkSimplify)] }, output: { postReceive: [simplify] } },
	};
}
