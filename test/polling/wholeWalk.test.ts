/** When a walk of a list counts as whole, and what the trigger does when it is not (nock: answers no sandbox gives). */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src';
import { TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { emitted, poller } from './harness';

const api = { baseUrl: TEST_BASE_URL, keys: { admin: TEST_API_KEY } } as unknown as Sandbox;
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
