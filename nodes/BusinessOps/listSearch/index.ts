/** The "From list" searches of the record pickers (`searchListMethod` in shared/pickers.ts). */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchRecords } from './searchRecords';

function label(...parts: unknown[]): string {
	return parts.filter((part) => part !== undefined && part !== null && part !== '').join(' · ');
}

type ListSearch = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/**
 * A list search over the list at `path` (or the path `pathOf` gives for the node's current
 * parameters; undefined there means there is nothing to list yet), labelled by `labelOf`.
 */
function searchList(
	path: string | ((ctx: ILoadOptionsFunctions) => string | undefined),
	labelOf: (record: IDataObject) => string,
): ListSearch {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const listPath = typeof path === 'string' ? path : path(this);
		if (listPath === undefined) return { results: [] };
		return await searchRecords(this, listPath, labelOf, filter, paginationToken);
	};
}

/** The runs of the agent chosen in the Agent field. */
function runsOfChosenAgent(ctx: ILoadOptionsFunctions): string | undefined {
	const agentId = ctx.getNodeParameter('agentId', '', { extractValue: true }) as string;
	return agentId ? `/agents/${encodeURIComponent(agentId)}/runs` : undefined;
}

export const searchContacts = searchList('/contacts', (c) => label(c.name, c.email));
export const searchQuotes = searchList('/quotes', (q) => label(q.number, q.status, q.total));
export const searchInvoices = searchList('/invoices', (i) => label(i.number, i.status, i.total));
export const searchAgents = searchList('/agents', (a) => label(a.name, a.agentType, a.status));
export const searchAgentRuns = searchList(runsOfChosenAgent, (r) => label(r.id, r.status, r.startedAt ?? r.createdAt));
export const searchRequests = searchList('/requests', (r) => label(r.subject, r.fromEmail, r.status));
export const searchWebhooks = searchList('/webhooks', (w) => label(w.name, w.url));
