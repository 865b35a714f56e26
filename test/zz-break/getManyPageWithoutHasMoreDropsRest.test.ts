/**
 * Breaker b29e (f29d's walkPages): the concurrent phase now ends the list at the first page whose
 * `meta.hasMore` is not `true`. A page whose meta gives page, pageSize and total but no `hasMore`
 * (a reading the spec's envelope does not rule out for an API or proxy that drops the field; page 1
 * said `hasMore: true` and `total: 250`) ends it too: Get Many with Return All gives 200 of the 250
 * records, silently, no error. Before f29d the pages up to `total` were read (250 records).
 * Expected: every record up to total, or a loud error; never a silent partial list.
 */
import nock from 'nock';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { forgetRateBudgets } from '../harness/clock';
import { loadNodeType, runDeclarativeNode } from '../harness/engine';

const node = loadNodeType(new BusinessOps());
const API = 'https://api.business-ops.test';

beforeEach(() => forgetRateBudgets());
afterEach(() => nock.cleanAll());

test('Return All: a middle page without hasMore does not silently end a list whose total says more', async () => {
	const records = (n: number, count: number) =>
		Array.from({ length: count }, (_, i) => ({ id: `c${(n - 1) * 100 + i}` }));
	nock(API)
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, {
			data: records(1, 100),
			meta: { page: 1, pageSize: 100, total: 250, hasMore: true },
		})
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
	expect(items.map((item) => item.json.id)).toEqual(Array.from({ length: 250 }, (_, i) => `c${i}`));
	expect(nock.pendingMocks()).toEqual([]);
});
