/**
 * README, Errors: under Stop Workflow "the error names the failed item and why, the items not sent,
 * and the records this run already wrote". The error lists only what the *last try* wrote. Create or
 * Update, Retry On Fail with 2 tries: try 1 creates item 0's contact (201) and item 1 gets 503; try 2
 * reads the list again, sends item 0 as a PATCH, and that PATCH gets 503. The node's error then
 * says "Fix this item and run the workflow again": nothing about the contact this run created, so
 * the user re-runs believing nothing was written.
 */
import { runWithRetries } from '../harness/engine';
import { contactsApi, node, UPSERT } from '../harness/actionNode';

const unavailable = [503, { error: { code: 'unavailable', message: 'Try later' } }] as const;

test('the last try fails on item 0: the error still names the contact the first try created', async () => {
	const { contacts } = contactsApi((method, body) =>
		method === 'PATCH' || body.name === 'Bob' ? [...unavailable] : undefined,
	);
	const tries = await runWithRetries(node, UPSERT, {
		items: [
			{ json: { email: 'ann@example.com', name: 'Ann' } },
			{ json: { email: 'bob@example.com', name: 'Bob' } },
		],
		maxTries: 2,
	});
	expect(contacts.map((c) => c.id)).toEqual(['ctc_1']);
	const last = tries[tries.length - 1].error as Error & { description?: string };
	expect(last).toBeDefined();
	expect(last.description).toContain('ctc_1');
});
