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
import { checkIdParameter, invalidInput, isEmptyValue, toStrictNumber } from './validation';

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
}

/**
 * A record picker with "From list" (searchable) and "By ID" modes. Its value is checked before
 * the request is sent, since it becomes a segment of the URL.
 */
export function idLocator(options: IdLocatorOptions): Omit<INodeProperties, 'displayOptions'> {
	return {
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
			// checkIdParameter checks the ID instead, per item, before the request is sent.
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.placeholder,
			},
		],
		routing: {
			send: { preSend: [checkIdParameter(options.name, options.displayName)] },
		},
	};
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
	const first = options[0].value;
	return {
		displayName,
		name,
		type: 'options',
		options,
		default: first,
		description,
		routing: { send: { type: 'query', property: name } },
	};
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

/** preSend of Limit: a whole number of 1 or more, checked before anything is sent. */
async function checkLimit(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const value = this.getNodeParameter('limit', 50);
	if (isEmptyValue(value)) return requestOptions;
	const n = toStrictNumber(value);
	if (n === undefined || !Number.isInteger(n) || n < 1) {
		throw invalidInput(this, 'Limit', `"${String(value)}" must be a whole number of 1 or more`, '', 'limit');
	}
	return requestOptions;
}

/**
 * Return All and Limit for a Get Many operation. Return All pages at the largest page size the
 * API allows; Limit asks for no more than it needs. The routing seam follows the pages.
 */
export function getManyFields(resource: string, operation = 'getAll'): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			displayOptions: showFor(resource, [operation]),
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			routing: {
				send: { type: 'query', property: 'pageSize', value: `={{ $value ? ${MAX_PAGE_SIZE} : undefined }}` },
			},
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			displayOptions: showFor(resource, [operation], { returnAll: [false] }),
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			routing: {
				send: {
					type: 'query',
					property: 'pageSize',
					value: `={{ Math.min($value, ${MAX_PAGE_SIZE}) }}`,
					preSend: [checkLimit],
				},
				// Left empty (or refused by checkLimit), Limit is its default: RoutingNode cuts an
				// item's output to maxResults, the error item of Continue included.
				output: { maxResults: '={{ Number($value) >= 1 ? Number($value) : 50 }}' },
			},
		},
	];
}

/** A Simplify toggle that keeps the given fields of each record. */
export function simplifyField(resource: string, operations: string[], keep: string[]): INodeProperties {
	async function simplify(
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		if (!this.getNodeParameter('simplify', false)) return items;
		return items.map((item) => {
			const json: IDataObject = {};
			for (const key of keep) if (item.json[key] !== undefined) json[key] = item.json[key];
			return { ...item, json };
		});
	}
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		displayOptions: showFor(resource, operations),
		default: false,
		description: `Whether to return only ${keep.join(', ')} instead of the whole record`,
		routing: { output: { postReceive: [simplify] } },
	};
}
