import nock from 'nock';
import { runDeclarativeNode, TEST_API_KEY, runWithRetries } from '../harness/engine';
import { api, node, UPSERT, contactsApi } from '../harness/actionNode';
import { fastClock } from '../harness/clock';
import type { INodeExecutionData } from 'n8n-workflow';

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
		// the API's data is wrong, not the input: no "Fix "Email"" frame
		expect(error).toMatchObject({
			message:
				'2 contacts have the e-mail dup@example.com (ctc_1, ctc_2), so it matches no single contact; nothing was written [item 0]',
			// a single item under Stop Workflow: no later item to name, nothing more to add
			description:
				'Merge or delete the duplicate contacts, or change one of them with Contact → Update and its Contact ID.',
			context: { itemIndex: 0 },
		});
		expect(nock.pendingMocks()).toEqual([]);
	});

	test('a contact the API lists without an id is refused: it cannot be updated, and a create would double it', async () => {
		listing([{ name: 'No id', email: 'noid@example.com' } as Contact]);
		const error = await runDeclarativeNode(node, upsert, { items: rows('noid@example.com') }).catch(
			(e: Error) => e,
		);
		expect(error).toMatchObject({
			message:
				'The API listed a contact with the e-mail noid@example.com without an ID, so it cannot be updated; nothing was written [item 0]',
			description:
				"Look the contact up in the Business Ops dashboard: the API should list every contact with its ID. Report it to the API's provider if it stays so.",
			context: { itemIndex: 0 },
		});
		expect(nock.pendingMocks()).toEqual([]);
	});

	test('tool mode: a contact listed without an id tells the model to tell the user, not to change the e-mail', async () => {
		listing([{ name: 'No id', email: 'noid@example.com' } as Contact]);
		const error = (await runDeclarativeNode(node, upsert, {
			items: rows('noid@example.com'),
			asTool: true,
		}).catch((e: unknown) => e)) as Error & { description?: string };
		expect(error.message).toBe(
			'The API listed a contact with the e-mail noid@example.com without an ID, so it cannot be updated; nothing was written. Changing the arguments will not help: tell the user what failed.',
		);
		expect(error.description).toBe(
			'Changing the arguments will not help: tell the user what failed.',
		);
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

describe('regression: a record field named action does not overwrite the action', () => {
	/**
	 * Break b31: Create or Update answers `{ action, ...record }`, so a contact field named `action`
	 * (the spec does not list every field of a contact: "not shown") replaces the node's own
	 * `action`. The output then says `"action": "archived"` for an update, which breaks the output
	 * schema (`__schema__/v1.0.0/contact/upsert.json`: action is "created" or "updated") and every
	 * IF/Switch node that routes on it.
	 *
	 * Expected: `action` is "updated" (the node's word wins; the record's own field is not lost
	 * silently either, but that is for the fix to choose).
	 */
	test('a record field named action does not replace what Create or Update did', async () => {
		api()
			.get('/v1/contacts')
			.query({ page: 1, pageSize: 100 })
			.reply(200, {
				data: [{ id: 'ctc_1', name: 'A', email: 'a@example.com' }],
				meta: { page: 1, pageSize: 100, total: 1, hasMore: false },
			});
		api()
			.patch('/v1/contacts/ctc_1')
			.reply(200, {
				data: { id: 'ctc_1', name: 'Row 0', email: 'a@example.com', action: 'archived' },
			});

		const { items } = await runDeclarativeNode(node, UPSERT, {
			items: [{ json: { email: 'a@example.com', name: 'Row 0' } }],
		});
		expect(items[0].json.action).toBe('updated');
		expect(items[0].json.id).toBe('ctc_1');
	});
});

describe('regression: a listed contact without an id is not patched', () => {
	/**
	 * Break b31: the index of Create or Update keeps `String(record.id)` for every listed contact. A
	 * listed contact without an `id` (an answer the node does not expect) becomes the id "undefined",
	 * and the item with that e-mail sends `PATCH /contacts/undefined`: a write to a path made up by the
	 * node, and an error that talks about a network failure ("the request failed without an answer")
	 * instead of the answer the node could not use.
	 *
	 * Expected: no write is sent for that item, and its error says the API listed a contact with this
	 * e-mail without an id (fail loudly, say what happened).
	 */
	test('a listed contact without an id is never written to as /contacts/undefined', async () => {
		api()
			.get('/v1/contacts')
			.query({ page: 1, pageSize: 100 })
			.reply(200, {
				data: [{ name: 'No id', email: 'noid@example.com' }],
				meta: { page: 1, pageSize: 100, total: 1, hasMore: false },
			});
		const sent: string[] = [];
		api()
			.patch(/.*/)
			.reply(200, (uri) => (sent.push(`PATCH ${uri}`), { data: { id: 'x' } }))
			.post(/.*/)
			.reply(201, (uri) => (sent.push(`POST ${uri}`), { data: { id: 'x' } }));

		const error = await runDeclarativeNode(node, UPSERT, {
			items: [{ json: { email: 'noid@example.com', name: 'Row 0' } }],
		}).then(
			() => undefined,
			(e: Error) => e,
		);
		expect(sent).toEqual([]);
		expect(error?.message).not.toContain('undefined');
		expect(error?.message).toMatch(/id/i);
		expect(error?.message).toContain('[item 0]');
	});
});

describe('regression: an expression error under Continue hung the run', () => {
	/**
	 * Break b31: Contact → Create or Update under "Continue" goes one item at a time in item order
	 * (writeInOrder, a rule with its own sender). An item whose parameter expression throws (here `parseJson()` of a
	 * value that is not JSON) fails inside n8n's RoutingNode while the item's request is built, before
	 * any preSend (beginItem, the guarded checks) runs and before the routing seam is reached. RoutingNode
	 * then gives that item an error item and goes on (continueOnFail), but the item never "finishes" in
	 * the run's item order, so every later item waits for its turn forever: the node never ends.
	 *
	 * Expected: item 1 is an error item, items 0 and 2 are written, the node run ends.
	 */
	test.each([['continueRegularOutput'], ['continueErrorOutput']] as const)(
		'an expression that fails for one item in the middle does not hold up the later items (%s)',
		async (onError) => {
			api()
				.get('/v1/contacts')
				.query({ page: 1, pageSize: 100 })
				.reply(200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } });
			const written: string[] = [];
			api()
				.post('/v1/contacts')
				.times(2)
				.reply(201, (_uri, body) => {
					const { email } = body as { email: string };
					written.push(email);
					return { data: { id: `ctc_${written.length}`, name: 'N', email } };
				});
			const items = [
				{ json: { raw: '{"email":"a@example.com"}' } },
				{ json: { raw: 'not json' } },
				{ json: { raw: '{"email":"c@example.com"}' } },
			];
			// Before the fix this never resolved: the test failed on jest's timeout below.
			const { items: out } = await runDeclarativeNode(
				node,
				{
					resource: 'contact',
					operation: 'upsert',
					email: '={{ $json.raw.parseJson().email }}',
					name: 'N',
				},
				{ items, onError },
			);
			expect(written).toEqual(['a@example.com', 'c@example.com']);
			// Item 1's error item is RoutingNode's own (`{ json: {}, error }`, made before the node's code
			// runs, as for every declarative operation): it carries the error, and n8n gives it no pairing.
			expect(out.map((item) => [item.pairedItem, Boolean(item.error)])).toEqual([
				[{ item: 0 }, false],
				[undefined, true],
				[{ item: 2 }, false],
			]);
		},
		15_000,
	);
});

