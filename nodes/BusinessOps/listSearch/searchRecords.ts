import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest, MAX_PAGE_SIZE } from '../shared/transport';

interface ListPage {
	data: IDataObject[];
	meta?: { hasMore?: boolean };
}

/**
 * One page of a list endpoint as resource-locator choices. The API has no text search, so the
 * filter matches the label and the ID within each page; the page number is the pagination token.
 */
export async function searchRecords(
	ctx: ILoadOptionsFunctions,
	path: string,
	label: (record: IDataObject) => string,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = paginationToken ? Number(paginationToken) : 1;
	const body = await apiRequest<ListPage>(ctx, 'GET', path, { qs: { page, pageSize: MAX_PAGE_SIZE } });
	const needle = filter?.trim().toLowerCase();
	const results = (body.data ?? [])
		.map((record) => ({ name: label(record), value: String(record.id) }))
		.filter((choice) => !needle || `${choice.name} ${choice.value}`.toLowerCase().includes(needle));
	return { results, paginationToken: body.meta?.hasMore ? String(page + 1) : undefined };
}
