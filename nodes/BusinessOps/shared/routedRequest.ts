import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import { MAX_PAGE_SIZE, sendRequest } from './transport';

interface ListMeta {
	page: number;
	pageSize: number;
	total: number;
	hasMore: boolean;
}

interface Envelope {
	data?: IDataObject | IDataObject[];
	meta?: ListMeta;
}

function lastPathSegment(url: string | undefined): string {
	return decodeURIComponent((url ?? '').split('?')[0].split('/').filter(Boolean).pop() ?? '');
}

function toItems(body: Envelope, options: IHttpRequestOptions): IDataObject[] {
	if (options.method === 'DELETE') {
		const data = body?.data as IDataObject | undefined;
		return [{ deleted: true, id: data?.id ?? lastPathSegment(options.url) }];
	}
	const data = body?.data;
	if (Array.isArray(data)) return data;
	if (data && typeof data === 'object') return [data];
	return [];
}

/** Pages of one list read requested at the same time once the first page told the total. */
const PAGE_CONCURRENCY = 4;

/**
 * Executes every request the declarative node builds. RoutingNode hands a request to
 * `requestOperations.pagination` whenever `paginate` is set, which every operation sets
 * (see `routeThroughTransport`), so this is the one place that sends the node's requests:
 * through the shared transport (retries, errors), following list pages, and unwrapping the
 * `{ data, meta }` envelope before the operation's own `postReceive` functions run.
 */
export async function executeRoutedRequest(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const options = requestData.options as IHttpRequestOptions;
	const itemIndex = this.getItemIndex();
	const maxResults = requestData.maxResults === undefined ? undefined : Number(requestData.maxResults);
	const isList = options.method === 'GET' && options.qs?.pageSize !== undefined;

	const records: IDataObject[] = [];
	const pageOptions = (page: number) => (isList ? { ...options, qs: { ...options.qs, page } } : options);
	const wantMore = () => maxResults === undefined || records.length < maxResults;

	let response = await sendRequest(this, pageOptions(1), itemIndex);
	let body = response.body as Envelope;
	records.push(...toItems(body, options));
	let page = 1;

	// The first page tells how many pages there are: fetch the rest a few at a time, in order.
	const meta = body?.meta;
	if (isList && meta?.hasMore && wantMore() && meta.pageSize > 0 && meta.total > meta.pageSize) {
		const wanted = maxResults === undefined ? meta.total : Math.min(meta.total, maxResults);
		const lastPage = Math.ceil(wanted / meta.pageSize);
		const pages: IDataObject[][] = [];
		const answers: IN8nHttpFullResponse[] = [];
		let next = 2;
		let failure: unknown;
		const worker = async () => {
			while (failure === undefined && next <= lastPage) {
				const p = next++;
				try {
					answers[p] = await sendRequest(this, pageOptions(p), itemIndex);
					pages[p] = toItems(answers[p].body as Envelope, options);
				} catch (error) {
					failure ??= error;
				}
			}
		};
		await Promise.all(Array.from({ length: Math.min(PAGE_CONCURRENCY, lastPage - 1) }, worker));
		if (failure !== undefined) throw failure;
		for (let p = 2; p <= lastPage; p++) records.push(...pages[p]);
		response = answers[lastPage];
		body = response.body as Envelope;
		page = lastPage;
	}
	// Records added while paging (or an API without totals): follow hasMore one page at a time.
	while (isList && body?.meta?.hasMore && wantMore()) {
		page++;
		response = await sendRequest(this, pageOptions(page), itemIndex);
		body = response.body as Envelope;
		records.push(...toItems(body, options));
	}

	let items: INodeExecutionData[] = records.map((json) => ({ json }));
	for (const { actions } of requestData.postReceive) {
		for (const action of actions) {
			if (typeof action !== 'function') {
				throw new ApplicationError(
					'Business Ops operations declare postReceive steps as functions: the envelope is unwrapped by executeRoutedRequest',
				);
			}
			items = await action.call(this, items, response);
		}
	}
	return items;
}

/** The routing that sends an operation's request through executeRoutedRequest. */
export const routeThroughTransport = { send: { paginate: true } } as const;

export { MAX_PAGE_SIZE };
