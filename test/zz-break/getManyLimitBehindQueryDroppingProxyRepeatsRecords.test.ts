/**
 * docs/operations.md: "When every page comes back as page 1 (a proxy or cache that drops the query
 * string), the read fails after 4 requests saying so: check the Base URL." With Limit (not Return
 * All) the walker does not look for repeats: behind such a proxy every page is page 1 (at the API's
 * default page size, 25), so Limit 60 outputs contacts 1-25, then 1-25 again, then 1-10: 35 of the
 * 60 items are copies, and nothing says so. The walk has the ids in hand (a page repeating ids read
 * before is exactly what Return All fails on).
 */
import nock from 'nock';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { loadNodeType, runDeclarativeNode } from '../harness/engine';

beforeEach(() => {
	forgetRateBudgets();
	fastClock();
});
afterEach(() => nock.cleanAll());

const node = loadNodeType(new BusinessOps());

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