describe('regression: a failing list read was repeated per item', () => {
	/**
	 * Break b31: "One list read per node run" does not hold when the read fails. Under "Continue" a
	 * failed list read is thrown away (`run.index = undefined`) and the next item reads again, each
	 * time with the transport's full retry series (5 attempts, 1+2+4+8 s of backoff). With the API
	 * answering 500 for a while, a run of 1,000 rows sends 5,000 GET /contacts and waits about four
	 * hours before it ends; every row gets the same error anyway.
	 *
	 * The same with a 429 whose Retry-After is longer than the node waits: every later item sends its
	 * own GET /contacts at once, after the API asked for an hour.
	 *
	 * Expected: a run reads (and retries) the list as one read, whatever the number of items: a run of
	 * 4 items sends as many GET /contacts as a run of 1 item, and every item still gets its error item.
	 */
	const upsert = UPSERT;
	const rows = (count: number) =>
		Array.from({ length: count }, (_, i) => ({
			json: { email: `r${i}@example.com`, name: `Row ${i}` },
		}));

	/** GET /contacts answering 500 every time; returns how many were sent and the waits between them. */
	async function runAgainstFailingRead(count: number) {
		const waits = fastClock();
		let reads = 0;
		api()
			.get('/v1/contacts')
			.query(true)
			.times(1000)
			.reply(() => (reads++, [500, { error: { code: 'internal', message: 'down' } }]));
		const { items } = await runDeclarativeNode(node, upsert, {
			items: rows(count),
			continueOnFail: true,
		});
		nock.cleanAll();
		return {
			reads,
			waited: waits.reduce((a, b) => a + b, 0),
			errors: items.map((item) => String(item.json.error)),
		};
	}

	test('Continue: a list read that keeps failing is read (and retried) once per run, not once per item', async () => {
		const one = await runAgainstFailingRead(1);
		const four = await runAgainstFailingRead(4);
		expect(four.errors).toHaveLength(4);
		for (const error of four.errors) expect(error).toContain('GET /contacts');
		expect(four.reads).toBe(one.reads);
		expect(four.waited).toBe(one.waited);
	}, 20_000);

	test('Continue: after the list read was told to wait an hour (429, Retry-After: 3600), later items do not ask again at once', async () => {
		fastClock();
		let reads = 0;
		api()
			.get('/v1/contacts')
			.query(true)
			.times(100)
			.reply(
				() => (
					reads++,
					[
						429,
						{ error: { code: 'rate_limited', message: 'slow down' } },
						{ 'Retry-After': '3600' },
					]
				),
			);
		const { items } = await runDeclarativeNode(node, upsert, {
			items: rows(4),
			continueOnFail: true,
		});
		expect(items.map((item) => String(item.json.error))).toEqual(
			Array.from({ length: 4 }, (_, i) => expect.stringContaining(`[item ${i}]`)),
		);
		// one read for the run, not 4 GET /contacts within the same second after the API asked for an hour
		expect(reads).toBe(1);
	});
});

