import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';
import { createHash } from 'node:crypto';
import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import type { Sandbox } from '../../sandbox/src';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { TEST_API_KEY, TEST_BASE_URL, loadNodeType, runDeclarativeNode } from '../harness/engine';
import { emitted, poller } from './harness';

/** The API at TEST_BASE_URL (nock), as a sandbox for the poller. */
const api = { baseUrl: TEST_BASE_URL, keys: { admin: TEST_API_KEY } } as unknown as Sandbox;

/** GET /contacts answering `contacts` in pages of 100, `meta.hasMore` as `hasMore` says (left out when undefined). */
function pagesOf(contacts: IDataObject[], hasMore: (page: number) => boolean | undefined) {
	nock(TEST_BASE_URL)
		.get('/contacts')
		.query(true)
		.reply((uri) => {
			const page = Number(new URL(uri, TEST_BASE_URL).searchParams.get('page'));
			const data = contacts.slice((page - 1) * 100, page * 100);
			const meta: IDataObject = { page, pageSize: 100, total: contacts.length };
			if (hasMore(page) !== undefined) meta.hasMore = hasMore(page);
			return [200, { data, meta }];
		})
		.persist();
}

/**
 * Breaker: a list answer whose `meta` contradicts itself (`hasMore: false` on page 1 while `total`
 * says 250 and the page holds 100) is taken as the whole list. The 150 records not read count as
 * missing; after two such polls they are forgotten, and the first correct answer emits every one
 * of them as `contact.created` although none is new. Expected: a contradictory answer fails the
 * poll loudly, naming the page, and changes nothing remembered; no old record is ever emitted as new.
 */
describe('polling has more lie forgets and floods', () => {
	test('records a self-contradicting page did not show are not emitted as created once the API answers right', async () => {
		const contacts: IDataObject[] = Array.from({ length: 250 }, (_, i) => ({
			id: `con_${String(i).padStart(16, '0')}`,
			name: `Klant ${i}`,
			createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
		}));
		let lying = false;
		pagesOf(contacts, (page) => (lying ? false : page * 100 < contacts.length));
		const p = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
		expect(await p.poll()).toBeNull(); // baseline: all 250

		const remembered = JSON.stringify(p.staticData());

		lying = true;
		for (let i = 0; i < 2; i++) {
			await expect(p.poll()).rejects.toThrow(
				"The API's answer for page 1 of the list contradicts itself: hasMore is false, but its total is 250 and the pages up to it hold 100; stopped reading the list (GET /contacts)",
			);
			expect(JSON.stringify(p.staticData())).toBe(remembered); // nothing forgotten, nothing marked missing
		}
		lying = false;
		expect(emitted(await p.poll())).toEqual([]); // no contact was created
	});
});

/**
 * Breaker b29e (f29d's walkPages, seen from the polling trigger): the list has 250 contacts; page 1
 * says `hasMore: true, total: 250`, page 2 gives page, pageSize and total but no `hasMore`. The walk
 * now ends at the first page without `hasMore: true`: 200 of 250. The first poll then fails with
 * "The contacts list changed while the first poll read it, 3 times in a row" although nothing
 * changed, and so does every later poll: the trigger never starts. Before f29d the pages up to
 * `total` were read and the first poll succeeded.
 * Expected: the first poll remembers the 250 contacts (or fails naming the real cause, the answer).
 */
describe('polling page without has more never starts', () => {
	const contacts: IDataObject[] = Array.from({ length: 250 }, (_, i) => ({
		id: `con_${String(i).padStart(16, '0')}`,
		name: `Klant ${i}`,
	}));
	test('a middle page without hasMore: the first poll does not report a list that changed', async () => {
		pagesOf(contacts, (page) => (page !== 2 ? page * 100 < contacts.length : undefined));
		const p = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
		expect(await p.poll()).toBeNull();
		// the first poll remembered all 250: the next one finds nothing new
		expect(await p.poll()).toBeNull();
	});
});

/**
 * ARCHITECTURE, "A paged read is whole, or it fails": two reads in a row that return the same
 * records stand ("an API whose totals disagree the same way every time"). Get Many takes such a
 * list. The polling trigger reads with `maxResults` (one read, its verdict), and its first poll wants
 * a read that is whole: a list that never changes but whose `total` is one less than the records its
 * pages give (every read the same) fails the first poll, "changed while the first poll read it,
 * 3 times in a row", on every poll: the trigger never starts, though nothing changed.
 */
