/**
 * Breaker break3: one coherent text under Stop Workflow. A create answered 503 (no error envelope:
 * the write may have been made) reads "Try again later; … check whether the change was made before
 * repeating it." and then describeStop's "Run the workflow again when this item can be sent": the
 * advice to run again is given twice, the second time as if the item had not been sent.
 */
import { runDeclarativeNode } from '../harness/engine';
import { api, node } from '../harness/actionNode';

test('a create answered 503 under Stop Workflow says once how to run again, and not as if nothing was sent', async () => {
	api().post('/v1/contacts').reply(503, 'busy');
	const error = (await runDeclarativeNode(
		node,
		{ resource: 'contact', operation: 'create', name: 'A', email: 'a@example.com' } as never,
		{ items: [{ json: {} }] },
	).catch((e: unknown) => e)) as Error & { description?: string };
	expect(error.description).toMatch(/check whether the change was made before repeating it\./);
	// fails today: "Run the workflow again when this item can be sent" follows
	expect(error.description).not.toMatch(/Run the workflow again when this item can be sent/);
});
