/**
 * A node run returns only once every request it started settled: RoutingNode throws out of its
 * build loop when a later item's expression fails under Stop Workflow, while an earlier item's
 * create is on its way (the limit in test/limits.test.ts); the harness awaits that create, so it
 * cannot outlive its test and meet the next one's interceptors, or none.
 */
import { API, run } from './actionNode';
import nock from 'nock';

test('a later item that fails to build: the run returns after the earlier item was answered', async () => {
	const answered: string[] = [];
	nock(API)
		.post('/v1/contacts')
		.delay(50)
		.reply((_uri, body) => {
			answered.push((body as { name: string }).name);
			return [201, { data: { id: 'ctc_1', ...(body as object) } }];
		});
	const failed = await run(
		{
			resource: 'contact',
			operation: 'create',
			name: '={{ $json.name ?? $("Nope").item.json.x }}',
			additionalFields: {},
		},
		{ items: [{ json: { name: 'ann' } }, { json: {} }] },
	).then(
		() => undefined,
		(error: unknown) => error,
	);
	expect(failed).toBeInstanceOf(Error);
	expect(answered).toEqual(['ann']);
});
