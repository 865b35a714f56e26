/**
 * Breaker b29e (f29d's walkPages): the concurrent phase ends the list at the first page that says
 * `hasMore: false`, even when that very page's own `total` says there are more than the pages up to
 * it hold (page 2: 100 records, `total: 250`, `hasMore: false`). Get Many with Return All then gives
 * 200 records, silently. The polling trigger reads the same answer as a contradiction and fails
 * loudly ("contradicts itself"); before f29d Get Many read the pages up to total (250). f29d's
 * reason, a page-1 total that overstates, is told apart: there the last page's own total agrees with
 * what was read (test/zz-break/triggerOverstatedListTotalFailsPublishing.test.ts).
 * Expected: every record up to total, or a loud error; never a silent partial list. The sequential
 * walk gives the loud error, the same one the polling trigger gives for this answer.
 */
import nock from 'nock';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { forgetRateBudgets } from '../harness/clock';
import { loadNodeType, runDeclarativeNode } from '../harness/engine';

const node = loadNodeType(new BusinessOps());
const API = 'https://api.business-ops.test';

beforeEach(() => forgetRateBudgets());
afterEach(() => nock.cleanAll());

test('Return All: a page whose hasMore is false while its own total says more fails the item, naming the page', async () => {
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
