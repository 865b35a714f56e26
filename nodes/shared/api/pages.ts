import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { ApplicationError, NodeOperationError } from 'n8n-workflow';

import { systemClock } from './clock';
import type { BusinessOpsContext } from './context';
import { recordsOf } from './envelope';
import { itemSuffix, PUBLISH_AGAIN } from './errors';
import { sendRequest, type CallOptions } from './transport';

/** The largest page size the API allows (spec 8). */
export const MAX_PAGE_SIZE = 100;

/** Pages of one list read requested at the same time once the first page told the total. */
const PAGE_CONCURRENCY = 4;

/** How long the trigger's activation reads one list, so that it ends well within n8n's deadline (84 s in n8n 2.41). */
export const ACTIVATION_LIST_MS = 30_000;

/** A walk never reads more pages than this, whatever the API says (a safety bound). */
const MAX_PAGES = 10_000;

/** A list the walker stopped reading: it did not end (in time), or a page said there were more and held none. */
export class UnreadableList extends ApplicationError {
	constructor(
		message: string,
		/** The list did not end: too many pages, or not within the time given. */
		readonly endless: boolean,
	) {
		super(message);
		this.name = 'UnreadableList';
	}
}

/** `meta` of a list answer (spec 2, "Response envelopes"). */
interface ListMeta {
	page?: number;
	pageSize?: number;
	total?: number;
	hasMore?: boolean;
}

function metaOf(body: unknown): ListMeta | undefined {
	const meta = (body as { meta?: unknown } | undefined)?.meta;
	return meta && typeof meta === 'object' ? (meta as ListMeta) : undefined;
}

/** The page after `page`, or undefined when the answer says it was the last one (or has no `meta`). */
export function nextPageOf(body: unknown, page: number): number | undefined {
	return metaOf(body)?.hasMore === true ? page + 1 : undefined;
}

/** A page that says there are more but holds no records would have the walk loop: it ends with an error. */
function throwIfEmptyButMore(body: unknown, page: number): void {
	if (recordsOf(body).length === 0 && nextPageOf(body, page) !== undefined) {
		throw new UnreadableList(
			`The API answered page ${page} of the list with no records but said there were more; stopped reading the list`,
			false,
		);
	}
}

export interface FetchedPage<R> {
	/** The decoded body of the answer. */
	body: unknown;
	/** Whatever the caller needs back of the last page (the full response, for instance). */
	response: R;
}

export interface WalkResult<R> {
	records: IDataObject[];
	/** What the fetcher returned for the last page read. */
	last: R;
	/** The `meta.total` of each page read, each value once (none: no page had `meta`). */
	totals: unknown[];
}

/**
 * The one page walker: every list read of both nodes goes through it.
 *
 * Reads page 1; when its `meta` gives the total, reads the remaining pages a few at a time and
 * keeps them in order, up to the first that is empty (`total` may overstate);
 * then follows `hasMore` one page at a time (records added while paging, or an
 * API that gives no totals). An answer without `meta` is the whole list (the spec does not say that
 * every list is paginated). Stops once `maxResults` records are in hand. A page that says there are
 * more but holds no records ends the walk with an error instead of looping, and so does a last
 * page that says there are no more while its own `total` says more than were read (never a silent
 * partial list). With `readForMs`, no page is asked for once that long has passed since the walk
 * began: the walk fails instead.
 */
