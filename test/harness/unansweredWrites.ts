/**
 * What the unanswered-writes tests share (test/node/unansweredWrites*.test.ts): the action node
 * under Retry On Fail (Wait Between Tries 1000 ms on the harness clock), a stateful API whose writes
 * may go unanswered, and the network errors it throws.
 */
import { RoutingNode } from 'n8n-core';
import nock from 'nock';
import type { IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { API, node } from './actionNode';
import { realSleep } from './clock';
import { runWithRetries } from './engine';

/** The action node with Retry On Fail: `maxTries` tries, 1000 ms apart. */
export const retrying = (
	parameters: INodeParameters,
	items: INodeExecutionData[],
	onError?: INode['onError'],
	maxTries = 3,
) => runWithRetries(node, parameters, { items, maxTries, waitBetweenTries: 1000, onError });

export const outcomes = (tries: Array<{ error?: Error }>) =>
	tries.map((t) => (t.error ? 'failed' : 'succeeded'));

/** Contact → Create with each item's own name and email. */
export const contactCreate = {
	resource: 'contact',
	operation: 'create',
	name: '={{ $json.name }}',
	additionalFields: { email: '={{ $json.email }}' },
};

/** A name that fails to build for an item with `fail` set. */
export const FAILS_TO_BUILD = '={{ $json.fail ? $("Nope").item.json.x : $json.name }}';

export const networkError = (code: string, message: string) =>
	Object.assign(new Error(message), { code });

/** Resolves once `inFlight()` has stayed 0 a while (a test must not end while its requests still are). */
export async function settle(inFlight: () => number) {
	for (let quiet = 0; quiet < 5; quiet = inFlight() === 0 ? quiet + 1 : 0) await realSleep(50);
}

/**
 * What happens to a create: `ok`; `lost`: stored, then the connection reset; `dropped`: reset before
 * the API stored it; `gateway`: stored, then a gateway's 502 page; `gatewayJson`: stored, then a
 * gateway's 504 in JSON whose `error.code` is not one of the API's (spec 7 names `internal_error` as
 * the only 5xx code); `internal`: the API's 500, not stored; `internalStored`: the same 500 after it
 * stored it; `refused`, `unreachable`: the request never left (ECONNREFUSED, EHOSTUNREACH).
 */
export type Fate =
	| 'ok'
	| 'lost'
	| 'dropped'
	| 'gateway'
	| 'gatewayJson'
	| 'internal'
	| 'internalStored'
	| 'refused'
	| 'unreachable';

const INTERNAL = [500, { error: { code: 'internal_error', message: 'Something went wrong' } }];
const NOT_FOUND = [404, { error: { code: 'not_found', message: 'Not found' } }];

/**
 * A stateful API for contacts, quotes and requests, its lists paged as spec 8 says (`page`,
 * `pageSize`). `fate` decides each write (1-based); `store` turns a created body into the stored
 * record (what the API keeps of it); `beforePage` runs before each list page is answered (the world
 * moving); `resetRead` and `limitRead` (by the read's number) reset a list read or answer it 429.
 * Every write is logged as `METHOD /kind name-or-id`.
 */
export function writesApi(
	fate: (n: number) => Fate = () => 'ok',
	{
		delayMs = 0,
		store = (body: IDataObject) => body,
		beforePage = () => {},
		resetRead = () => false,
		limitRead = () => false,
	}: {
		delayMs?: number;
		store?: (b: IDataObject) => IDataObject;
		beforePage?: (kind: string, page: number) => void;
		resetRead?: (n: number) => boolean;
		limitRead?: (n: number) => boolean;
	} = {},
) {
	const records: Record<string, IDataObject[]> = { contacts: [], quotes: [], requests: [] };
	const writes: string[] = [];
	let inFlight = 0;
	let reads = 0;
	let limited = 0;
	const scope = nock(API).persist();
	scope.get(/^\/v1\/(contacts|quotes|requests)(\?.*)?$/).reply(async (uri) => {
		if (resetRead(++reads)) throw networkError('ECONNRESET', 'socket hang up');
		if (limitRead(reads)) {
			limited++;
			return [
				429,
				{ error: { code: 'rate_limited', message: 'Slow down' } },
				{ 'Retry-After': '1' },
			];
		}
		const url = new URL(uri, API);
		const kind = url.pathname.split('/')[2];
		const page = Number(url.searchParams.get('page') ?? 1);
		const size = Number(url.searchParams.get('pageSize') ?? 20);
		beforePage(kind, page);
		const list = records[kind];
		const data = list.slice((page - 1) * size, page * size);
		return [
			200,
			{
				data,
				meta: { page, pageSize: size, total: list.length, hasMore: page * size < list.length },
			},
		];
	});
	scope.post(/^\/v1\/(contacts|quotes|requests)$/).reply(async (uri, body) => {
		const kind = uri.split('/')[2];
		const sent = body as IDataObject;
		writes.push(`POST /${kind} ${String(sent.name ?? sent.subject ?? '')}`.trim());
		const chosen = fate(writes.length);
		inFlight++;
		await realSleep(delayMs).finally(() => inFlight--);
		if (chosen === 'refused') throw networkError('ECONNREFUSED', 'connect ECONNREFUSED');
		if (chosen === 'unreachable') throw networkError('EHOSTUNREACH', 'connect EHOSTUNREACH');
		if (chosen === 'dropped') throw networkError('ECONNRESET', 'socket hang up');
		if (chosen === 'internal') return INTERNAL;
		const record = { ...store(sent), id: `${kind.slice(0, 3)}_${records[kind].length + 1}` };
		records[kind].push(record);
		if (chosen === 'lost') throw networkError('ECONNRESET', 'socket hang up');
		if (chosen === 'gateway') return [502, '<html><body>502 Bad Gateway</body></html>'];
		if (chosen === 'gatewayJson')
			return [504, { error: { code: 504, message: 'upstream request timeout' } }];
		if (chosen === 'internalStored') return INTERNAL;
		return [201, { data: record }];
	});
	scope.get(/^\/v1\/contacts\/[^/?]+$/).reply((uri) => {
		const contact = records.contacts.find((c) => c.id === uri.split('/')[3]);
		return contact ? [200, { data: contact }] : NOT_FOUND;
	});
	scope.patch(/^\/v1\/contacts\/[^/?]+$/).reply((uri, body) => {
		const contact = records.contacts.find((c) => c.id === uri.split('/')[3]);
		if (!contact) return NOT_FOUND;
		writes.push(`PATCH /contacts ${String(contact.id)}`);
		return [200, { data: Object.assign(contact, body as IDataObject) }];
	});
	return {
		records,
		writes,
		settled: async () => await settle(() => inFlight),
		limited: () => limited,
	};
}

/**
 * A record at `path` whose status PATCH is answered with a reset the first time: after the API
 * applied it, or (`lostBeforeApplied`) before; `then` moves the record on once a PATCH is applied
 * (the customer). Each applied PATCH is an event `<kind>.<status>` (`invoice.sent`).
 */
export function statusApi(
	path: string,
	initial: IDataObject,
	then: (record: IDataObject) => void = () => {},
	lostBeforeApplied = false,
) {
	const record: IDataObject = { ...initial };
	const events: string[] = [];
	let patches = 0;
	nock(API)
		.persist()
		.get(path)
		.reply(() => [200, { data: record }]);
	nock(API)
		.persist()
		.patch(path)
		.reply(async (_uri, body) => {
			patches++;
			if (patches === 1 && lostBeforeApplied) throw networkError('ECONNRESET', 'socket hang up');
			Object.assign(record, body);
			events.push(`${path.split('/')[2].slice(0, -1)}.${String(record.status)}`);
			setImmediate(() => then(record));
			if (patches === 1) throw networkError('ECONNRESET', 'socket hang up');
			return [200, { data: record }];
		});
	return { record, events, patches: () => patches };
}

/**
 * Runs `body` with RoutingNode's item promises marked handled: when an item's expression fails,
 * RoutingNode throws out of its build loop and never awaits the items already on their way (n8n logs
 * them); jest would fail the test on those rejections. The promises RoutingNode keeps are the same.
 */
export async function withItemsLeftBehind<T>(body: () => Promise<T>): Promise<T> {
	type MakeRequest = (this: unknown, ...args: unknown[]) => Promise<unknown>;
	const proto = RoutingNode.prototype as unknown as { makeRequest: MakeRequest };
	const original = proto.makeRequest;
	const spy = jest.spyOn(proto, 'makeRequest').mockImplementation(function (
		this: unknown,
		...args
	) {
		const promise = original.apply(this, args);
		promise.catch(() => {});
		return promise;
	});
	try {
		return await body();
	} finally {
		spy.mockRestore();
	}
}
