/**
 * Stop Workflow, 3 creates, item 2's expression throws (a node it references does not exist). RoutingNode
 * throws item 2's error at once, while item 0's (and 1's) create is already on its way: the node
 * reports the failure, the workflow stops, and the creates are still sent afterwards; the error
 * does not name them ("the error names ... the records this run already wrote", README).
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
const API = 'https://api.business-ops.test';

// Documented limit: n8n's RoutingNode throws out of its build loop under Stop Workflow while earlier items are in flight; the package cannot stop those.
test.failing(
	'Stop Workflow: a write the node sends is done (or not sent) when the node reports its failure, and named in the error',
	async () => {
		const writes: string[] = [];
		nock(API)
			.persist()
			.post('/v1/contacts')
			.delay(100)
			.reply((_uri, body) => {
				writes.push((body as { name: string }).name);
				return [201, { data: { id: `ctc_${writes.length}`, ...(body as object) } }];
			});
		const params = {
			resource: 'contact',
			operation: 'create',
			name: '={{ $json.name ?? $("Nope").item.json.x }}',
			additionalFields: {},
		};
		const error = (await runDeclarativeNode(node, params, {
			items: [{ json: { name: 'ann' } }, { json: { name: 'bob' } }, { json: {} }],
		}).catch((e: unknown) => e)) as Error & { description?: string };
		expect(error).toBeInstanceOf(Error);
		const writtenWhenReported = [...writes];
		await new Promise((resolve) => setTimeout(resolve, 400));
		// nothing is written after the node has reported that it failed ...
		expect(writes).toEqual(writtenWhenReported);
		// ... and what was written is in the error
		for (const [i] of writes.entries()) expect(error.description ?? '').toContain(`item ${i}`);
	},
);