describe("regression: the list read ignored the item's Request Options", () => {
	/**
	 * Break b31: n8n gives every declarative node "Request Options" (Proxy, Timeout, Ignore SSL Issues),
	 * and RoutingNode puts them on each item's request (`proxy`, `timeout`, `skipSslCertificateValidation`,
	 * and the credential's `allowedDomains`). Create or Update's writes spread those options, but its
	 * list read built a fresh request (`{ method: 'GET', url: '/contacts', qs }`), so the read ignored
	 * them: a Proxy was bypassed, the Timeout did not bound the read, Ignore SSL Issues did not apply.
	 *
	 * Expected: the list read carries the item's Request Options. Shown with Timeout, the option whose
	 * effect a mocked API can observe: a list read answered far later than the Timeout fails as a
	 * network failure (retried, as every GET), and nothing is written. (A real proxy cannot be used
	 * here: the HTTP interception of the test harness hands a proxy agent no socket.)
	 */
	test("with a Timeout in Request Options, the list read is bound by it (the read uses the item's Request Options)", async () => {
		api()
			.get('/v1/contacts')
			.query(true)
			.times(5)
			.delay(3_000)
			.reply(200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } });
		const write = api()
			.post('/v1/contacts')
			.reply(201, { data: { id: 'ctc_1', name: 'N', email: 'a@example.com' } });
		const error = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'upsert',
			email: 'a@example.com',
			name: 'N',
			requestOptions: { timeout: 100 },
		}).catch((e: Error) => e);
		expect((error as Error).message).toMatch(/Could not complete GET \/contacts/);
		expect(write.isDone()).toBe(false);
	}, 30_000);
});

