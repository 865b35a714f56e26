/** The "From list" searches of the record pickers (`searchListMethod` in shared/pickers.ts). */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { recordsOf } from '../../shared/api/envelope';
import { MAX_PAGE_SIZE, nextPageOf } from '../../shared/api/pages';
import { apiRequest } from '../../shared/api/transport';

const label = (...parts: unknown[]) =>
	parts.filter((part) => part !== undefined && part !== null && part !== '').join(' · ');

/** The API has no text search, so the filter matches the label and the ID within each page; the page number is the pagination token. */
function searchList(
	path: string | ((ctx: ILoadOptionsFunctions) => string | undefined),
	labelOf: (record: IDataObject) => string,
) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		const listPath = typeof path === 'string' ? path : path(this);
		if (listPath === undefined) return { results: [] };
		const page = paginationToken ? Number(paginationToken) : 1;
		const body = await apiRequest<unknown>(this, 'GET', listPath, {
			qs: { page, pageSize: MAX_PAGE_SIZE },
			lane: 'editor',
		});
		const needle = filter?.trim().toLowerCase();
		const results = recordsOf(body)
			.map((record) => ({ name: labelOf(record), value: String(record.id) }))
			.filter(
				(choice) => !needle || `${choice.name} ${choice.value}`.toLowerCase().includes(needle),
			);
		const next = nextPageOf(body, page);
		return { results, paginationToken: next === undefined ? undefined : String(next) };
	};
}

function runsOfChosenAgent(ctx: ILoadOptionsFunctions): string | undefined {
	const agentId = ctx.getNodeParameter('agentId', '', { extractValue: true }) as string;
	return agentId ? `/agents/${encodeURIComponent(agentId)}/runs` : undefined;
}

export const searchContacts = searchList('/contacts', (c) => label(c.name, c.email));
export const searchQuotes = searchList('/quotes', (q) => label(q.number, q.status, q.total));
export const searchInvoices = searchList('/invoices', (i) => label(i.number, i.status, i.total));
export const searchAgents = searchList('/agents', (a) => label(a.name, a.agentType, a.status));
export const searchAgentRuns = searchList(runsOfChosenAgent, (r) =>
	label(r.id, r.status, r.startedAt ?? r.createdAt),
);
export const searchRequests = searchList('/requests', (r) =>
	label(r.subject, r.fromEmail, r.status),
);
export const searchWebhooks = searchList('/webhooks', (w) => label(w.name, w.url));
