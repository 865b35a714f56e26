/**
 * README, Operations: "Retry On Fail does not send a write again that the API already accepted in
 * an earlier try of the same node run". The write memory keeps 10,000 answers per run (oldest
 * dropped first), which the README does not say. Worse, the drop cascades: a run of 10,002 creates
 * whose last is answered 503 once keeps 10,001 answers, item 0's is dropped, the next try sends
 * item 0 again, keeping its answer drops item 1's, and so on: every one of the 10,001 creates is
 * sent a second time (measured: 10,001 duplicates, not 1). Slow (about 3 minutes).
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

test('Stop Workflow, 10,002 creates, the last answered 503 once: the next try creates nothing twice', async () => {
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
	expect(twice.length).toBe(0);
}, 600_000);
