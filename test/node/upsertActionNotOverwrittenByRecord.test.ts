/**
 * Break b31: Create or Update answers `{ action, ...record }`, so a contact field named `action`
 * (the spec does not list every field of a contact: "not shown") replaces the node's own
 * `action`. The output then says `"action": "archived"` for an update, which breaks the output
 * schema (`__schema__/v1.0.0/contact/upsert.json`: action is "created" or "updated") and every
 * IF/Switch node that routes on it.
 *
 * Expected: `action` is "updated" (the node's word wins; the record's own field is not lost
 * silently either, but that is for the fix to choose).
 */

import { runDeclarativeNode } from '../harness/engine';
import { api, node, UPSERT } from '../harness/actionNode';

test('a record field named action does not replace what Create or Update did', async () => {
	api()
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, {
			data: [{ id: 'ctc_1', name: 'A', email: 'a@example.com' }],
			meta: { page: 1, pageSize: 100, total: 1, hasMore: false },
		});
	api()
		.patch('/v1/contacts/ctc_1')
		.reply(200, {
			data: { id: 'ctc_1', name: 'Row 0', email: 'a@example.com', action: 'archived' },
		});

	const { items } = await runDeclarativeNode(node, UPSERT, {
		items: [{ json: { email: 'a@example.com', name: 'Row 0' } }],
	});
	expect(items[0].json.action).toBe('updated');
	expect(items[0].json.id).toBe('ctc_1');
});
