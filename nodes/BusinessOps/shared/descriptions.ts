import type {
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
	INodeProperties,
	IDisplayOptions,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from './transport';
import { checkIdParameter } from './validation';

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
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.placeholder,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^[A-Za-z0-9_.:-]+$',
							errorMessage: 'Not a valid ID: letters, digits, "_", "-", "." and ":" only',
						},
					},
				],
			},
		],
		routing: {
			send: { preSend: [checkIdParameter(options.name, options.displayName)] },
		},
	};
}

/** A path segment for a resource locator parameter, as used in `routing.request.url`. */
export function idPath(parameterName: string): string {
	return `{{ encodeURIComponent($parameter["${parameterName}"]) }}`;
}

/**
 * Return All and Limit for a Get Many operation. Return All pages at the largest page size the
 * API allows; Limit asks for no more than it needs. executeRoutedRequest follows `meta.hasMore`.
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
				send: { type: 'query', property: 'pageSize', value: `={{ Math.min($value, ${MAX_PAGE_SIZE}) }}` },
				output: { maxResults: '={{ $value }}' },
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
