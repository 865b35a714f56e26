/**
 * The write path under n8n's Retry On Fail and On Error settings, counted on a stateful API:
 * how many records each address ends with, and which writes were sent.
 */
import nock from 'nock';
import type { INodeExecutionData } from 'n8n-workflow';
import { byId, runDeclarativeNode, runWithRetries, TEST_BASE_URL } from '../harness/engine';
import { API, contactsApi, node, UPSERT } from '../harness/actionNode';

const createContact = {
	resource: 'contact',
	operation: 'create',
	name: '={{ $json.name }}',
	additionalFields: { email: '={{ $json.email }}' },
};
const upsert = UPSERT;
const rows = (...names: string[]): INodeExecutionData[] =>
	names.map((name, i) => ({ json: { name, email: `c${i}@example.com` } }));
const serverError = { error: { code: 'unavailable', message: 'Try later' } };

describe('Retry On Fail sends no write that was already answered', () => {
	test('Stop Workflow: the 2nd create answered 503 once; the next try does not create the 1st again', async () => {
		const api = contactsApi((_method, _body, sent) =>
			sent === 2 ? [503, serverError] : undefined,
		);
		const tries = await runWithRetries(node, createContact, {
			items: rows('Ann', 'Bob', 'Cas'),
			maxTries: 3,
		});
		expect(tries.map((t) => (t.error ? 'failed' : 'succeeded'))).toEqual(['failed', 'succeeded']);
		expect(api.writes).toEqual(['POST Ann', 'POST Bob', 'POST Bob', 'POST Cas']);
		expect(api.contacts.map((c) => c.name)).toEqual(['Ann', 'Bob', 'Cas']);
		// the answer kept is the item's output of the try that did not send it
		expect(tries[1].items?.map((i) => [i.json.id, i.pairedItem])).toEqual([
			['ctc_1', { item: 0 }],
			['ctc_2', { item: 1 }],
			['ctc_3', { item: 2 }],
		]);
	});

	test.each(['continueRegularOutput', 'continueErrorOutput'] as const)(
		'%s: the 1st create answered 503 once; n8n runs the node again and the 2nd and 3rd are not created again',
		async (onError) => {
			const api = contactsApi((_method, _body, sent) =>
				sent === 1 ? [503, serverError] : undefined,
			);
			const tries = await runWithRetries(node, createContact, {
				items: rows('Ann', 'Bob', 'Cas'),
				maxTries: 3,
				onError,
			});
			const outputs = tries.map((t) => t.items ?? []);
			expect(outputs).toHaveLength(2);
			expect(api.writes).toEqual(['POST Ann', 'POST Bob', 'POST Cas', 'POST Ann']);
			expect(api.contacts.map((c) => c.name).sort()).toEqual(['Ann', 'Bob', 'Cas']);
			expect(outputs[1].map((i) => i.json.id)).toEqual(['ctc_3', 'ctc_1', 'ctc_2']);
		},
	);

	test('Create or Update: an update answered in the 1st try is not sent again in the 2nd', async () => {
		const api = contactsApi((method, _body, sent) =>
			method === 'POST' && sent === 2 ? [503, serverError] : undefined,
		);
		api.contacts.push({ id: 'ctc_0', name: 'Old', email: 'c0@example.com' });
		const tries = await runWithRetries(node, upsert, { items: rows('Ann', 'Bob'), maxTries: 3 });
		expect(tries.map((t) => (t.error ? 'failed' : 'succeeded'))).toEqual(['failed', 'succeeded']);
		expect(api.writes).toEqual(['PATCH Ann', 'POST Bob', 'POST Bob']);
		expect(tries[1].items?.map((i) => [i.json.action, i.json.id])).toEqual([
			['updated', 'ctc_0'],
			['created', 'ctc_2'],
		]);
	});

	test('two items with the same request are two writes: the memory is per item', async () => {
		const api = contactsApi();
		await runDeclarativeNode(node, createContact, {
			items: [
				{ json: { name: 'Ann', email: 'a@example.com' } },
				{ json: { name: 'Ann', email: 'a@example.com' } },
			],
		});
		expect(api.writes).toEqual(['POST Ann', 'POST Ann']);
	});

	test('a node run again (a loop: new execute data, new run index) sends its writes again', async () => {
		const api = contactsApi();
		await runDeclarativeNode(node, createContact, { items: rows('Ann', 'Bob') });
		await runDeclarativeNode(node, createContact, { items: rows('Ann', 'Bob') });
		expect(api.writes).toEqual(['POST Ann', 'POST Bob', 'POST Ann', 'POST Bob']);
	});
});