describe('polling stable list with off total never starts', () => {
	const contacts: IDataObject[] = Array.from({ length: 150 }, (_, i) => ({
		id: `con_${String(i).padStart(16, '0')}`,
		name: `Klant ${i}`,
	}));
	beforeEach(() => {
		nock.cleanAll();
		forgetRateBudgets();
		fastClock();
		nock(TEST_BASE_URL)
			.get('/contacts')
			.query(true)
			.reply((uri) => {
				const page = Number(new URL(uri, TEST_BASE_URL).searchParams.get('page'));
				// the total leaves out one record the pages show (the same on every read)
				return [
					200,
					{
						data: contacts.slice((page - 1) * 100, page * 100),
						meta: { page, pageSize: 100, total: 149, hasMore: page * 100 < 150 },
					},
				];
			})
			.persist();
	});
	test('Get Many takes the stable list (two identical reads stand)', async () => {
		const { items } = await runDeclarativeNode(loadNodeType(new BusinessOps()), {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
		});
		expect(items).toHaveLength(150);
	});
	test('the polling trigger starts on the same stable list', async () => {
		const p = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
		expect(await p.poll()).toBeNull();
		expect(await p.poll()).toBeNull();
	});
});

/** Every read of the list at `path` shows one record: `record()` at the time of the read. */
const listsOnly = (path: string, record: () => IDataObject) =>
	nock(TEST_BASE_URL)
		.get(path)
		.query(true)
		.reply(() => [
			200,
			{ data: [record()], meta: { page: 1, pageSize: 100, total: 1, hasMore: false } },
		])
		.persist();

/**
 * Breaker: the spec lists no `createdAt` or `updatedAt` on quotes (section 2), so an API whose
 * list records carry neither is a reasonable reading. The trigger then builds the event `id` and
 * `deliveryId` from the poll's own time, so the same change seen again (n8n stopped before it saved
 * the state of the poll that emitted it, and the next poll emits it again) gets a different id and
 * a downstream dedupe on `id` lets it through twice. The same happens with timestamps present:
 * a status event's id is built from `updatedAt`, which any later edit (not a status change) moves.
 * docs/polling.md: "`id` and `deliveryId` … the same whenever the same change is seen".
 */
describe('polling event id unstable without timestamps', () => {
	beforeEach(() => {
		forgetRateBudgets();
		fastClock();
		jest.useFakeTimers({
			doNotFake: [
				'hrtime',
				'nextTick',
				'performance',
				'queueMicrotask',
				'setImmediate',
				'clearImmediate',
				'setInterval',
				'clearInterval',
				'setTimeout',
				'clearTimeout',
			],
		});
	});
	afterEach(() => jest.useRealTimers());
	test('the same status change seen again gives the same event id when the list shows no timestamps', async () => {
		let quote: IDataObject = { id: 'quo_1', number: 'OFF-1', status: 'sent', total: 10 };
		listsOnly('/quotes', () => quote);
		const p = poller(api, { events: ['quote.approved'] }, TEST_API_KEY);

		jest.setSystemTime(new Date('2026-11-25T08:00:00Z'));
		expect(await p.poll()).toBeNull();
		const saved = JSON.parse(JSON.stringify(p.staticData())) as IDataObject;

		quote = { ...quote, status: 'approved' };
		jest.setSystemTime(new Date('2026-11-25T08:01:00Z'));
		const first = (await p.poll())![0][0].json;

		// n8n stopped before it saved the state of that poll: the next poll sees the same change again
		Object.assign(p.staticData(), saved);
		jest.setSystemTime(new Date('2026-11-25T08:02:00Z'));
		const again = (await p.poll())![0][0].json;

		expect(again.type).toBe('quote.approved');
		expect(again.id).toBe(first.id);
		expect(again.deliveryId).toBe(first.deliveryId);
	});
	test('the same status change seen again gives the same event id after an edit that is no status change', async () => {
		let invoice: IDataObject = {
			id: 'inv_1',
			number: 'F-1',
			status: 'sent',
			total: 10,
			createdAt: '2026-11-01T00:00:00.000Z',
			updatedAt: '2026-11-20T00:00:00.000Z',
		};
		listsOnly('/invoices', () => invoice);
		const p = poller(api, { events: ['invoice.paid'] }, TEST_API_KEY);
		expect(await p.poll()).toBeNull();
		const saved = JSON.parse(JSON.stringify(p.staticData())) as IDataObject;

		invoice = { ...invoice, status: 'paid', updatedAt: '2026-11-25T08:00:30.000Z' };
		const first = (await p.poll())![0][0].json;

		// n8n stopped before it saved that poll's state; meanwhile someone edited the paid invoice's total
		Object.assign(p.staticData(), saved);
		invoice = { ...invoice, total: 11, updatedAt: '2026-11-25T08:01:30.000Z' };
		const again = (await p.poll())![0][0].json;

		expect(again.type).toBe('invoice.paid');
		expect(again.id).toBe(first.id);
	});
});

