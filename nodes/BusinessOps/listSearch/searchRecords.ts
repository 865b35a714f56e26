import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { recordsOf } from '../../shared/api/envelope';
import { MAX_PAGE_SIZE, nextPageOf } from '../../shared/api/pages';
import { apiRequest } from '../../shared/api/transport';

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
	const body = await apiRequest<unknown>(ctx, 'GET', path, { qs: { page, pageSize: MAX_PAGE_SIZE }, lane: 'editor' });
	const needle = filter?.trim().toLowerCase();
	const results = recordsOf(body)
		.map((record) => ({ name: label(record), value: String(record.id) }))
		.filter((choice) => !needle || `${choice.name} ${choice.value}`.toLowerCase().includes(needle));
	const next = nextPageOf(body, page);
	return { results, paginationToken: next === undefined ? undefined : String(next) };
}
