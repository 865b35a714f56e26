/**
 * README, Operations: "Retry On Fail does not send a write again that the API already accepted in
 * an earlier try of the same node run". The write memory keeps a run's first 10,000 answers. It used
 * to evict the oldest, and the eviction cascaded: a run of 10,002 creates whose last is answered 503
 * once kept 10,001 answers, item 0's was dropped, the next try sent item 0 again, keeping its answer
 * dropped item 1's, and so on: all 10,001 creates were sent twice. Now only the write past the
 * 10,000th (item 10,000) is sent again. Slow (minutes: 20,000 requests through RoutingNode).
 */
import nock from 'nock';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { loadNodeType, runWithRetries } from '../harness/engine';

beforeEach(() => {
	forgetRateBudgets();
	fastClock();
});
afterEach(() => nock.cleanAll());

const node = loadNodeType(new BusinessOps());
const API = 'https://api.business-ops.test';
const COUNT = 10_002;

test('Stop Workflow, 10,002 creates, the last answered 503 once: the next try sends again only the write past the 10,000th', async () => {
	const posts = new Map<string, number>();
	let failedOnce = false;
	nock(API)
		.persist()
		.post('/v1/contacts')
		.reply((_uri, body) => {
			const name = (body as { name: string }).name;
			if (name === `C${COUNT - 1}` && !failedOnce) {
				failedOnce = true;
				return [503, { error: { code: 'unavailable', message: 'Try later' } }];
			}
			posts.set(name, (posts.get(name) ?? 0) + 1);
			return [201, { data: { id: `ctc_${name}`, name } }];
		});
	const items = Array.from({ length: COUNT }, (_, i) => ({ json: { name: `C${i}` } }));
	const tries = await runWithRetries(node, { resource: 'contact', operation: 'create', name: '={{ $json.name }}', additionalFields: {} }, { items, maxTries: 2 });
	expect(tries.map((t) => (t.error ? 'failed' : 'succeeded'))).toEqual(['failed', 'succeeded']);
	const twice = [...posts].filter(([, n]) => n > 1).map(([name]) => name);
	expect(twice).toEqual([`C${COUNT - 2}`]);
}, 600_000);