/**
 * Breaker: the state remembers a record by 48 bits of a hash of its id, and the walk itself
 * (uniqueRecords) merges records by that hash. Two different ids with the same 48-bit hash (found
 * by a birthday search over ids of the API's own shape: `quo_` + 16 characters) are one record to
 * the trigger: a new quote whose id collides with a remembered one is never emitted as
 * `quote.created`, and of two colliding quotes in one list only one is ever looked at. The promise
 * is "nothing lost"; ids must be told apart exactly (or a collision detected and failed loudly).
 */
describe('polling id hash collision', () => {
	const A = 'quo_000000000000kiv5';
	const B = 'quo_000000000002KNeb';
	test('two quotes whose ids share a 48-bit hash are two records: the second one is emitted as created', async () => {
		expect(A).not.toBe(B);
		const key48 = (id: string) => createHash('sha256').update(id).digest('base64url').slice(0, 8);
		expect(key48(A)).toBe(key48(B)); // the premise: the first 48 bits of SHA-256 (what the state keeps) collide

		const quote = (id: string, at: string): IDataObject => ({
			id,
			number: id,
			status: 'draft',
			total: 10,
			createdAt: at,
			updatedAt: at,
		});
		let quotes: IDataObject[] = [quote(A, '2026-11-25T08:00:00.000Z')];
		nock(TEST_BASE_URL)
			.get('/quotes')
			.query(true)
			.reply(() => [
				200,
				{ data: quotes, meta: { page: 1, pageSize: 100, total: quotes.length, hasMore: false } },
			])
			.persist();
		const p = poller(api, { events: ['quote.created', 'quote.approved'] }, TEST_API_KEY);
		expect(await p.poll()).toBeNull(); // baseline: A

		quotes = [...quotes, quote(B, '2026-11-25T08:05:00.000Z')];
		const afterCreate = emitted(await p.poll());
		quotes = quotes.map((q) =>
			q.id === B ? { ...q, status: 'approved', updatedAt: '2026-11-25T08:06:00.000Z' } : q,
		);
		const afterApprove = emitted(await p.poll());

		expect(afterCreate).toEqual([['quote.created', B]]);
		expect(afterApprove).toEqual([['quote.approved', B]]);
	});
});

