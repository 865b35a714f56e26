/**
 * Break b31: the index of Create or Update keeps `String(record.id)` for every listed contact. A
 * listed contact without an `id` (an answer the node does not expect) becomes the id "undefined",
 * and the item with that e-mail sends `PATCH /contacts/undefined`: a write to a path made up by the
 * node, and an error that talks about a network failure ("the request failed without an answer")
 * instead of the answer the node could not use.
 *
 * Expected: no write is sent for that item, and its error says the API listed a contact with this
 * e-mail without an id (fail loudly, say what happened).
 */

import { runDeclarativeNode } from '../harness/engine';
import { api, node, UPSERT } from '../harness/actionNode';

test('a listed contact without an id is never written to as /contacts/undefined', async () => {
	api()
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, {
			data: [{ name: 'No id', email: 'noid@example.com' }],
			meta: { page: 1, pageSize: 100, total: 1, hasMore: false },
		});
	const sent: string[] = [];
	api()
		.patch(/.*/)
		.reply(200, (uri) => (sent.push(`PATCH ${uri}`), { data: { id: 'x' } }))
		.post(/.*/)
		.reply(201, (uri) => (sent.push(`POST ${uri}`), { data: { id: 'x' } }));

	const error = await runDeclarativeNode(node, UPSERT, {
		items: [{ json: { email: 'noid@example.com', name: 'Row 0' } }],
	}).then(
		() => undefined,
		(e: Error) => e,
	);
	expect(sent).toEqual([]);
	expect(error?.message).not.toContain('undefined');
	expect(error?.message).toMatch(/id/i);
	expect(error?.message).toContain('[item 0]');
});
