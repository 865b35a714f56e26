/** When a walk of a list counts as whole, and what the trigger does when it is not (nock: answers no sandbox gives). */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { poller } from './harness';

const api = { baseUrl: TEST_BASE_URL, keys: { admin: TEST_API_KEY } } as unknown as Sandbox;
const contacts: IDataObject[] = Array.from({ length: 150 }, (_, i) => ({ id: `con_${String(i).padStart(16, '0')}`, name: `Klant ${i}` }));

/** Answers /contacts from `contacts`; `total(page)` and `hasMore(page)` say what each page's meta claims. */
function answer(meta: { total?: (page: number) => number; hasMore?: (page: number) => boolean } = {}) {
	let requests = 0;
	nock(TEST_BASE_URL)
		.get('/contacts')
		.query(true)
		.reply((uri) => {
			requests++;
			const page = Number(new URL(uri, TEST_BASE_URL).searchParams.get('page'));
			const data = contacts.slice((page - 1) * 100, page * 100);
			const total = meta.total?.(page) ?? contacts.length;
			const hasMore = meta.hasMore?.(page) ?? page * 100 < contacts.length;
			return [200, { data, meta: { page, pageSize: 100, total, hasMore } }];
		})
		.persist();
	return () => requests;
}

beforeEach(() => {
	nock.cleanAll();
	forgetRateBudgets();
	fastClock();
});

test('a page whose hasMore says it is the last while its total says there are more fails the poll loudly, state unchanged', async () => {
	answer();
	const p = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
	expect(await p.poll()).toBeNull();
	const saved = JSON.stringify(p.staticData());
	nock.cleanAll();
	answer({ hasMore: () => false });
	await expect(p.poll()).rejects.toThrow('The API\'s answer for page 1 of /contacts contradicts itself: hasMore is false, but total is 150 and the pages up to it hold 100');
	expect(JSON.stringify(p.staticData())).toBe(saved);
});

test('the first poll reads a list again until a read is whole, and fails after 3 reads that are not, remembering nothing', async () => {
	let calls = 0;
	// the total seen on page 2 differs from page 1's on the first two reads: a record deleted during the walk
	const requests = answer({ total: (page) => (page === 2 && ++calls <= 2 ? 149 : 150) });
	const p = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
	expect(await p.poll()).toBeNull();
	expect(requests()).toBe(6); // three walks of two pages
	expect(JSON.stringify(p.staticData())).toContain('seen');

	nock.cleanAll();
	answer({ total: (page) => (page === 2 ? 149 : 150) });
	const fresh = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
	await expect(fresh.poll()).rejects.toThrow('The contacts list changed while the first poll read it, 3 times in a row');
	expect(fresh.staticData()).toEqual({});
});
