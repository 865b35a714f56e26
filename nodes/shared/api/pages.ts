import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import { ACTIVATION_LIST_MS, unreadableListError } from './activation';
import { systemClock } from './clock';
import type { BusinessOpsContext } from './context';
import { recordsOf } from './envelope';
import { faultError } from './toolErrors';
import { sendRequest, type CallOptions } from './transport';

/** The largest page size the API allows (spec 8). */
export const MAX_PAGE_SIZE = 100;

/** A walk never reads more pages than this, whatever the API says (a safety bound). */
const MAX_PAGES = 10_000;

/** Reads of a list that changes while it is read, before the reader gives up. */
const LIST_READS = 3;

/** Why a list could not be read: it did not end (in time), an answer contradicted itself, or the list kept changing. */
export type Unreadable = 'endless' | 'contradiction' | 'changed';

class UnreadableList extends ApplicationError {
	constructor(
		message: string,
		readonly why: Unreadable,
	) {
		super(message);
		this.name = 'UnreadableList';
	}
}

/** `meta` of a list answer (spec 2, "Response envelopes"). */
function metaOf(
	body: unknown,
): { total?: number; hasMore?: boolean; pageSize?: number } | undefined {
	const meta = (body as { meta?: unknown } | undefined)?.meta;
	return meta && typeof meta === 'object' ? meta : undefined;
}

function hasMorePages(body: unknown, readSoFar: number): boolean {
	const meta = metaOf(body);
	if (meta?.hasMore !== undefined) return meta.hasMore === true;
	return typeof meta?.total === 'number' && meta.total > readSoFar;
}

/** The page after `page`, or undefined when the answer says it was the last one (or has no `meta`). */
export function nextPageOf(body: unknown, page: number): number | undefined {
	const held = recordsOf(body).length;
	const size = metaOf(body)?.pageSize;
	return hasMorePages(body, (page - 1) * (typeof size === 'number' ? size : held) + held)
		? page + 1
		: undefined;
}

/** A walk: its records, the last page's answer, whether the list was read as it was (see `isWhole`), where an id repeated. */
interface Walk<R> {
	records: IDataObject[];
	last: R;
	whole: boolean;
	repeated?: number;
}

const idsOf = (records: IDataObject[]) =>
	records.flatMap((record) =>
		record.id === undefined || record.id === null ? [] : [String(record.id)],
	);

/** Whole: every page told the same `meta.total`, that many records came (unless cut at `maxResults`), no `id` twice. */
function isWhole(records: IDataObject[], totals: Set<number>, cut: boolean): boolean {
	const ids = idsOf(records);
	if (totals.size > 1 || new Set(ids).size < ids.length) return false;
	return cut || totals.size === 0 || totals.has(records.length);
}

/** A page that contradicts itself ends the walk with an error, never a loop or a silent partial list: ARCHITECTURE.md, "A paged read is whole, or it fails". */
export async function walkPages<R extends { body: unknown }>(
	fetchPage: (page: number) => Promise<R>,
	options: {
		maxResults?: number;
		readForMs?: number;
		startedAt?: number;
		stopAtRepeat?: boolean;
	} = {},
): Promise<Walk<R>> {
	const { maxResults, readForMs, startedAt = systemClock.now(), stopAtRepeat } = options;
	const records: IDataObject[] = [];
	const totals = new Set<number>();
	const ids = new Set<string>();
	for (let page = 1; ; page++) {
		if (page > MAX_PAGES)
			throw new UnreadableList(
				`The API kept announcing more pages after ${MAX_PAGES}; stopped reading the list`,
				'endless',
			);
		if (readForMs !== undefined && systemClock.now() - startedAt >= readForMs) {
			throw new UnreadableList(
				`The API's list still had more pages after ${Math.round(readForMs / 1000)} s of reading; stopped reading it`,
				'endless',
			);
		}
		const last = await fetchPage(page);
		const held = recordsOf(last.body);
		records.push(...held);
		const fresh = idsOf(held);
		if (stopAtRepeat && fresh.some((id) => ids.has(id)))
			return { records, last, whole: false, repeated: page };
		for (const id of fresh) ids.add(id);
		const meta = metaOf(last.body);
		const total = typeof meta?.total === 'number' ? meta.total : undefined;
		if (total !== undefined) totals.add(total);
		const cut = maxResults !== undefined && records.length >= maxResults;
		const more = hasMorePages(last.body, records.length);
		if (!cut && more && held.length === 0) {
			throw new UnreadableList(
				`The API answered page ${page} of the list with no records but said there were more; stopped reading the list`,
				'contradiction',
			);
		}
		if (!cut && meta?.hasMore === false && total !== undefined && total > records.length) {
			throw new UnreadableList(
				`The API's answer for page ${page} of the list contradicts itself: hasMore is false, but its total is ${total} and the pages up to it hold ${records.length}; stopped reading the list`,
				'contradiction',
			);
		}
		if (cut || !more) return { records, last, whole: isWhole(records, totals, cut) };
	}
}

