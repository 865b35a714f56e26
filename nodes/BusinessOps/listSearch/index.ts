import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchRecords } from './searchRecords';

function label(...parts: unknown[]): string {
	return parts.filter((part) => part !== undefined && part !== null && part !== '').join(' · ');
}

export async function searchContacts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchRecords(this, '/contacts', (c) => label(c.name, c.email), filter, paginationToken);
}

export async function searchQuotes(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchRecords(this, '/quotes', (q) => label(q.number, q.status, q.total), filter, paginationToken);
}

export async function searchInvoices(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchRecords(this, '/invoices', (i) => label(i.number, i.status, i.total), filter, paginationToken);
}

export async function searchAgents(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchRecords(this, '/agents', (a) => label(a.name, a.agentType, a.status), filter, paginationToken);
}

export async function searchAgentRuns(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const agentId = this.getNodeParameter('agentId', '', { extractValue: true }) as string;
	if (!agentId) return { results: [] };
	return await searchRecords(
		this,
		`/agents/${encodeURIComponent(agentId)}/runs`,
		(r: IDataObject) => label(r.id, r.status, r.startedAt ?? r.createdAt),
		filter,
		paginationToken,
	);
}

export async function searchRequests(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchRecords(this, '/requests', (r) => label(r.subject, r.fromEmail, r.status), filter, paginationToken);
}

export async function searchWebhooks(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchRecords(this, '/webhooks', (w) => label(w.name, w.url), filter, paginationToken);
}
