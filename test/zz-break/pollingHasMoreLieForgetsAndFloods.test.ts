/**
 * Breaker: a list answer whose `meta` contradicts itself (`hasMore: false` on page 1 while `total`
 * says 250 and the page holds 100) is taken as the whole list. The 150 records not read count as
 * missing; after two such polls they are forgotten, and the first correct answer emits every one
 * of them as `contact.created` although none is new. Expected: a contradictory answer fails the
 * poll loudly, naming the page, and changes nothing remembered; no old record is ever emitted as new.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { emitted, poller } from '../polling/harness';

beforeEach(() => {
	forgetRateBudgets();
	fastClock();
});

test('records a self-contradicting page did not show are not emitted as created once the API answers right', async () => {
	const contacts: IDataObject[] = Array.from({ length: 250 }, (_, i) => ({
		id: `con_${String(i).padStart(16, '0')}`,
		name: `Klant ${i}`,
		createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
	}));
	let lying = false;
	nock(TEST_BASE_URL)
		.get('/contacts')
		.query(true)
		.reply((uri) => {
			const page = Number(new URL(uri, TEST_BASE_URL).searchParams.get('page'));
			const data = contacts.slice((page - 1) * 100, page * 100);
			const hasMore = lying ? false : page * 100 < contacts.length;
			return [200, { data, meta: { page, pageSize: 100, total: contacts.length, hasMore } }];
		})
		.persist();
	const api = { baseUrl: TEST_BASE_URL, keys: { admin: TEST_API_KEY } } as unknown as Sandbox;
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
