/**
 * Break b31: Contact → Create or Update under "Continue" goes one item at a time in item order
 * (inItemOrder with `always`). An item whose parameter expression throws (here `parseJson()` of a
 * value that is not JSON) fails inside n8n's RoutingNode while the item's request is built, before
 * any preSend (beginItem, the guarded checks) runs and before the routing seam is reached. RoutingNode
 * then gives that item an error item and goes on (continueOnFail), but the item never "finishes" in
 * the run's item order, so every later item waits for its turn forever: the node never ends.
 *
 * Expected: item 1 is an error item, items 0 and 2 are written, the node run ends.
 */

import { runDeclarativeNode } from '../harness/engine';
import { api, node } from '../harness/actionNode';

test.each([['continueRegularOutput'], ['continueErrorOutput']] as const)(
	'an expression that fails for one item in the middle does not hold up the later items (%s)',
	async (onError) => {
		api()
			.get('/v1/contacts')
			.query({ page: 1, pageSize: 100 })
			.reply(200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } });
		const written: string[] = [];
		api()
			.post('/v1/contacts')
			.times(2)
			.reply(201, (_uri, body) => {
				const { email } = body as { email: string };
				written.push(email);
				return { data: { id: `ctc_${written.length}`, name: 'N', email } };
			});
		const items = [
			{ json: { raw: '{"email":"a@example.com"}' } },
			{ json: { raw: 'not json' } },
			{ json: { raw: '{"email":"c@example.com"}' } },
		];
		// Before the fix this never resolved: the test failed on jest's timeout below.
		const { items: out } = await runDeclarativeNode(
			node,
			{
				resource: 'contact',
				operation: 'upsert',
				email: '={{ $json.raw.parseJson().email }}',
				name: 'N',
			},
			{ items, onError },
		);
		expect(written).toEqual(['a@example.com', 'c@example.com']);
		// Item 1's error item is RoutingNode's own (`{ json: {}, error }`, made before the node's code
		// runs, as for every declarative operation): it carries the error, and n8n gives it no pairing.
		expect(out.map((item) => [item.pairedItem, Boolean(item.error)])).toEqual([
			[{ item: 0 }, false],
			[undefined, true],
			[{ item: 2 }, false],
		]);
	},
	15_000,
);
