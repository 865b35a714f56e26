/**
 * Break b31: the contacts list is read in pages (page=N, pageSize=100). When a contact is added
 * while the list is read (someone else's sync, a form), the records shift by one and the contact at
 * the page boundary comes back on two pages. Create or Update then counts that one contact twice
 * and refuses the item: "2 contacts have the e-mail c99@example.com (ctc_99, ctc_99)", naming the
 * same id twice. One contact id is one contact.
 *
 * Expected: the one contact ctc_99 is updated.
 */

import { runDeclarativeNode } from '../harness/engine';
import { api, node, UPSERT } from '../harness/actionNode';

test('a contact the list shows on two pages (records shifted while reading) is one match, not several', async () => {
	const contacts = Array.from({ length: 150 }, (_, i) => ({
		id: `ctc_${i}`,
		name: `C${i}`,
		email: `c${i}@example.com`,
	}));
	api()
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, {
			data: contacts.slice(0, 100),
			meta: { page: 1, pageSize: 100, total: 151, hasMore: true },
		});
	// A contact was added at the front between the two reads: ctc_99 is now first on page 2.
	api()
		.get('/v1/contacts')
		.query({ page: 2, pageSize: 100 })
		.reply(200, {
			data: contacts.slice(99, 150),
			meta: { page: 2, pageSize: 100, total: 151, hasMore: false },
		});
	// The list reader sees a contact read twice and reads the list again, as it is now.
	const added = { id: 'ctc_new', name: 'New', email: 'new@example.com' };
	const reread = api()
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, {
			data: [added, ...contacts.slice(0, 99)],
			meta: { page: 1, pageSize: 100, total: 151, hasMore: true },
		})
		.get('/v1/contacts')
		.query({ page: 2, pageSize: 100 })
		.reply(200, {
			data: contacts.slice(99, 150),
			meta: { page: 2, pageSize: 100, total: 151, hasMore: false },
		});
	const write = api()
		.patch('/v1/contacts/ctc_99', { name: 'Row 0' })
		.reply(200, { data: { id: 'ctc_99', name: 'Row 0', email: 'c99@example.com' } });

	const { items } = await runDeclarativeNode(node, UPSERT, {
		items: [{ json: { email: 'c99@example.com', name: 'Row 0' } }],
	});
	expect(items.map((item) => [item.json.action, item.json.id])).toEqual([['updated', 'ctc_99']]);
	expect(write.isDone()).toBe(true);
	expect(reread.isDone()).toBe(true);
});