describe('Stop Workflow: the error says what was written', () => {
	const badEmail = [{ json: { name: 'Ann', email: 'not-an-address' } }];
	const refusal = 'Fix "Email" for item 0. Nothing was sent for this item.';

	test('an input refusal says what to fix, and nothing more when no later item was held back', async () => {
		const api = contactsApi();
		const error = (await runDeclarativeNode(node, createContact, { items: badEmail }).catch(
			(e: unknown) => e,
		)) as Error & { description?: string };
		expect(error.description).toBe(refusal);
		expect(api.writes).toEqual([]);
	});

	test('a refusal of the first of 2 items says what to fix, that item 1 was held back, and how to try every item', async () => {
		const api = contactsApi();
		const error = (await runDeclarativeNode(node, createContact, {
			items: [...badEmail, { json: { name: 'Bob', email: 'bob@example.com' } }],
		}).catch((e: unknown) => e)) as Error & { description?: string };
		expect(error.description).toBe(
			`${refusal} Item 1 was not sent: with On Error set to "Stop Workflow", no later item is sent once one fails. To try every item, set On Error to "Continue".`,
		);
		expect(api.writes).toEqual([]);
	});

	test('found: a create answered 503 under Stop Workflow was told to run again twice, the second time as if nothing was sent', async () => {
		nock(API).post('/v1/contacts').reply(503, 'busy');
		const error = (await runDeclarativeNode(
			node,
			{ resource: 'contact', operation: 'create', name: 'A', email: 'a@example.com' } as never,
			{ items: [{ json: {} }] },
		).catch((e: unknown) => e)) as Error & { description?: string };
		// said once, last: the Stop text adds nothing for a single item
		expect(error.description).toMatch(
			/[^.]\. Try again later; .*check whether the change was made before repeating it\.$/,
		);
	});

	test('under Continue the same refusal says what to fix, and nothing about On Error', async () => {
		contactsApi();
		const { items } = await runDeclarativeNode(node, createContact, {
			items: badEmail,
			continueOnFail: true,
		});
		expect(items[0].error?.description).toBe(refusal);
	});

	test('3 creates, the 2nd refused with 422: the error names the contact created, the item not sent, and what running again does', async () => {
		const api = contactsApi((_method, body) =>
			body.name === 'Bob'
				? [422, { error: { code: 'validation_error', message: 'phone is not valid' } }]
				: undefined,
		);
		const error = (await runDeclarativeNode(node, createContact, {
			items: rows('Ann', 'Bob', 'Cas'),
		}).catch((e: unknown) => e)) as Error & {
			description?: string;
		};
		expect(api.writes).toEqual(['POST Ann', 'POST Bob']);
		expect(error.message).toContain('[item 1]');
		expect(error.description).toContain('phone is not valid');
		expect(error.description).toContain('Item 2 was not sent');
		expect(error.description).toContain('Already written by this run: item 0 (ctc_1)');
		expect(error.description).toMatch(/Running the workflow again .* sends item 0 again/);
		expect(error.description).toContain('Retry in the Executions list');
		expect(error.description).toContain(
			'unless you remove it from the input or send contacts through Contact → Create or Update',
		);
		expect(error.description).not.toContain('To try every item');
	});
});

test("Stop Workflow: 2 deletes, the 2nd failing: the error says a new run's delete of item 0 fails with 404", async () => {
	nock(API)
		.delete('/v1/contacts/ctc_1')
		.reply(200, { data: { id: 'ctc_1' } });
	nock(API)
		.delete('/v1/contacts/ctc_2')
		.reply(422, { error: { code: 'validation_error', message: 'contact has open invoices' } });
	const remove = { resource: 'contact', operation: 'delete', contactId: byId('={{ $json.id }}') };
	const error = (await runDeclarativeNode(node, remove, {
		items: [{ json: { id: 'ctc_1' } }, { json: { id: 'ctc_2' } }],
	}).catch((e: unknown) => e)) as Error & {
		description?: string;
	};
	expect(error.description).toContain('Already written by this run: item 0 (ctc_1)');
	expect(error.description).toContain(
		'a delete fails with 404 (not found): the record is already deleted',
	);
});

describe('Create or Update: overlapping runs in one process', () => {
	test('two executions at once for one new address, the API answering slowly: one contact, the later run updates it', async () => {
		const api = contactsApi(undefined, 200);
		const [first, second] = await Promise.all([
			runDeclarativeNode(node, upsert, {
				items: [{ json: { email: 'new@example.com', name: 'First' } }],
			}),
			runDeclarativeNode(node, upsert, {
				items: [{ json: { email: 'New@Example.com', name: 'Second' } }],
			}),
		]);
		expect(api.contacts).toHaveLength(1);
		expect(api.writes).toEqual(['POST First', 'PATCH Second']);
		expect([first.items[0].json.action, second.items[0].json.action]).toEqual([
			'created',
			'updated',
		]);
	});
});

test('Create or Update: overlapping runs with two API keys (two accounts) do not coordinate: each account gets its contact', async () => {
	const api = contactsApi(undefined, 200);
	const credentials = (letter: string) => ({
		apiKey: `svc_${letter.repeat(32)}`,
		baseUrl: TEST_BASE_URL,
	});
	await Promise.all(
		['a', 'b'].map(
			async (letter) =>
				await runDeclarativeNode(node, upsert, {
					credentials: credentials(letter),
					items: [{ json: { email: 'new@example.com', name: letter } }],
				}),
		),
	);
	expect(api.writes).toEqual(['POST a', 'POST b']);
});

