/**
 * Breaker (trust path rewrite): "the memory must stay bounded" (trust.ts: "the memory holds this
 * many ids' weight in all (about 100 MB at most)"; 10,000 ids per trigger).
 *
 * The trigger's memory is weighed 100 per entry plus 1 per repeat id, whatever an id's length.
 * Under Signature Scheme None with Ignore Repeated Deliveries on, the delivery id is the body's
 * `id`, chosen by whoever posts to the URL, of any length n8n's body limit allows (16 MB by
 * default). A stranger posts 10,000 bodies with a different 1 MB id each: the process keeps 10 GB
 * for one trigger (the bound counts 10,000). Here 150 such posts keep about 150 MB, more than the
 * whole memory is said to hold.
 * Expected: what the memory keeps of ids stays within its stated bound (a long id is kept as a
 * digest, refused, or weighed by its length).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

import type { INodeParameters } from 'n8n-workflow';

import { createTriggerNode, runWebhook } from '../harness/engine';
import { trigger } from './liveSubscription';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const POSTS = 150;
const ID_BYTES = 1024 * 1024;

const heap = () => {
	gc();
	gc();
	return process.memoryUsage().heapUsed;
};

test('1 MB delivery ids posted by a stranger to a None trigger are not all kept in memory', async () => {
	const testNode = createTriggerNode(trigger, {
		events: ['invoice.paid'],
		options: { signatureScheme: 'none', ignoreRepeatedDeliveries: true } as INodeParameters,
	});
	testNode.workflow.id = 'workflow-long-ids';
	const before = heap();
	const filler = 'x'.repeat(ID_BYTES);
	for (let i = 0; i < POSTS; i++) {
		const raw = Buffer.from(`{"id":"${i}-${filler}","type":"invoice.paid"}`);
		expect(
			(await runWebhook(trigger, testNode, { headers: {}, rawBody: raw, body: {} })).result
				.workflowData,
		).toHaveLength(1);
	}
	const kept = heap() - before;
	// fails today: about 150 MB kept for one trigger's ids
	expect(kept).toBeLessThan(100 * 1024 * 1024);
}, 120_000);