describe('regression: Retry On Fail + Continue split a run and made duplicates', () => {
	/**
	 * What a user does: Contact → Create or Update under On Error "Continue" with Retry On Fail on.
	 * n8n (1.123, 2.x) runs the node again when the FIRST output item is an error item
	 * (docs/n8n-features.md, "Retry On Fail"). Three rows: row 0's create gets a 500 in try 1 (so
	 * n8n tries again); rows 1 and 2 carry the same new address. Row 1's expression fails in try 1
	 * only, row 0's in try 2 only (an expression whose outcome differs per try, e.g. one on `$now`;
	 * here an input field that is not JSON in one chosen try, so `$json.raw.parseJson()` throws).
	 *
	 * What happens: in try 2 the first item to reach the seam is row 1, which never arrived in try 1,
	 * so itemOrder.ts does not see a new try and keeps try 1's finished run for it (with try 1's
	 * contact index: "no memory of the previous try" does not hold); row 2 then arrives "a second
	 * time" and starts another run. Rows 1 and 2 are sent side by side in two runs: row 2's write is
	 * allowed while row 1's is in flight. Here the contact try 1 created was deleted before try 2:
	 * row 1 PATCHes it from try 1's memory (404, an error item), row 2 reads afresh and creates it.
	 *
	 * What should happen: each try is a run of its own (docs/n8n-features.md: "a try starts with no
	 * memory"), ordered: row 1 reads afresh and creates the contact, row 2 updates it.
	 */
	test('Retry On Fail + Continue: a try whose first arriving item is new is still a new run; with no memory of the previous try', async () => {
		let tryNo = 1;
		/** An input field whose expression fails in the given try only. */
		const flaky = (email: string, failsIn: number) => ({
			// `{{ $json.raw.parseJson().email }}` throws (never built) in the try where raw is not JSON
			get raw() {
				return tryNo === failsIn ? 'not json' : JSON.stringify({ email });
			},
			name: email,
		});
		const items: INodeExecutionData[] = [
			{ json: flaky('first@example.com', 2) },
			{ json: flaky('dup@example.com', 1) },
			{ json: { raw: JSON.stringify({ email: 'dup@example.com' }), name: 'row 2' } },
		];
		// a stateful API: the list shows what was created; a write takes a moment to answer
		const contacts: Array<{ id: string; email: string; name: string }> = [];
		const events: string[] = [];
		const api = nock('https://api.business-ops.test').persist();
		api
			.get('/v1/contacts')
			.query(true)
			.reply(200, () => ({
				data: contacts,
				meta: { page: 1, pageSize: 100, total: contacts.length, hasMore: false },
			}));
		api
			.post('/v1/contacts')
			.delay(100)
			.reply((_uri, body) => {
				const { email, name } = body as { email: string; name: string };
				events.push(`try ${tryNo}: POST ${name}`);
				if (tryNo === 1 && email === 'first@example.com')
					return [500, { error: { code: 'internal', message: 'boom' } }];
				const contact = { id: `ctc_${contacts.length + 1}`, email, name };
				contacts.push(contact);
				return [201, { data: contact }];
			});
		api
			.patch(
				/\/v1\/contacts\/.*/,
				(body) => (events.push(`try ${tryNo}: PATCH ${body.name} sent`), true),
			)
			.delay(100)
			.reply((uri, body) => {
				const contact = contacts.find((c) => c.id === uri.split('/').pop());
				if (!contact) return [404, { error: { code: 'not_found', message: 'Contact not found' } }];
				events.push(`try ${tryNo}: PATCH ${(body as { name: string }).name} answered`);
				contact.name = (body as { name: string }).name;
				return [200, { data: contact }];
			});

		const parameters = {
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.raw.parseJson().email }}',
			name: '={{ $json.name }}',
		};
		const tries = await runWithRetries(node, parameters, {
			items,
			maxTries: 2,
			onError: 'continueRegularOutput',
			betweenTries: () => {
				tryNo++;
				// between the tries the contact try 1 created is deleted in the dashboard
				contacts.splice(0);
			},
		});
		const outputs = tries.map((t) => t.items ?? []);
		expect(outputs).toHaveLength(2);
		// try 2 reads the contacts afresh: none has dup@example.com, so row 1 creates it and row 2 updates it
		expect(outputs[1].slice(1).map((i) => i.json.action ?? i.json.error)).toEqual([
			'created',
			'updated',
		]);
	}, 15000);
});

describe('regression: a retry reported its own create as updated', () => {
	/**
	 * Create or Update with Retry On Fail: item 0 creates its contact (answered 201) and item 1 gets
	 * 503 once. The next try reads the contact list again, finds item 0's contact there, and PATCHes it:
	 * a write for item 0 the first try did not need (README: Retry On Fail "does not send a write again
	 * that the API already accepted"), and item 0's output now says `action: "updated"` for the contact
	 * this run created, so a workflow that branches on "created" (a welcome e-mail) misses it.
	 */
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
});

describe('regression: the same contact on two pages is not several matches', () => {
	/**
	 * Break b31: the contacts list is read in pages (page=N, pageSize=100). When a contact is added
	 * while the list is read (someone else's sync, a form), the records shift by one and the contact at
	 * the page boundary comes back on two pages. Create or Update then counts that one contact twice
	 * and refuses the item: "2 contacts have the e-mail c99@example.com (ctc_99, ctc_99)", naming the
	 * same id twice. One contact id is one contact.
	 *
	 * Expected: the one contact ctc_99 is updated.
	 */
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
});

describe('regression: several matches gave tool mode the wrong advice', () => {
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
		expect(text).toContain(
			'Do not change the e-mail. Tell the user to merge the duplicate contacts, or update one of them with its contact ID. Nothing was written.',
		);
	});
});

