/**
 * Create or Update with Retry On Fail: item 0 creates its contact (answered 201) and item 1 gets
 * 503 once. The next try reads the contact list again, finds item 0's contact there, and PATCHes it:
 * a write for item 0 the first try did not need (README: Retry On Fail "does not send a write again
 * that the API already accepted"), and item 0's output now says `action: "updated"` for the contact
 * this run created, so a workflow that branches on "created" (a welcome e-mail) misses it.
 */
import { runWithRetries } from '../harness/engine';
import { contactsApi, node, UPSERT } from '../harness/actionNode';

test('Stop Workflow, item 1 answered 503 once: the retry sends nothing more for item 0, which stays "created"', async () => {
	let refused = false;
	const { writes } = contactsApi((method, body) => {
		if (method !== 'POST' || body.name !== 'Bob' || refused) return undefined;
		refused = true;
		return [503, { error: { code: 'unavailable', message: 'Try later' } }];
	});
	const tries = await runWithRetries(node, UPSERT, {
		items: [
			{ json: { email: 'ann@example.com', name: 'Ann' } },
			{ json: { email: 'bob@example.com', name: 'Bob' } },
		],
		maxTries: 3,
	});
	expect(tries.map((t) => (t.error ? 'failed' : 'succeeded'))).toEqual(['failed', 'succeeded']);
	expect(writes).toEqual(['POST Ann', 'POST Bob', 'POST Bob']);
	expect(tries[1].items?.map((i) => [i.json.action, i.json.id])).toEqual([
		['created', 'ctc_1'],
		['created', 'ctc_2'],
	]);
});