describe('Create or Update: invisible characters', () => {
	test.each([
		['a left-to-right mark (U+200E)', 'ann\u200e@example.com'],
		['a right-to-left mark (U+200F)', '\u200fann@example.com'],
		['a soft hyphen (U+00AD)', 'ann@exam\u00adple.com'],
	])('an address with %s is the contact the API lists', async (_, given) => {
		const api = contactsApi();
		api.contacts.push({ id: 'ctc_1', name: 'Old', email: 'ann@example.com' });
		const { items } = await runDeclarativeNode(node, upsert, {
			items: [{ json: { email: given, name: 'Ann' } }],
		});
		expect(items.map((i) => [i.json.action, i.json.id])).toEqual([['updated', 'ctc_1']]);
		expect(api.contacts).toHaveLength(1);
	});

	test('a new address is created without its format characters', async () => {
		const api = contactsApi();
		await runDeclarativeNode(node, upsert, {
			items: [{ json: { email: '\u200eann\u00ad@example.com\u2066', name: 'Ann' } }],
		});
		expect(api.contacts.map((c) => c.email)).toEqual(['ann@example.com']);
	});
});

describe('Stop Workflow: Update and Delete of several items go one at a time', () => {
	/** Writes to /contacts/{id} answered after a moment; `failing` is refused with 404. */
	function slowWrites(method: 'patch' | 'delete', failing: string) {
		const seen = { sent: [] as string[], inFlight: 0, most: 0 };
		const scope = nock(API).persist();
		scope[method](/\/v1\/contacts\/.*/).reply(async (uri) => {
			const id = uri.split('/').pop() as string;
			seen.sent.push(id);
			seen.most = Math.max(seen.most, ++seen.inFlight);
			await new Promise((resolve) => setTimeout(resolve, 20));
			seen.inFlight--;
			if (id === failing)
				return [404, { error: { code: 'not_found', message: 'Contact not found' } }];
			return [200, { data: { id, name: 'x' } }];
		});
		return seen;
	}
	const ids = (...list: string[]) => list.map((id) => ({ json: { id } }));

	test.each([
		[
			'Delete',
			'delete',
			{ resource: 'contact', operation: 'delete', contactId: byId('={{ $json.id }}') },
		],
		[
			'Update',
			'patch',
			{
				resource: 'contact',
				operation: 'update',
				contactId: byId('={{ $json.id }}'),
				updateFields: { name: 'New' },
			},
		],
	] as const)(
		'%s: one at a time in item order, nothing after the failed item, the error lists the items not sent',
		async (_, method, parameters) => {
			const seen = slowWrites(method, 'ctc_2');
			const error = (await runDeclarativeNode(node, parameters, {
				items: ids('ctc_1', 'ctc_2', 'ctc_3', 'ctc_4'),
			}).catch((e: unknown) => e)) as Error & {
				description?: string;
			};
			expect(seen.sent).toEqual(['ctc_1', 'ctc_2']);
			expect(seen.most).toBe(1);
			expect(error.message).toContain('[item 1]');
			expect(error.description).toContain('Items 2, 3 were not sent');
			expect(error.description).toContain('Already written by this run: item 0 (ctc_1)');
			expect(error.description).not.toContain('Create or Update');
		},
	);
});

test('Create or Update: items Ann@Example.com then ann@example.com in one run make one contact', async () => {
	const api = contactsApi();
	const { items } = await runDeclarativeNode(node, upsert, {
		items: [
			{ json: { email: 'Ann@Example.com', name: 'Ann' } },
			{ json: { email: 'ann@example.com', name: 'Ann' } },
		],
	});
	expect(api.contacts).toHaveLength(1);
	expect(api.writes).toEqual(['POST Ann', 'PATCH Ann']);
	expect(items.map((i) => i.json.action)).toEqual(['created', 'updated']);
});

describe("regression: the Stop Workflow error forgot an earlier try's writes", () => {
	/**
	 * README, Errors: under Stop Workflow "the error names the failed item and why, the items not sent,
	 * and the records this run already wrote". The error lists only what the *last try* wrote. Create or
	 * Update, Retry On Fail with 2 tries: try 1 creates item 0's contact (201) and item 1 gets 503; try 2
	 * reads the list again, sends item 0 as a PATCH, and that PATCH gets 503. The node's error then
	 * says only what to do about the failed item: nothing about the contact this run created, so
	 * the user re-runs believing nothing was written.
	 */
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
});

describe('regression: the Stop Workflow error wording for Create or Update and Delete', () => {
	/**
	 * The Stop Workflow error tells what running the workflow again does to the items already written
	 * (ARCHITECTURE: "what this try already wrote ... and that a new run writes them again"). It says
	 * the same for every operation: "it sends item 0 again (a create makes a second record), unless you
	 * remove it from the input". For Contact → Create or Update a new run updates the contact it made
	 * (no second record: that is what the operation is for, and the error for Contact → Create even
	 * recommends it); for a Delete a new run deletes nothing twice, it fails on item 0 (404).
	 */
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
});
