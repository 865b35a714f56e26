import type { INodeParameters, IDataObject } from 'n8n-workflow';
import nock from 'nock';
import { nodeType } from '../harness/description';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL, runListSearch } from '../harness/engine';
import { API, node } from '../harness/actionNode';

/**
 * docs/operations.md: "When every page comes back as page 1 (a proxy or cache that drops the query
 * string), the read fails after 4 requests saying so: check the Base URL." With Limit (not Return
 * All) the walker does not look for repeats: behind such a proxy every page is page 1 (at the API's
 * default page size, 25), so Limit 60 outputs contacts 1-25, then 1-25 again, then 1-10: 35 of the
 * 60 items are copies, and nothing says so. The walk has the ids in hand (a page repeating ids read
 * before is exactly what Return All fails on).
 */
describe('get many limit behind query dropping proxy repeats records', () => {
	test('Get Many with Limit behind a proxy that drops the query string: no record is output twice (or the read fails saying why)', async () => {
		const firstPage = Array.from({ length: 25 }, (_, i) => ({
			id: `ctc_${i + 1}`,
			name: `Contact ${i + 1}`,
		}));
		// the proxy drops ?page=…&pageSize=…: every answer is page 1 at the default page size
		nock('https://api.business-ops.test')
			.persist()
			.get('/v1/contacts')
			.query(true)
			.reply(200, { data: firstPage, meta: { page: 1, pageSize: 25, total: 80, hasMore: true } });
		const outcome = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'getAll',
			returnAll: false,
			limit: 60,
		}).catch((error: unknown) => error as Error);
		if (outcome instanceof Error) {
			expect(outcome.message).toMatch(/query string|earlier page/);
			return;
		}
		const ids = outcome.items.map((item) => String(item.json.id));
		expect(ids.length - new Set(ids).size).toBe(0);
	});
});

/** `count` contacts of page `n`. */
const records = (n: number, count: number) =>
	Array.from({ length: count }, (_, i) => ({ id: `c${(n - 1) * 100 + i}` }));
/** Page 1 of a list of 250 contacts, which says more follow. */
const firstOf250 = () =>
	nock(API)
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, {
			data: records(1, 100),
			meta: { page: 1, pageSize: 100, total: 250, hasMore: true },
		});

/**
 * Breaker b29e (f29d's walkPages): the concurrent phase now ends the list at the first page whose
 * `meta.hasMore` is not `true`. A page whose meta gives page, pageSize and total but no `hasMore`
 * (a reading the spec's envelope does not rule out for an API or proxy that drops the field; page 1
 * said `hasMore: true` and `total: 250`) ends it too: Get Many with Return All gives 200 of the 250
 * records, silently, no error. Before f29d the pages up to `total` were read (250 records).
 * Expected: every record up to total, or a loud error; never a silent partial list.
 */
describe('get many page without has more drops rest', () => {
	test('Return All: a middle page without hasMore does not silently end a list whose total says more', async () => {
		firstOf250()
			.get('/v1/contacts')
			.query({ page: 2, pageSize: 100 })
			.reply(200, { data: records(2, 100), meta: { page: 2, pageSize: 100, total: 250 } })
			.get('/v1/contacts')
			.query({ page: 3, pageSize: 100 })
			.reply(200, {
				data: records(3, 50),
				meta: { page: 3, pageSize: 100, total: 250, hasMore: false },
			});
		const { items } = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
		});
		// every page up to the total is read: all 250 records, once each, in order
		expect(items.map((item) => item.json.id)).toEqual(
			Array.from({ length: 250 }, (_, i) => `c${i}`),
		);
		expect(nock.pendingMocks()).toEqual([]);
	});
});

/**
 * Break b28a: Get Many's Return All given by an expression (a workflow's {{ $json.all }}, or an AI
 * model's $fromAI in tool mode). n8n shows every field whose display condition reads an expression,
 * so Limit stays in the request: its output cut (maxResults, default 50) then applies even when
 * Return All resolved to true, and only 50 of 350 records come back. And a Return All saved as the
 * text "false" hides Limit: the node then reads every page, ignoring Limit 5.
 * Issue 28: a boolean field reads true/false and the texts "true"/"false" as such; what the field's
 * check accepted is what the node acts on.
 */
describe('get many return all expression', () => {
	const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };
	const TOTAL = 350;
	function page(n: number) {
		const first = (n - 1) * 100;
		const count = Math.max(0, Math.min(100, TOTAL - first));
		return {
			data: Array.from({ length: count }, (_, i) => ({ id: `c${first + i}` })),
			meta: { page: n, pageSize: 100, total: TOTAL, hasMore: first + count < TOTAL },
		};
	}
	async function contactsRead(parameters: INodeParameters, value?: unknown): Promise<number> {
		nock(API)
			.persist()
			.get(/\/v1\/contacts/)
			.reply((uri) => [200, page(Number(new URL(uri, API).searchParams.get('page') ?? 1))]);
		const { items } = await runDeclarativeNode(
			nodeType,
			{ resource: 'contact', operation: 'getAll', ...parameters },
			{
				items: [{ json: { value } as INodeParameters }],
				credentials,
			},
		);
		return items.length;
	}
	test.each([true, 'true'])(
		'Return All from an expression giving %p returns every record',
		async (value) => {
			expect(await contactsRead({ returnAll: '={{ $json.value }}' }, value)).toBe(TOTAL);
		},
	);
	test('Return All from an expression giving true returns every record, whatever Limit holds', async () => {
		expect(await contactsRead({ returnAll: '={{ $json.value }}', limit: 5 }, true)).toBe(TOTAL);
	});
	test('Return All saved as the text "false" reads it as false: Limit 5 returns 5 records', async () => {
		expect(await contactsRead({ returnAll: 'false', limit: 5 })).toBe(5);
	});
});

