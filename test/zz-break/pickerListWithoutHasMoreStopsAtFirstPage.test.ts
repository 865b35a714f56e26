/**
 * A record picker's "From list" loads the next page only when a page says `hasMore: true`
 * (nextPageOf). Get Many reads a page whose meta has no `hasMore` by its `total` ("while a page says
 * there are more (hasMore; without it, total)", pages.ts walkPages; see also
 * getManyPageWithoutHasMoreDropsRest). docs/operations.md: "the text typed into the list filters the
 * records loaded so far, one page of 100 at a time, so a match further down a long list shows only
 * after scrolling". With a meta of page, pageSize and total only, the picker never offers a second
 * page: contacts 101-250 cannot be picked from the list at all, while Get Many reads all 250.
 */
import nock from 'nock';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { loadNodeType, runListSearch } from '../harness/engine';

beforeEach(() => {
	forgetRateBudgets();
	fastClock();
});
afterEach(() => nock.cleanAll());

const node = loadNodeType(new BusinessOps());

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
