/**
 * Break b31: when several contacts have the e-mail, Create or Update refuses the item with a
 * message naming them and, in a normal run, the advice "Merge or delete the duplicate contacts, or
 * change one of them with Contact → Update and its Contact ID". As a tool (AI agent, MCP client)
 * that advice is dropped and replaced by invalidInput's generic tool text: 'Change the "Email"
 * argument of this contact call and call the tool again.' The e-mail the model passed is right;
 * the data is duplicated. Told to change the e-mail, a model retries with another address, and the
 * tool creates a contact under an e-mail nobody gave.
 *
 * Expected: in tool mode the error does not ask the model to change the Email argument, and says
 * what can be done (the contacts named must be merged or one updated by its ID), without [item N].
 */

import { runDeclarativeNode } from '../harness/engine';
import { api, node, UPSERT } from '../harness/actionNode';

test('tool mode: several contacts with the e-mail is not answered with "change the Email argument"', async () => {
	api()
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, {
			data: [
				{ id: 'ctc_1', name: 'A', email: 'dup@example.com' },
				{ id: 'ctc_2', name: 'B', email: 'DUP@example.com' },
			],
			meta: { page: 1, pageSize: 100, total: 2, hasMore: false },
		});
	const error = (await runDeclarativeNode(node, UPSERT, {
		items: [{ json: { email: 'dup@example.com', name: 'Row 0' } }],
		asTool: true,
	}).catch((e: unknown) => e)) as Error & { description?: string };
	const text = `${error.message} ${error.description ?? ''}`;
	expect(text).toContain('ctc_1');
	expect(text).not.toContain('[item');
	expect(text).not.toMatch(/Change the "Email" argument/i);
	expect(text).toMatch(/merge|Contact ID|Update/i);
});