describe('when a walk of a list counts as whole', () => {
	/** When a walk of a list counts as whole, and what the trigger does when it is not (nock: answers no sandbox gives). */
	const contacts: IDataObject[] = Array.from({ length: 150 }, (_, i) => ({
		id: `con_${String(i).padStart(16, '0')}`,
		name: `Klant ${i}`,
	}));

	/**
	 * Answers /contacts from `contacts`; `total(page)` and `hasMore(page)` say what each page's meta
	 * claims; `deleted(read)` records of page 1 are gone when page 2 of that read is asked for (read 1, 2, …).
	 */
	function answer(
		meta: {
			total?: (page: number) => number;
			hasMore?: (page: number) => boolean;
			deleted?: (read: number) => number;
		} = {},
	) {
		let requests = 0;
		let read = 0;
		nock(TEST_BASE_URL)
			.get('/contacts')
			.query(true)
			.reply((uri) => {
				requests++;
				const page = Number(new URL(uri, TEST_BASE_URL).searchParams.get('page'));
				if (page === 1) read++;
				const gone = page === 2 ? (meta.deleted?.(read) ?? 0) : 0;
				const data = contacts.slice((page - 1) * 100 + gone, page * 100 + gone);
				const total = meta.total?.(page) ?? contacts.length - gone;
				const hasMore = meta.hasMore?.(page) ?? page * 100 < contacts.length;
				return [200, { data, meta: { page, pageSize: 100, total, hasMore } }];
			})
			.persist();
		return () => requests;
	}

	test('a page whose hasMore says it is the last while its total says there are more fails the poll loudly, state unchanged', async () => {
		answer();
		const p = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
		expect(await p.poll()).toBeNull();
		const saved = JSON.stringify(p.staticData());
		nock.cleanAll();
		answer({ hasMore: () => false });
		await expect(p.poll()).rejects.toThrow(
			"The API's answer for page 1 of the list contradicts itself: hasMore is false, but its total is 150 and the pages up to it hold 100; stopped reading the list (GET /contacts)",
		);
		expect(JSON.stringify(p.staticData())).toBe(saved);
	});

	test('the first poll reads a list again until a read is whole, and fails after 3 reads that are not, remembering nothing', async () => {
		// on the first two reads a record of page 1 is deleted after page 1 was read (page 2's total differs, its records shift)
		const requests = answer({ deleted: (read) => (read <= 2 ? read : 0) });
		const p = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
		expect(await p.poll()).toBeNull();
		expect(requests()).toBe(6); // three walks of two pages
		expect(JSON.stringify(p.staticData())).toContain('seen');

		nock.cleanAll();
		answer({ deleted: (read) => read });
		const fresh = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
		await expect(fresh.poll()).rejects.toThrow(
			'The list changed while it was read (records were created or deleted); 3 reads tried (GET /contacts)',
		);
		expect(fresh.staticData()).toEqual({});
	});

	test('the first poll gives up after exactly 3 reads that are not whole', async () => {
		const requests = answer({ deleted: (read) => read });
		const p = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
		await expect(p.poll()).rejects.toThrow(
			'The list changed while it was read (records were created or deleted); 3 reads tried (GET /contacts)',
		);
		expect(requests()).toBe(6); // three walks of two pages, not one more
		expect(p.staticData()).toEqual({});
	});

	/**
	 * Serves a list of 150 records, page by page, as `walk` says for the poll now: `honest` cuts the
	 * pages from `rows`; a test sets its own pages for a walk that changes under the poll.
	 */
	function serve(path: string) {
		const state: { pages?: Array<{ data: IDataObject[]; total: number }>; rows: IDataObject[] } = {
			rows: [],
		};
		nock(TEST_BASE_URL)
			.get(path)
			.query(true)
			.reply((uri) => {
				const page = Number(new URL(uri, TEST_BASE_URL).searchParams.get('page'));
				const cut = state.pages?.[page - 1] ?? {
					data: state.rows.slice((page - 1) * 100, page * 100),
					total: state.rows.length,
				};
				return [
					200,
					{
						data: cut.data,
						meta: { page, pageSize: 100, total: cut.total, hasMore: page * 100 < cut.total },
					},
				];
			})
			.persist();
		return state;
	}

	const WATCHED = [
		{ list: 'contacts', path: '/contacts', prefix: 'con', events: ['contact.created'], fields: {} },
		{
			list: 'invoices',
			path: '/invoices',
			prefix: 'inv',
			events: ['invoice.created', 'invoice.paid'],
			fields: { status: 'paid' },
		},
	] as const;

	describe.each(WATCHED)(
		'$list: a walk that looks whole yet skipped a record',
		({ path, prefix, events, fields }) => {
			const record = (name: string): IDataObject => ({
				id: `${prefix}_${name.padStart(16, '0')}`,
				...fields,
			});
			const old = Array.from({ length: 150 }, (_, i) => record(String(i)));
			const fresh = record('new');
			const createdEvents = (r: IDataObject) => events.map((type) => [type, String(r.id)]);

			test('one record deleted and one created during a walk: the record it skipped is kept, and not emitted when the next walk reads it', async () => {
				const state = serve(path);
				state.rows = old;
				const p = poller(api, { events: [...events] }, TEST_API_KEY);
				expect(await p.poll()).toBeNull();

				// Page 1 read; then old[5] deleted and `fresh` created at the end: old[100] moves to page 1
				// after it was read. Every page says 150, and the walk read 150 different records.
				const now = [...old.slice(0, 5), ...old.slice(6), fresh];
				state.pages = [
					{ data: old.slice(0, 100), total: 150 },
					{ data: now.slice(100, 200), total: 150 },
				];
				expect(emitted(await p.poll())).toEqual(createdEvents(fresh));

				state.pages = undefined;
				state.rows = now;
				expect(emitted(await p.poll())).toEqual([]); // old[100] is no new record, and its payment no new payment
			});

			test('a walk that read one record twice and skipped another is not whole, however its total and count agree', async () => {
				const state = serve(path);
				state.rows = old;
				const p = poller(api, { events: [...events] }, TEST_API_KEY);
				expect(await p.poll()).toBeNull();

				// Page 2 starts again with old[99] and lacks old[100]: 150 different records, 151 read.
				state.pages = [
					{ data: old.slice(0, 100), total: 150 },
					{ data: [old[99], ...old.slice(101), fresh], total: 150 },
				];
				expect(emitted(await p.poll())).toEqual(createdEvents(fresh));
				expect(await p.poll()).toBeNull();

				state.pages = undefined;
				state.rows = [...old, fresh];
				expect(emitted(await p.poll())).toEqual([]);
			});
		},
	);
});
