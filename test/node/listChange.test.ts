/**
 * A list that changes while it is read (another client deletes or creates a record between two
 * page reads): the list reader reads it again, or fails naming the cause; never a silently partial list.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runDeclarativeNode } from '../harness/engine';
import { API, node, UPSERT } from '../harness/actionNode';

const getAll = { resource: 'contact', operation: 'getAll', returnAll: true };

const contact = (i: number): IDataObject => ({
	id: `ctc_${i}`,
	name: `C${i}`,
	email: `c${i}@example.com`,
});

/**
 * Serves /contacts from `rows` as the API pages it (100 a page, meta on every page); `between(read, page)`
 * runs after each answer (read counts the page-1 requests), where a test changes `rows`.
 */
function contactsList(
	rows: IDataObject[],
	between: (read: number, page: number) => void = () => {},
) {
	const sent: number[] = [];
	let read = 0;
	nock(API)
		.persist()
		.get('/v1/contacts')
		.query(true)
		.reply((uri) => {
			const page = Number(new URL(uri, API).searchParams.get('page'));
			if (page === 1) read++;
			sent.push(page);
			const body = {
				data: rows.slice((page - 1) * 100, page * 100),
				meta: { page, pageSize: 100, total: rows.length, hasMore: page * 100 < rows.length },
			};
			between(read, page);
			return [200, body];
		});
	return sent;
}

const ids = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.id);

test('Return All: a contact of page 1 deleted between the reads of page 1 and page 2 gives exactly the live contacts, after one more read', async () => {
	const rows = Array.from({ length: 250 }, (_, i) => contact(i));
	const sent = contactsList(rows, (read, page) => {
		if (read === 1 && page === 1) rows.splice(5, 1);
	});
	const { items } = await runDeclarativeNode(node, getAll);
	// ctc_100 moved onto page 1 after it was read: the first read misses it and holds the deleted ctc_5
	expect(ids(items)).toEqual(rows.map((row) => row.id));
	expect(ids(items)).toContain('ctc_100');
	expect(ids(items)).not.toContain('ctc_5');
	expect(items).toHaveLength(249);
	expect(sent).toEqual([1, 2, 3, 1, 2, 3]);
});

test('Return All: a contact created at the front during the read (one contact read twice) reads the list again', async () => {
	const rows = Array.from({ length: 150 }, (_, i) => contact(i));
	const sent = contactsList(rows, (read, page) => {
		if (read === 1 && page === 1) rows.unshift(contact(1000));
	});
	const { items } = await runDeclarativeNode(node, getAll);
	expect(ids(items)).toEqual(rows.map((row) => row.id));
	expect(items).toHaveLength(151);
	expect(sent).toEqual([1, 2, 1, 2]);
});

test('Return All: a list that changes during every read fails after 3 reads, naming the cause', async () => {
	const rows = Array.from({ length: 150 }, (_, i) => contact(i));
	const sent = contactsList(rows, (_read, page) => {
		if (page === 1) rows.splice(0, 1);
	});
	const error = await runDeclarativeNode(node, getAll).then(
		() => undefined,
		(e: Error) => e,
	);
	expect(error?.message).toBe(
		'The list changed while it was read (records were created or deleted); 3 reads tried (GET /contacts) [item 0]',
	);
	expect(sent).toEqual([1, 2, 1, 2, 1, 2]);
});

test('Create or Update: a contact of page 1 deleted during the read updates the contact first on page 2, creates none', async () => {
	const rows = Array.from({ length: 150 }, (_, i) => contact(i));
	const sent = contactsList(rows, (read, page) => {
		if (read === 1 && page === 1) rows.splice(5, 1);
	});
	let posted = 0;
	nock(API)
		.post('/v1/contacts')
		.optionally()
		.reply(201, () => {
			posted++;
			return { data: { id: 'ctc_new', email: 'c100@example.com' } };
		});
	const patch = nock(API)
		.patch('/v1/contacts/ctc_100', { name: 'Row 0' })
		.reply(200, { data: { ...contact(100), name: 'Row 0' } });
	const { items } = await runDeclarativeNode(node, UPSERT, {
		items: [{ json: { email: 'c100@example.com', name: 'Row 0' } }],
	});
	expect(items.map((item) => [item.json.action, item.json.id])).toEqual([['updated', 'ctc_100']]);
	expect(patch.isDone()).toBe(true);
	expect(posted).toBe(0);
	expect(sent).toEqual([1, 2, 1, 2]);
});