export async function walkPages<R>(
	fetchPage: (page: number) => Promise<FetchedPage<R>>,
	options: { maxResults?: number; readForMs?: number } = {},
): Promise<WalkResult<R>> {
	const { maxResults, readForMs } = options;
	const records: IDataObject[] = [];
	const wantMore = () => maxResults === undefined || records.length < maxResults;
	const startedAt = systemClock.now();
	/** The walk's error before asking for `page`, when its time is up. */
	const outOfTime = (page: number) =>
		readForMs !== undefined && systemClock.now() - startedAt >= readForMs
			? new UnreadableList(`The API's list still had more pages after ${page - 1} read in ${Math.round(readForMs / 1000)} s; stopped reading it`, true)
			: undefined;

	const totals = new Set<unknown>();
	const counted = async (page: number) => {
		const one = await fetchPage(page);
		const meta = metaOf(one.body);
		if (meta) totals.add(meta.total);
		return one;
	};
	let fetched = await counted(1);
	records.push(...recordsOf(fetched.body));
	let page = 1;

	const meta = metaOf(fetched.body);
	const pageSize = Number(meta?.pageSize);
	const total = Number(meta?.total);
	if (meta?.hasMore === true && wantMore() && pageSize > 0 && total > pageSize) {
		const wanted = maxResults === undefined ? total : Math.min(total, maxResults);
		// `total` only guides: the first empty page ends the list.
		let end = Math.min(Math.ceil(wanted / pageSize), MAX_PAGES);
		const pages: Array<FetchedPage<R>> = [];
		const failures = new Map<number, unknown>();
		const failure = () => [...failures].filter(([p]) => p <= end).sort(([a], [b]) => a - b)[0];
		let next = 2;
		const worker = async () => {
			for (let p = next++; p <= end && failure() === undefined; p = next++) {
				const late = outOfTime(p);
				if (late) {
					failures.set(p, late);
					return;
				}
				try {
					pages[p] = await counted(p);
					// Only an empty page ends the list early: `hasMore` may be missing or contradict `total` on a page with records.
					if (p < end && recordsOf(pages[p].body).length === 0) end = p;
				} catch (error) {
					failures.set(p, error);
				}
			}
		};
		await Promise.all(Array.from({ length: Math.min(PAGE_CONCURRENCY, end - 1) }, worker));
		const failed = failure();
		if (failed !== undefined) throw failed[1];
		for (let p = 2; p <= end; p++) records.push(...recordsOf(pages[p].body));
		if (end > 1) fetched = pages[end];
		page = end;
		if (end > 1) throwIfEmptyButMore(fetched.body, end);
	}

	let next = nextPageOf(fetched.body, page);
	while (next !== undefined && wantMore()) {
		if (next > MAX_PAGES) {
			throw new UnreadableList(`The API kept announcing more pages after ${MAX_PAGES}; stopped reading the list`, true);
		}
		const late = outOfTime(next);
		if (late) throw late;
		const fetchedNext = await counted(next);
		throwIfEmptyButMore(fetchedNext.body, next);
		records.push(...recordsOf(fetchedNext.body));
		fetched = fetchedNext;
		page = next;
		next = nextPageOf(fetched.body, page);
	}
	const last = metaOf(fetched.body);
	if (wantMore() && last?.hasMore === false && typeof last.total === 'number' && last.total > records.length) {
		throw new UnreadableList(
			`The API's answer for page ${page} of the list contradicts itself: hasMore is false, but its total is ${last.total} and the pages up to it hold ${records.length}; stopped reading the list`,
			false,
		);
	}
	return { records, last: fetched.response, totals: [...totals] };
}

export interface ListRead {
	records: IDataObject[];
	/** The answer to the last page read. */
	last: IN8nHttpFullResponse;
	/** The `meta.total` of each page, each value once. */
	totals: unknown[];
}

/**
 * Every record of a list (up to `maxResults`): the one list reader of the package. `request` is
 * the list's path (read at the largest page size), or the request of a node's item as n8n built it
 * (its query, proxy, timeout); each page is one `sendRequest`, and the page walker above decides which
 * pages to read. While the trigger is published (`call.activation`) a list is read for
 * ACTIVATION_LIST_MS at most, and one that cannot be read says what to do in its message.
 */
export async function readList(
	ctx: BusinessOpsContext,
	request: string | IHttpRequestOptions,
	read: { itemIndex?: number; maxResults?: number; call?: CallOptions } = {},
): Promise<ListRead> {
	const { itemIndex, maxResults, call = {} } = read;
	const options = typeof request === 'string' ? { url: request, qs: { pageSize: MAX_PAGE_SIZE } } : request;
	const fetchPage = async (page: number) => {
		const answer = await sendRequest(ctx, { ...options, method: 'GET', qs: { ...options.qs, page } }, itemIndex, call);
		return { body: answer.body, response: answer };
	};
	const readForMs = call.activation ? ACTIVATION_LIST_MS : undefined;
	return await walkPages(fetchPage, { maxResults, readForMs }).catch((error: unknown) => {
		if (!(error instanceof UnreadableList)) throw error;
		const what = `${error.message} (GET ${options.url})`;
		if (!call.activation) throw new NodeOperationError(ctx.getNode(), `${what}${itemSuffix(itemIndex)}`, { itemIndex });
		const fix = error.endless
			? 'If the list really is that long, delete the entries nothing uses in the Business Ops dashboard; otherwise check that the Base URL in the Business Ops API credential points at the Business Ops API'
			: 'Check that the Base URL in the Business Ops API credential points at the Business Ops API (not a proxy or another service), and contact Business Ops support if it repeats';
		throw new NodeOperationError(ctx.getNode(), `${what}. ${fix}, ${PUBLISH_AGAIN}.`, {
			description: `While the workflow is published a list is read for ${ACTIVATION_LIST_MS / 1000} s at most, so that publishing ends within n8n's deadline.`,
		});
	});
}
