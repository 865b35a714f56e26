/** Breaker break3: Create or Update's faults in the API's data (no ID, duplicates) under every On Error. */
import nock from 'nock';
import { runDeclarativeNode } from '../harness/engine';
import { api, node, UPSERT } from '../harness/actionNode';

type Contact = { id?: string; name: string; email?: string };
function listing(contacts: Contact[]) {
	return api()
		.get('/v1/contacts')
		.query({ page: 1, pageSize: 100 })
		.reply(200, {
			data: contacts,
			meta: { page: 1, pageSize: 100, total: contacts.length, hasMore: false },
		});
}
const rows = (...emails: string[]) =>
	emails.map((email, i) => ({ json: { email, name: `Row ${i}` } }));
const DATA = [
	{ id: 'ctc_1', name: 'A', email: 'dup@example.com' },
	{ id: 'ctc_2', name: 'B', email: 'dup@example.com' },
	{ name: 'C', email: 'noid@example.com' },
];

describe('break3: Create or Update faults in the API data, per item', () => {
	afterEach(() => nock.cleanAll());

	test('Stop Workflow: item 1 a duplicate, item 2 not sent, item 0 (created) named', async () => {
		listing(DATA);
		const created = api()
			.post('/v1/contacts')
			.reply(201, { data: { id: 'ctc_9', name: 'Row 0', email: 'new@example.com' } });
		const error = (await runDeclarativeNode(node, UPSERT, {
			items: rows('new@example.com', 'dup@example.com', 'other@example.com'),
		}).catch((e: unknown) => e)) as Error & {
			description?: string;
			context?: { itemIndex?: number };
		};
		expect(error.message).toMatch(/^2 contacts have the e-mail dup@example\.com .* \[item 1\]$/);
		expect(error.context?.itemIndex).toBe(1);
		expect(error.description).toMatch(
			/^Merge or delete the duplicate contacts.*Contact ID\. Item 2 was not sent: .*Already written by this run: item 0 \(ctc_9\)\./,
		);
		expect(error.description).not.toMatch(/Run the workflow again when this item can be sent/);
		expect(created.isDone()).toBe(true);
	});

	test.each(['continueRegularOutput', 'continueErrorOutput'] as const)(
		'%s: each fault is its own item, with its index once and the fix, and the good item is written',
		async (onError) => {
			listing(DATA);
			api()
				.post('/v1/contacts')
				.reply(201, { data: { id: 'ctc_9', name: 'Row 2', email: 'new@example.com' } });
			const out = await runDeclarativeNode(node, UPSERT, {
				items: rows('dup@example.com', 'noid@example.com', 'new@example.com'),
				onError,
			});
			const all = (
				out as unknown as {
					items: Array<{
						json: Record<string, unknown>;
						error?: { message: string; description?: string };
					}>;
				}
			).items;
			const texts = JSON.stringify(all);
			expect(texts).toContain('[item 0]');
			expect(texts).toContain('[item 1]');
			expect(texts).not.toMatch(/\[item \d+\] \[item/);
			expect(texts).not.toMatch(/Run the workflow again|On Error/);
			expect(texts).toContain('ctc_9');
		},
	);
});
