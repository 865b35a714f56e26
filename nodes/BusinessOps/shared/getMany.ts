import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../../shared/api/pages';
import {
	booleanRule,
	collectionOf,
	numberRule,
	optionsField,
	parameterToSend,
	sendingField,
	sendStep,
	statusOptions,
} from './fields';

const RETURN_ALL: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

const LIMIT: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	// Hidden only when Return All is the boolean true: Return All saved as the text "false" or
	// given by an expression keeps Limit read (listLimit reads both by their rules).
	displayOptions: { hide: { returnAll: [true] } },
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	hint: 'Reads only the pages it needs. When the list changes while it is read, it is read again, up to 3 reads in all, then fails.',
};

const limitRule = numberRule('positiveInteger');

const pageSizeOfReturnAll = sendStep(async function (
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
) {
	if (parameterToSend(this, RETURN_ALL, booleanRule) === true)
		requestOptions.qs = { ...requestOptions.qs, pageSize: MAX_PAGE_SIZE };
	return requestOptions;
});

/** Return All (at the largest page size) and Limit (its own page size, at most that); the seam reads the pages (listLimit). */
export function getManyFields(): INodeProperties[] {
	return [
		{ ...RETURN_ALL, routing: { send: { preSend: [pageSizeOfReturnAll] } } },
		sendingField(
			LIMIT,
			(ctx, value) => {
				const typed = limitRule(ctx, value);
				return 'problem' in typed
					? typed
					: { value: Math.min(typed.value as number, MAX_PAGE_SIZE) };
			},
			{ in: 'query', as: 'pageSize' },
		),
	];
}

/** How many records an item's list read returns: undefined for all (Return All, or no Return All), else Limit (50 when empty). */
export function listLimit(ctx: IExecuteSingleFunctions): number | undefined {
	if (!(RETURN_ALL.name in ctx.getNode().parameters)) return undefined;
	if (parameterToSend(ctx, RETURN_ALL, booleanRule) === true) return undefined;
	return (
		(parameterToSend(ctx, LIMIT, limitRule) as number | undefined) ?? (LIMIT.default as number)
	);
}

export const filtersField = (filters: INodeProperties[]) =>
	collectionOf('Filters', 'filters', filters, 'Add Filter');

export function queryOptionFilter(
	displayName: string,
	name: string,
	options: INodePropertyOptions[],
	description: string,
): INodeProperties {
	return optionsField(
		{ displayName, name, options, default: options[0].value, description },
		{ in: 'query' },
	);
}

export function statusFilter(statuses: string[], records: string): INodeProperties {
	return queryOptionFilter(
		'Status',
		'status',
		statusOptions(statuses),
		`Only ${records} with this status`,
	);
}

const SIMPLIFY: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
};

const simplifyOn = (ctx: IExecuteSingleFunctions) =>
	parameterToSend(ctx, SIMPLIFY, booleanRule) === true;

/** Simplify is read after the answer: checked before the request is sent, so that a bad value sends nothing. */
const checkSimplify = sendStep(async function (
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
) {
	simplifyOn(this);
	return requestOptions;
});

export function simplifyField(keep: string[]): INodeProperties {
	async function simplify(
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		if (!simplifyOn(this)) return items;
		return items.map((item) => {
			const json: IDataObject = {};
			for (const key of keep) if (item.json[key] !== undefined) json[key] = item.json[key];
			return { ...item, json };
		});
	}
	return {
		...SIMPLIFY,
		description: `Whether to return only ${keep.join(', ')} instead of the whole record`,
		routing: { send: { preSend: [checkSimplify] }, output: { postReceive: [simplify] } },
	};
}