describe('regression: a network error in tool mode names no item index', () => {
	/**
	 * Break b31: as a tool (AI agent, MCP client), an error is worded for the model and carries no
	 * "[item N]" (common brief; validation.ts and apiErrorFor follow it). A network failure of Create or
	 * Update's list read, or of its write, comes from the transport's own NodeOperationError, which
	 * appends itemSuffix(itemIndex) whatever the mode: the model reads
	 * "Could not complete GET /contacts: the connection was closed by the server [item 0]".
	 * (Contact → Create gives the same on its POST: the cause is in transport.ts, not only in upsert.)
	 *
	 * Expected: in tool mode neither error names an item.
	 */
	const upsert = UPSERT;
	const connectionReset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
	const asTool = async () =>
		(await runDeclarativeNode(node, upsert, {
			items: [{ json: { email: 'a@example.com', name: 'A' } }],
			asTool: true,
		}).catch((e: unknown) => e)) as Error;

	test('tool mode: a network failure of the list read names no item', async () => {
		api().get('/v1/contacts').query(true).times(10).replyWithError(connectionReset());
		const error = await asTool();
		expect(error.message).toContain('GET /contacts');
		expect(error.message).not.toContain('[item');
	});

	test('tool mode: a network failure of the write names no item', async () => {
		api()
			.get('/v1/contacts')
			.query(true)
			.reply(200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } });
		api().post('/v1/contacts').replyWithError(connectionReset());
		const error = await asTool();
		expect(error.message).toContain('POST /contacts');
		expect(error.message).not.toContain('[item');
	});
});

describe('regression: an address with zero-width characters sent a value the API refuses', () => {
	/**
	 * What a user does: Contact → Create or Update with Email `{{ $json.email }}`, where the spreadsheet
	 * cell holds `jan@shop.x` followed by a pasted zero-width space (U+200B) — the very case the
	 * operation claims to handle ("zero-width characters do not matter").
	 *
	 * What happens: the Email check (an e-mail needs a top-level domain of 2+ characters) reads the
	 * text WITH the zero-width space, so "x\u200b" counts as a 2-character domain and the check passes;
	 * the create then strips the zero-width space and POSTs `jan@shop.x`, a value the check refuses
	 * (Contact → Create refuses `jan@shop.x` itself). The same holds for an address made only of
	 * zero-width characters around `@` and `.`: it passes and `@.` is sent.
	 *
	 * What should happen: the check reads the address in the form that is sent (as fields.ts promises:
	 * "the value its check accepted is the value sent"), so the item is refused before anything is sent.
	 */
	const upsert = {
		resource: 'contact',
		operation: 'upsert',
		email: '={{ $json.email }}',
		name: 'Jan',
	};

	test.each([
		['a pasted zero-width space after a one-letter domain', 'jan@shop.x\u200b'],
		['only zero-width characters around @ and .', '\u200b@\u200b.\u200b\u200b'],
	])(
		'Create or Update does not POST an address its own e-mail check refuses: %s',
		async (_, given) => {
			const posted: unknown[] = [];
			const scope = nock('https://api.business-ops.test')
				.get('/v1/contacts')
				.query(true)
				.reply(200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } })
				.post('/v1/contacts', (body) => (posted.push(body), true))
				.reply(201, { data: { id: 'ctc_1', name: 'Jan' } });
			const outcome = await runDeclarativeNode(node, upsert, {
				items: [{ json: { email: given } }],
				continueOnFail: true,
			});
			scope.persist(false);
			// the check refuses `jan@shop.x` when given plainly; the address sent must pass that same check
			expect(posted).toEqual([]);
			expect(String(outcome.items[0].json.error)).toMatch(/Email: .* is not an e-mail address/);
		},
	);

	test('control: the plain address the upsert would send is refused by the check', async () => {
		const outcome = await runDeclarativeNode(node, upsert, {
			items: [{ json: { email: 'jan@shop.x' } }],
			continueOnFail: true,
		});
		expect(String(outcome.items[0].json.error)).toMatch(/is not an e-mail address/);
	});
});

const FAULTY = [
	{ id: 'ctc_1', name: 'A', email: 'dup@example.com' },
	{ id: 'ctc_2', name: 'B', email: 'dup@example.com' },
	{ name: 'C', email: 'noid@example.com' } as Contact,
];

describe("Create or Update: the API's data at fault (no ID, duplicates), per item under every On Error", () => {
	test('Stop Workflow: item 1 a duplicate, item 2 not sent, item 0 (created) named', async () => {
		listing(FAULTY);
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
		expect(error.description).not.toMatch(/To try every item/);
		expect(created.isDone()).toBe(true);
	});

	test.each(['continueRegularOutput', 'continueErrorOutput'] as const)(
		'%s: each fault is its own item, with its index once and the fix, and the good item is written',
		async (onError) => {
			listing(FAULTY);
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
