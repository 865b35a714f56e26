/**
 * Create or Update with Retry On Fail: item 0 creates its contact (answered 201) and item 1 gets
 * 503 once. The next try reads the contact list again, finds item 0's contact there, and PATCHes it:
 * a write for item 0 the first try did not need (README: Retry On Fail "does not send a write again
 * that the API already accepted"), and item 0's output now says `action: "updated"` for the contact
 * this run created, so a workflow that branches on "created" (a welcome e-mail) misses it.
 */
import nock from 'nock';

import { runWithRetries } from '../harness/engine';
import { API, node } from '../harness/actionNode';

type Contact = { id: string; name: string; email: string };

test('Stop Workflow, item 1 answered 503 once: the retry sends nothing more for item 0, which stays "created"', async () => {
	const contacts: Contact[] = [];
	const writes: string[] = [];
	let refused = false;
	const scope = nock(API).persist();
	scope
		.get('/v1/contacts')
		.query(true)
		.reply(200, () => ({
			data: contacts,
			meta: { page: 1, pageSize: 100, total: contacts.length, hasMore: false },
		}));
	scope.post('/v1/contacts').reply((_uri, body) => {
		const b = body as Contact;
		writes.push(`POST ${b.name}`);
		if (b.name === 'Bob' && !refused) {
			refused = true;
			return [503, { error: { code: 'unavailable', message: 'Try later' } }];
		}
		const created = { ...b, id: `ctc_${contacts.length + 1}` };
		contacts.push(created);
		return [201, { data: created }];
	});
	scope.patch(/\/v1\/contacts\/.*/).reply((uri, body) => {
		writes.push(`PATCH ${(body as Contact).name}`);
		const contact = contacts.find((c) => c.id === uri.split('/').pop())!;
		Object.assign(contact, body);
		return [200, { data: contact }];
	});
	const tries = await runWithRetries(
		node,
		{
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.email }}',
			name: '={{ $json.name }}',
		},
		{
			items: [
				{ json: { email: 'ann@example.com', name: 'Ann' } },
				{ json: { email: 'bob@example.com', name: 'Bob' } },
			],
			maxTries: 3,
		},
	);
	expect(tries.map((t) => (t.error ? 'failed' : 'succeeded'))).toEqual(['failed', 'succeeded']);
	expect(writes).toEqual(['POST Ann', 'POST Bob', 'POST Bob']);
	expect(tries[1].items?.map((i) => [i.json.action, i.json.id])).toEqual([
		['created', 'ctc_1'],
		['created', 'ctc_2'],
	]);
});
