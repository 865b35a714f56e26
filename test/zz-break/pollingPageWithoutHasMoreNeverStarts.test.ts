/**
 * Breaker b29e (f29d's walkPages, seen from the polling trigger): the list has 250 contacts; page 1
 * says `hasMore: true, total: 250`, page 2 gives page, pageSize and total but no `hasMore`. The walk
 * now ends at the first page without `hasMore: true`: 200 of 250. The first poll then fails with
 * "The contacts list changed while the first poll read it, 3 times in a row" although nothing
 * changed, and so does every later poll: the trigger never starts. Before f29d the pages up to
 * `total` were read and the first poll succeeded.
 * Expected: the first poll remembers the 250 contacts (or fails naming the real cause, the answer).
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { poller } from '../polling/harness';

const api = { baseUrl: TEST_BASE_URL, keys: { admin: TEST_API_KEY } } as unknown as Sandbox;
const contacts: IDataObject[] = Array.from({ length: 250 }, (_, i) => ({
	id: `con_${String(i).padStart(16, '0')}`,
	name: `Klant ${i}`,
}));

beforeEach(() => {
	nock.cleanAll();
	forgetRateBudgets();
	fastClock();
});
afterEach(() => nock.cleanAll());

test('a middle page without hasMore: the first poll does not report a list that changed', async () => {
	nock(TEST_BASE_URL)
		.get('/contacts')
		.query(true)
		.reply((uri) => {
			const page = Number(new URL(uri, TEST_BASE_URL).searchParams.get('page'));
			const data = contacts.slice((page - 1) * 100, page * 100);
			const meta: IDataObject = { page, pageSize: 100, total: contacts.length };
			if (page !== 2) meta.hasMore = page * 100 < contacts.length;
			return [200, { data, meta }];
		})
		.persist();
	const p = poller(api, { events: ['contact.created'] }, TEST_API_KEY);
	expect(await p.poll()).toBeNull();
	// the first poll remembered all 250: the next one finds nothing new
	expect(await p.poll()).toBeNull();
});
