/**
 * The Stop Workflow error tells what running the workflow again does to the items already written
 * (ARCHITECTURE: "what this try already wrote ... and that a new run writes them again"). It says
 * the same for every operation: "it sends item 0 again (a create makes a second record), unless you
 * remove it from the input". For Contact → Create or Update a new run updates the contact it made
 * (no second record: that is what the operation is for, and the error for Contact → Create even
 * recommends it); for a Delete a new run deletes nothing twice, it fails on item 0 (404).
 */
import nock from 'nock';

import { runDeclarativeNode } from '../harness/engine';
import { API, node, UPSERT } from '../harness/actionNode';

type Described = Error & { description?: string };

test('Create or Update, item 1 refused: the error does not say a new run makes a second record of item 0', async () => {
	nock(API)
		.persist()
		.get('/v1/contacts')
		.query(true)
		.reply(200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } });
	nock(API)
		.persist()
		.post('/v1/contacts')
		.reply((_uri, body) => {
			const b = body as { name: string };
			return b.name === 'B'
				? [422, { error: { code: 'validation_error', message: 'phone is not valid' } }]
				: [201, { data: { id: 'ctc_1', ...b } }];
		});
	const error = (await runDeclarativeNode(node, UPSERT, {
		items: [
			{ json: { email: 'a@example.com', name: 'A' } },
			{ json: { email: 'b@example.com', name: 'B' } },
		],
	}).catch((e: unknown) => e)) as Described;
	expect(error.description).toContain('Already written by this run: item 0 (ctc_1)');
	expect(error.description).not.toContain('a create makes a second record');
});

test('Delete, item 1 not found: the error does not say a new run makes a second record of item 0', async () => {
	nock(API)
		.persist()
		.delete(/\/v1\/contacts\/.*/)
		.reply((uri) =>
			uri.endsWith('ctc_2')
				? [404, { error: { code: 'not_found', message: 'Contact not found' } }]
				: [204, ''],
		);
	const error = (await runDeclarativeNode(
		node,
		{
			resource: 'contact',
			operation: 'delete',
			contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		},
		{ items: [{ json: { id: 'ctc_1' } }, { json: { id: 'ctc_2' } }] },
	).catch((e: unknown) => e)) as Described;
	expect(error.description).toContain('Already written by this run: item 0');
	expect(error.description).not.toContain('a create makes a second record');
});
