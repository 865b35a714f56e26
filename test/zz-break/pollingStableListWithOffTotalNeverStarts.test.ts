/**
 * ARCHITECTURE, "A paged read is whole, or it fails": two reads in a row that return the same
 * records stand ("an API whose totals disagree the same way every time"). Get Many takes such a
 * list. The polling trigger reads with `maxResults` (one read, its verdict), and its first poll wants
 * a read that is whole: a list that never changes but whose `total` is one less than the records its
 * pages give (every read the same) fails the first poll, "changed while the first poll read it,
 * 3 times in a row", on every poll: the trigger never starts, though nothing changed.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src';
import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { loadNodeType, runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { poller } from '../polling/harness';

const api = { baseUrl: TEST_BASE_URL, keys: { admin: TEST_API_KEY } } as unknown as Sandbox;
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
afterEach(() => nock.cleanAll());

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
