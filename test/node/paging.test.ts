import nock from 'nock';

import { runDeclarativeNode } from '../harness/engine';
import { walkPages } from '../../nodes/shared/api/pages';
import { API, node } from '../harness/actionNode';

const getAll = { resource: 'contact', operation: 'getAll', returnAll: true };

function page(n: number, size: number, total: number) {
	const first = (n - 1) * 100;
	const count = Math.max(0, Math.min(size, total - first));
	return {
		data: Array.from({ length: count }, (_, i) => ({ id: `c${first + i}` })),
		meta: { page: n, pageSize: 100, total, hasMore: first + count < total },
	};
}

/** Answers every GET /contacts with `answer` of its page number; the page numbers asked, in order. */
function servePages(answer: (n: number) => object): number[] {
	const sent: number[] = [];
	nock(API)
		.persist()
		.get('/v1/contacts')
		.query(true)
		.reply((uri) => {
			const n = Number(new URL(uri, API).searchParams.get('page'));
			sent.push(n);
			return [200, answer(n)];
		});
	return sent;
}

test('pages are read one after the other, in order, up to the last', async () => {
	const sent = servePages((n) => page(n, 100, 950));
	const { items } = await runDeclarativeNode(node, getAll);
	expect(items.map((i) => i.json.id)).toEqual(Array.from({ length: 950 }, (_, i) => `c${i}`));
	expect(sent).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test('a record added at the end while reading: the total changed, so the list is read again, whole', async () => {
	const grown = {
		...page(2, 100, 200),
		meta: { page: 2, pageSize: 100, total: 201, hasMore: true },
	};
	const last = {
		data: [{ id: 'c200' }],
		meta: { page: 3, pageSize: 100, total: 201, hasMore: false },
	};
	const scope = nock(API)
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, page(1, 100, 200))
		.get('/v1/contacts')
		.query({ page: 2, pageSize: 100 })
		.reply(200, grown)
		.get('/v1/contacts')
		.query({ page: 3, pageSize: 100 })
		.reply(200, last)
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, page(1, 100, 201))
		.get('/v1/contacts')
		.query({ page: 2, pageSize: 100 })
		.reply(200, page(2, 100, 201))
		.get('/v1/contacts')
		.query({ page: 3, pageSize: 100 })
		.reply(200, last);
	const { items } = await runDeclarativeNode(node, getAll);
	expect(items.map((i) => i.json.id)).toEqual(Array.from({ length: 201 }, (_, i) => `c${i}`));
	expect(scope.isDone()).toBe(true);
});

test('a page that fails fails the item, and no page beyond the total is asked for', async () => {
	nock(API)
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, page(1, 100, 300))
		.get('/v1/contacts')
		.query({ page: 2, pageSize: 100 })
		.reply(200, page(2, 100, 300))
		.get('/v1/contacts')
		.query({ page: 3, pageSize: 100 })
		.reply(404, { error: { code: 'not_found', message: 'Page gone' } });
	const error = await runDeclarativeNode(node, getAll).catch((e) => e);
	expect(error.message).toBe('Page gone (HTTP 404 not_found, GET /contacts) [item 0]');
	expect(nock.pendingMocks()).toEqual([]);
});

test('Limit reads only the pages it needs', async () => {
	const scope = nock(API)
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, page(1, 100, 1000))
		.get('/v1/contacts')
		.query({ page: 2, pageSize: 100 })
		.reply(200, page(2, 100, 1000));
	const { items } = await runDeclarativeNode(node, {
		resource: 'contact',
		operation: 'getAll',
		limit: 150,
	});
	expect(items).toHaveLength(150);
	expect(scope.isDone()).toBe(true);
});

test('pages with a total but no hasMore: the page that reaches the total is the last asked for', async () => {
	const noHasMore = (n: number) => {
		const { data, meta } = page(n, 100, 200);
		return { data, meta: { page: meta.page, pageSize: meta.pageSize, total: meta.total } };
	};
	const scope = nock(API)
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, noHasMore(1))
		.get('/v1/contacts')
		.query({ page: 2, pageSize: 100 })
		.reply(200, noHasMore(2));
	const { items } = await runDeclarativeNode(node, getAll);
	expect(items.map((i) => i.json.id)).toEqual(Array.from({ length: 200 }, (_, i) => `c${i}`));
	expect(scope.isDone()).toBe(true);
});

test("Limit empty (or an expression giving nothing): 50 records, the Limit's default", async () => {
	const sent: string[] = [];
	nock(API)
		.persist()
		.get('/v1/contacts')
		.query(true)
		.reply((uri) => {
			const query = new URL(uri, API).searchParams;
			sent.push(query.toString());
			return [200, page(Number(query.get('page')), 100, 1000)];
		});
	for (const limit of ['', '={{ undefined }}']) {
		sent.length = 0;
		const { items } = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'getAll',
			returnAll: false,
			limit,
		});
		expect(items).toHaveLength(50);
		expect(sent).toHaveLength(1);
	}
});

describe("the walker's verdict and its contradictions", () => {
	const answer = (ids: number[], meta: object) => ({
		body: { data: ids.map((id) => ({ id })), meta },
		response: undefined,
	});

	test.each([
		[
			'pages that all tell one total but hold more records than it: the read is not whole',
			[1, 2],
			[3],
			2,
		],
		[
			'an id read twice is not whole, even when the count agrees with the total (a record skipped)',
			[1, 2],
			[2],
			3,
		],
	])('%s', async (_title, first, second, total) => {
		const { records, whole } = await walkPages(async (n) =>
			n === 1
				? answer(first, { pageSize: 2, total, hasMore: true })
				: answer(second, { pageSize: 2, total, hasMore: false }),
		);
		expect(records).toHaveLength(3);
		expect(whole).toBe(false);
	});

	test('a list that keeps announcing more pages is read up to exactly 10,000 pages, then fails', async () => {
		let fetched = 0;
		await expect(
			walkPages(async (n) => {
				fetched = n;
				return answer([n], { pageSize: 1, hasMore: true });
			}),
		).rejects.toThrow('The API kept announcing more pages after 10000; stopped reading the list');
		expect(fetched).toBe(10_000);
	});

	test('an empty page without hasMore whose total says more ends with an error, not a walk to the page bound', async () => {
		const fetched: number[] = [];
		await expect(
			walkPages(async (n) => {
				fetched.push(n);
				return answer(n === 1 ? [1, 2] : [], { pageSize: 2, total: 6 });
			}),
		).rejects.toThrow(
			'The API answered page 2 of the list with no records but said there were more; stopped reading the list',
		);
		expect(fetched).toEqual([1, 2]);
	});
});

test('Return All: a page-1 total that overstates, the same on every read: the second read, alike, stands', async () => {
	const sent = servePages((n) =>
		n === 1
			? { ...page(1, 100, 150), meta: { page: 1, pageSize: 100, total: 1000, hasMore: true } }
			: page(2, 100, 150),
	);
	const { items } = await runDeclarativeNode(node, getAll);
	expect(items).toHaveLength(150);
	expect(sent).toEqual([1, 2, 1, 2]);
});