/**
 * Breaker b29e (f29d's walkPages): the concurrent phase ends the list at the first page that says
 * `hasMore: false`, even when that very page's own `total` says there are more than the pages up to
 * it hold (page 2: 100 records, `total: 250`, `hasMore: false`). Get Many with Return All then gives
 * 200 records, silently. The polling trigger reads the same answer as a contradiction and fails
 * loudly ("contradicts itself"); before f29d Get Many read the pages up to total (250). f29d's
 * reason, a page-1 total that overstates, is told apart: there the last page's own total agrees with
 * what was read (test/trigger/activationWaits.test.ts, "trigger overstated list total fails publishing").
 * Expected: every record up to total, or a loud error; never a silent partial list. The sequential
 * walk gives the loud error, the same one the polling trigger gives for this answer.
 */
describe('get many self contradicting page ends list silently', () => {
	test('Return All: a page whose hasMore is false while its own total says more fails the item, naming the page', async () => {
		firstOf250()
			.get('/v1/contacts')
			.query({ page: 2, pageSize: 100 })
			.reply(200, {
				data: records(2, 100),
				meta: { page: 2, pageSize: 100, total: 250, hasMore: false },
			});
		const error = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
		}).then(
			() => undefined,
			(e: Error) => e,
		);
		expect(error?.message).toBe(
			"The API's answer for page 2 of the list contradicts itself: hasMore is false, but its total is 250 and the pages up to it hold 200; stopped reading the list (GET /contacts) [item 0]",
		);
		expect(nock.pendingMocks()).toEqual([]);
	});
});

/**
 * The proxy's move: a proxy or cache in front of the API drops the query string (or the API ignores
 * `page`), so every page request is answered with page 1, `hasMore: true`. From page 2 on every
 * record is one already read (the reader's own "no id twice"), yet the page walker keeps reading
 * until its MAX_PAGES safety bound: 10,000 requests per read (about 83 minutes at the default
 * 120 a minute, the credential's whole budget), then once more for each of the 3 reads.
 * Expected: a read whose pages repeat what was read stops early (a few pages) with an error.
 * The stub answers 400 after 60 requests so that the test ends.
 */
describe('list page ignored reads ten thousand pages', () => {
	test('Get Many, Return All, every page answered with page 1: fails within a few requests', async () => {
		const first: IDataObject[] = Array.from({ length: 100 }, (_, i) => ({
			id: `ctc_${i}`,
			name: `C${i}`,
		}));
		let requests = 0;
		nock(API)
			.persist()
			.get('/v1/contacts')
			.query(true)
			.reply(() => {
				requests++;
				if (requests > 60)
					return [400, { error: { code: 'stub_end', message: 'the test stub stopped answering' } }];
				return [200, { data: first, meta: { page: 1, pageSize: 100, total: 250, hasMore: true } }];
			});
		const error = (await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
		}).catch((e: unknown) => e)) as Error;
		expect(error).toBeInstanceOf(Error);
		expect(error.message).not.toContain('stub stopped answering');
		expect(error.message).toContain(
			'The API answered page 2 of the list with records of an earlier page, the same on 2 reads',
		);
		expect(requests).toBe(4); // two reads of pages 1 and 2
	});
});

/**
 * A record picker's "From list" loads the next page only when a page says `hasMore: true`
 * (nextPageOf). Get Many reads a page whose meta has no `hasMore` by its `total` ("while a page says
 * there are more (hasMore; without it, total)", pages.ts walkPages; see also
 * getManyPageWithoutHasMoreDropsRest). docs/operations.md: "the text typed into the list filters the
 * records loaded so far, one page of 100 at a time, so a match further down a long list shows only
 * after scrolling". With a meta of page, pageSize and total only, the picker never offers a second
 * page: contacts 101-250 cannot be picked from the list at all, while Get Many reads all 250.
 */
describe('picker list without has more stops at first page', () => {
	test('From list: a page whose meta says total 250 but no hasMore offers the next page, as Get Many reads it', async () => {
		const page1 = Array.from({ length: 100 }, (_, i) => ({
			id: `ctc_${i + 1}`,
			name: `Contact ${i + 1}`,
			email: `c${i + 1}@example.com`,
		}));
		nock('https://api.business-ops.test')
			.get('/v1/contacts')
			.query(true)
			.reply(200, { data: page1, meta: { page: 1, pageSize: 100, total: 250 } });
		const result = await runListSearch(node, 'searchContacts', {
			resource: 'contact',
			operation: 'get',
		});
		expect(result.results).toHaveLength(100);
		expect(result.paginationToken).toBe('2');
	});
});