/** Reads a list until it is whole: LIST_READS reads at most; two identical reads stand; a repeat seen alike twice is the API's. */
async function readUntilWhole<R extends { body: unknown }>(
	fetchPage: (page: number) => Promise<R>,
	walk: Parameters<typeof walkPages>[1],
): Promise<Walk<R>> {
	let before: string | undefined;
	for (let reads = 1; ; reads++) {
		const list = await walkPages(fetchPage, walk);
		if (list.whole) return list;
		const seen = JSON.stringify(list.records);
		const repeats =
			list.repeated && `the API answered page ${list.repeated} with records of an earlier page`;
		if (seen === before) {
			// the same records twice: the list did not change, so a repeat is the API's (a proxy that drops the query)
			if (repeats) {
				throw new UnreadableList(
					`The API answered page ${list.repeated} of the list with records of an earlier page, the same on 2 reads (a proxy or cache that drops the query string does this); stopped reading the list`,
					'contradiction',
				);
			}
			return { ...list, whole: true };
		}
		if (reads === LIST_READS) {
			throw new UnreadableList(
				`The list changed while it was read (records were created or deleted${repeats ? `; ${repeats}` : ''}); ${LIST_READS} reads tried`,
				'changed',
			);
		}
		before = seen;
	}
}

/** The one list reader. Without `maxResults`, or with `untilWhole`, the list is read until whole; with `maxResults` alone the one read's verdict goes to the caller. */
export async function readList(
	ctx: BusinessOpsContext,
	request: string | IHttpRequestOptions,
	read: { itemIndex?: number; maxResults?: number; untilWhole?: boolean; call?: CallOptions } = {},
): Promise<Walk<IN8nHttpFullResponse>> {
	const { itemIndex, maxResults, untilWhole = maxResults === undefined, call = {} } = read;
	const options =
		typeof request === 'string' ? { url: request, qs: { pageSize: MAX_PAGE_SIZE } } : request;
	const fetchPage = async (page: number) =>
		await sendRequest(
			ctx,
			{ ...options, method: 'GET', qs: { ...options.qs, page } },
			itemIndex,
			call,
		);
	const walk = {
		maxResults,
		readForMs: call.activation ? ACTIVATION_LIST_MS : undefined,
		startedAt: systemClock.now(),
		stopAtRepeat: untilWhole,
	};
	const reading = untilWhole ? readUntilWhole(fetchPage, walk) : walkPages(fetchPage, walk);
	return await reading.catch((error: unknown) => {
		if (!(error instanceof UnreadableList)) throw error;
		const what = `${error.message} (GET ${options.url})`;
		if (!call.activation)
			throw faultError(ctx.getNode(), {
				problem: what,
				target: `GET ${options.url}`,
				itemIndex,
				why: { kind: 'tellUser' },
			});
		throw unreadableListError(ctx.getNode(), what, error.why);
	});
}
