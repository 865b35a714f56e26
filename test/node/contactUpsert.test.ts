import nock from 'nock';

import { runDeclarativeNode, TEST_API_KEY } from '../harness/engine';
import { api, node, UPSERT } from '../harness/actionNode';

type Contact = { id: string; name: string; email?: string };

/** The contacts list as the API pages it (100 a page). */
function listing(contacts: Contact[]) {
	const scope = api();
	const pages = Math.max(1, Math.ceil(contacts.length / 100));
	for (let page = 1; page <= pages; page++) {
		scope
			.get('/v1/contacts')
			.query({ page, pageSize: 100 })
			.reply(200, {
				data: contacts.slice((page - 1) * 100, page * 100),
				meta: { page, pageSize: 100, total: contacts.length, hasMore: page < pages },
			});
	}
	return scope;
}

const rows = (...emails: string[]) =>
	emails.map((email, i) => ({ json: { email, name: `Row ${i}` } }));
const upsert = UPSERT;

describe('Contact → Create or Update', () => {
	test('creates a contact when none has the e-mail, and says so beside the record', async () => {
		const read = listing([{ id: 'ctc_1', name: 'Other', email: 'other@example.com' }]);
		const write = api()
			.post('/v1/contacts', { email: 'new@example.com', name: 'Row 0' })
			.reply(201, { data: { id: 'ctc_2', name: 'Row 0', email: 'new@example.com' } });
		const { items } = await runDeclarativeNode(node, upsert, { items: rows(' new@example.com ') });
		expect(items.map((i) => i.json)).toEqual([
			{ action: 'created', id: 'ctc_2', name: 'Row 0', email: 'new@example.com' },
		]);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(read.isDone() && write.isDone()).toBe(true);
	});

	test('updates the one contact with the e-mail, whatever its case and spaces', async () => {
		listing([{ id: 'ctc_1', name: 'Anna', email: 'Anna@Example.com ' }]);
		const write = api()
			.patch('/v1/contacts/ctc_1', { name: 'Row 0', phone: '+31 6 1' })
			.reply(200, {
				data: { id: 'ctc_1', name: 'Row 0', email: 'anna@example.com', phone: '+31 6 1' },
			});
		const { items } = await runDeclarativeNode(
			node,
			{ ...upsert, additionalFields: { phone: '+31 6 1' } },
			{ items: rows('anna@example.com') },
		);
		expect(items.map((i) => i.json)).toEqual([
			{
				action: 'updated',
				id: 'ctc_1',
				name: 'Row 0',
				email: 'anna@example.com',
				phone: '+31 6 1',
			},
		]);
		expect(write.isDone()).toBe(true);
	});

	// What macOS, spreadsheets and copy-paste give: the same address in another Unicode form, or
	// with an invisible character in it. é composed is U+00E9; decomposed, e + U+0301.
	test.each([
		[
			'decomposed (e + U+0301) where the API lists it composed',
			'jose\u0301@cafe\u0301.example',
			'jos\u00e9@caf\u00e9.example',
		],
		[
			'composed where the API lists it decomposed',
			'jos\u00e9@caf\u00e9.example',
			'jose\u0301@cafe\u0301.example',
		],
		[
			'decomposed, in upper case, with spaces around',
			'  JOSE\u0301@CAFE\u0301.EXAMPLE ',
			'jos\u00e9@caf\u00e9.example',
		],
		[
			'with a pasted zero-width space (U+200B)',
			'pieter\u200b.bakker@example.com',
			'pieter.bakker@example.com',
		],
		[
			'with a zero-width joiner, word joiner and byte order mark',
			'\ufeffpieter.bak\u200dker@exam\u2060ple.com',
			'pieter.bakker@example.com',
		],
		[
			'where the API lists it with a zero-width space',
			'pieter.bakker@example.com',
			'pieter.bakker\u200b@example.com',
		],
	])(
		'the same address %s is the contact the API lists: updated, not created twice',
		async (_, given, listed) => {
			listing([{ id: 'ctc_1', name: 'Listed', email: listed }]);
			const write = api()
				.patch('/v1/contacts/ctc_1', (body) => body.name === 'Row 0')
				.reply(200, { data: { id: 'ctc_1', name: 'Row 0', email: listed } });
			const { items } = await runDeclarativeNode(node, upsert, { items: rows(given) });
			expect(items.map((i) => [i.json.action, i.json.id])).toEqual([['updated', 'ctc_1']]);
			expect(write.isDone()).toBe(true);
			expect(nock.pendingMocks()).toEqual([]);
		},
	);

	test('creates with the address in one form: composed (NFC), without zero-width characters, its case kept', async () => {
		listing([]);
		const write = api()
			.post('/v1/contacts', { email: 'Jos\u00e9@Caf\u00e9.example', name: 'Row 0' })
			.reply(201, { data: { id: 'ctc_2', name: 'Row 0', email: 'Jos\u00e9@Caf\u00e9.example' } });
		const { items } = await runDeclarativeNode(node, upsert, {
			items: rows(' Jose\u0301\u200b@Cafe\u0301.example '),
		});
		expect(items.map((i) => [i.json.action, i.json.id])).toEqual([['created', 'ctc_2']]);
		expect(write.isDone()).toBe(true);
	});

	test('two rows with one address in two Unicode forms in one run: one create, then an update of it', async () => {
		listing([]);
		const calls: string[] = [];
		api()
			.post('/v1/contacts', (body) => (calls.push(`POST ${body.name}`), true))
			.reply(201, { data: { id: 'ctc_9', name: 'Row 0', email: 'jos\u00e9@caf\u00e9.example' } })
			.patch('/v1/contacts/ctc_9', (body) => (calls.push(`PATCH ${body.name}`), true))
			.reply(200, { data: { id: 'ctc_9', name: 'Row 1', email: 'jos\u00e9@caf\u00e9.example' } });
		const { items } = await runDeclarativeNode(node, upsert, {
			items: rows('jos\u00e9@caf\u00e9.example', 'jose\u0301@cafe\u0301.example'),
		});
		expect(calls).toEqual(['POST Row 0', 'PATCH Row 1']);
		expect(items.map((i) => [i.json.action, i.json.id])).toEqual([
			['created', 'ctc_9'],
			['updated', 'ctc_9'],
		]);
	});

	test('an update never sends the e-mail: the address stored keeps its case, whatever case and spaces the item gives', async () => {
		listing([{ id: 'ctc_1', name: 'Pieter', email: 'pieter.bakker@example.com' }]);
		const bodies: unknown[] = [];
		api()
			.patch('/v1/contacts/ctc_1', (body) => (bodies.push(body), true))
			.reply(200, {
				data: { id: 'ctc_1', name: 'Row 0', email: 'pieter.bakker@example.com', phone: '+31 6 1' },
			});
		const { items } = await runDeclarativeNode(
			node,
			{ ...upsert, additionalFields: { phone: '+31 6 1' } },
			{ items: rows('  PIETER.BAKKER@EXAMPLE.COM  ') },
		);
		expect(bodies).toEqual([{ name: 'Row 0', phone: '+31 6 1' }]);
		expect(items.map((i) => i.json)).toEqual([
			{
				action: 'updated',
				id: 'ctc_1',
				name: 'Row 0',
				email: 'pieter.bakker@example.com',
				phone: '+31 6 1',
			},
		]);
	});

	test('an item that gives only the e-mail of a contact that exists changes nothing: no write, the contact read back as unchanged', async () => {
		listing([{ id: 'ctc_1', name: 'Pieter', email: 'pieter.bakker@example.com' }]);
		const read = api()
			.get('/v1/contacts/ctc_1')
			.reply(200, { data: { id: 'ctc_1', name: 'Pieter', email: 'pieter.bakker@example.com' } });
		const { items } = await runDeclarativeNode(
			node,
			{ ...upsert, name: '' },
			{ items: rows('Pieter.Bakker@example.com') },
		);
		expect(items.map((i) => i.json)).toEqual([
			{ action: 'unchanged', id: 'ctc_1', name: 'Pieter', email: 'pieter.bakker@example.com' },
		]);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(read.isDone()).toBe(true);
		expect(nock.pendingMocks()).toEqual([]);
	});

	test('reads the contacts once per run (one request per 100), not once per item', async () => {
		const existing = Array.from({ length: 250 }, (_, i) => ({
			id: `ctc_${i}`,
			name: `C${i}`,
			email: `c${i}@example.com`,
		}));
		const read = listing(existing);
		const write = api()
			.patch('/v1/contacts/ctc_7', (body) => body.name === 'Row 0')
			.reply(200, { data: existing[7] })
			.patch('/v1/contacts/ctc_249', (body) => body.name === 'Row 1')
			.reply(200, { data: existing[249] })
			.patch('/v1/contacts/ctc_100', (body) => body.name === 'Row 2')
			.reply(200, { data: existing[100] });
		const { items } = await runDeclarativeNode(node, upsert, {
			items: rows('c7@example.com', 'c249@example.com', 'c100@example.com'),
		});
		expect(items.map((i) => [i.json.action, i.json.id])).toEqual([
			['updated', 'ctc_7'],
			['updated', 'ctc_249'],
			['updated', 'ctc_100'],
		]);
		expect(read.isDone() && write.isDone()).toBe(true);
	});

	test.each([
		['Stop Workflow', {}],
		['Continue', { continueOnFail: true }],
	])(
		'two rows with one e-mail in one run (%s): one create, then an update of the contact it created',
		async (_, onError) => {
			listing([]);
			const calls: string[] = [];
			api()
				.post('/v1/contacts', (body) => (calls.push(`POST ${body.name}`), true))
				.reply(201, { data: { id: 'ctc_9', name: 'Row 0', email: 'twice@example.com' } })
				.patch('/v1/contacts/ctc_9', (body) => (calls.push(`PATCH ${body.name}`), true))
				.reply(200, { data: { id: 'ctc_9', name: 'Row 1', email: 'twice@example.com' } });
			const { items } = await runDeclarativeNode(node, upsert, {
				items: rows('twice@example.com', 'TWICE@example.com'),
				...onError,
			});
			expect(calls).toEqual(['POST Row 0', 'PATCH Row 1']);
			expect(items.map((i) => [i.json.action, i.json.id, i.pairedItem])).toEqual([
				['created', 'ctc_9', { item: 0 }],
				['updated', 'ctc_9', { item: 1 }],
			]);
		},
	);

	test('two overlapping runs with one API key and two Base URLs, one new address: each creates it at its own API', async () => {
		const bases = ['https://api.business-ops.test', 'https://eu.business-ops.test'];
		let arrive!: () => void;
		const bothRead = new Promise<void>((resolve) => {
			let reads = 0;
			arrive = () => ++reads === 2 && resolve();
		});
		const writes = bases.map((base, i) => {
			nock(base)
				.get('/v1/contacts')
				.query(true)
				.reply(async () => {
					arrive();
					await bothRead; // both runs have read before either creates
					return [200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } }];
				});
			return nock(base)
				.post('/v1/contacts')
				.reply(201, { data: { id: `ctc_${i}`, name: 'Row 0', email: 'new@example.com' } });
		});
		const runs = await Promise.all(
			bases.map((base) =>
				runDeclarativeNode(node, upsert, {
					items: rows('new@example.com'),
					credentials: { apiKey: TEST_API_KEY, baseUrl: `${base}/v1` },
				}),
			),
		);
		expect(runs.map(({ items }) => items[0].json.action)).toEqual(['created', 'created']);
		expect(writes.every((write) => write.isDone())).toBe(true);
	});

	test('a 409 on create (created meanwhile by someone else) reads the contacts again and updates', async () => {
		listing([]);
		api()
			.post('/v1/contacts')
			.reply(409, {
				error: { code: 'duplicate_resource', message: 'A contact with this e-mail exists' },
			});
		listing([{ id: 'ctc_5', name: 'Theirs', email: 'race@example.com' }]);
		const write = api()
			.patch('/v1/contacts/ctc_5', { name: 'Row 0' })
			.reply(200, {
				data: { id: 'ctc_5', name: 'Row 0', email: 'race@example.com' },
			});
		const { items } = await runDeclarativeNode(node, upsert, { items: rows('race@example.com') });
		expect(items.map((i) => [i.json.action, i.json.id])).toEqual([['updated', 'ctc_5']]);
		expect(write.isDone()).toBe(true);
	});

	test('a 409 that a new read does not explain is the API error', async () => {
		listing([]);
		api()
			.post('/v1/contacts')
			.reply(409, { error: { code: 'duplicate_resource', message: 'Duplicate KvK number' } });
		listing([]);
		const error = await runDeclarativeNode(node, upsert, { items: rows('kvk@example.com') }).catch(
			(e: Error) => e,
		);
		expect((error as Error).message).toMatch(/duplicate_resource|Duplicate KvK number/);
		expect((error as Error).message).toContain('[item 0]');
	});

	test('several contacts with the e-mail: an error naming them, nothing written for that item', async () => {
		listing([
			{ id: 'ctc_1', name: 'A', email: 'dup@example.com' },
			{ id: 'ctc_2', name: 'B', email: 'DUP@example.com' },
		]);
		const error = await runDeclarativeNode(node, upsert, { items: rows('dup@example.com') }).catch(
			(e: Error) => e,
		);
		expect((error as Error).message).toBe(
			'Email: 2 contacts have the e-mail dup@example.com (ctc_1, ctc_2), so it matches no single contact; nothing was written [item 0]',
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	test('a contact the API lists without an id is refused: it cannot be updated, and a create would double it', async () => {
		listing([{ name: 'No id', email: 'noid@example.com' } as Contact]);
		const error = await runDeclarativeNode(node, upsert, { items: rows('noid@example.com') }).catch(
			(e: Error) => e,
		);
		expect((error as Error).message).toBe(
			'Email: the API listed a contact with the e-mail noid@example.com without an ID, so it cannot be updated; nothing was written [item 0]',
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	test('a contact created without a name is for the API to refuse (the spec does not say which fields are required)', async () => {
		listing([]);
		const write = api()
			.post('/v1/contacts', { email: 'noname@example.com' })
			.reply(400, { error: { code: 'invalid_request', message: 'name is required' } });
		const error = await runDeclarativeNode(
			node,
			{ ...upsert, name: '' },
			{ items: rows('noname@example.com') },
		).catch((e: Error) => e);
		expect((error as Error).message).toContain('name is required');
		expect((error as Error).message).toContain('[item 0]');
		expect(write.isDone()).toBe(true);
	});

	test('Continue: a failed item (bad e-mail, several matches) is an error item; the others are still written in order', async () => {
		listing([
			{ id: 'ctc_1', name: 'A', email: 'dup@example.com' },
			{ id: 'ctc_2', name: 'B', email: 'dup@example.com' },
		]);
		const write = api()
			.post('/v1/contacts', { email: 'ok@example.com', name: 'Row 2' })
			.reply(201, { data: { id: 'ctc_3', name: 'Row 2', email: 'ok@example.com' } });
		const { items } = await runDeclarativeNode(node, upsert, {
			items: rows('not an e-mail', 'dup@example.com', 'ok@example.com'),
			continueOnFail: true,
		});
		expect(items.map((i) => [i.json.action ?? 'error', i.pairedItem])).toEqual([
			['error', { item: 0 }],
			['error', { item: 1 }],
			['created', { item: 2 }],
		]);
		expect(String(items[0].json.error)).toContain('is not an e-mail address');
		expect(String(items[1].json.error)).toContain('2 contacts have the e-mail dup@example.com');
		expect(write.isDone()).toBe(true);
	});

	test('Stop Workflow: once an item fails, no later item is written', async () => {
		listing([]);
		api()
			.post('/v1/contacts')
			.reply(400, { error: { code: 'invalid_request', message: 'phone is not valid' } });
		const error = await runDeclarativeNode(node, upsert, {
			items: rows('a@example.com', 'b@example.com'),
		}).catch((e: Error) => e);
		expect((error as Error).message).toContain('[item 0]');
		expect(nock.pendingMocks()).toEqual([]);
	});
});
