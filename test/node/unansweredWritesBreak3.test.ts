/**
 * A third break run on the unanswered-writes rules (itemOrder.ts, the create proofs, the change proofs),
 * through n8n-core's engine with Retry On Fail (Wait Between Tries 1000 ms on the harness clock). A test
 * titled "found:" was a proven bug, now fixed; a `test.failing` titled "LIMIT:" asserts the promise (a
 * write that may have reached the API is not sent again until the API shows it was not made) where it
 * is kept, with why above it; the other tests are controls that hold.
 */
import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { API, node } from '../harness/actionNode';
import { realSleep } from '../harness/clock';
import { byId, runWithRetries } from '../harness/engine';
import {
	contactCreate as createByNameAndEmail,
	FAILS_TO_BUILD,
	networkError,
	outcomes,
	retrying,
	statusApi,
	withItemsLeftBehind,
	writesApi,
	type Fate,
} from '../harness/unansweredWrites';

const contactCreate = {
	...createByNameAndEmail,
	additionalFields: { email: '={{ $json.email }}', phone: '={{ $json.phone ?? "" }}' },
};

describe('a status move proven by the status alone (the record moved on after the write, or showed it before)', () => {
	// kept: a status cannot tell a reminder already sent from one not sent; Send is proven by any status past finalized so a paid invoice is never sent back to sent
	test.failing(
		'LIMIT: Invoice → Send of an invoice the customer already viewed (a reminder: spec 3 allows "any" status → sent, with invoice.sent), its PATCH reset before the API applied it: the proof sees "viewed", answers the item as sent, and the reminder e-mail never goes out',
		async () => {
			const api = statusApi(
				'/v1/invoices/inv_1',
				{ id: 'inv_1', status: 'viewed' },
				() => {},
				true,
			);
			const tries = await retrying(
				{ resource: 'invoice', operation: 'send', invoiceId: byId('inv_1') },
				[{ json: {} }],
			);
			expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
			expect(api.events).toEqual(['invoice.sent']);
		},
	);

	// kept: a status cannot tell who moved it
	test.failing(
		'LIMIT: Agent → Pause, the answer lost after the API paused it, a colleague resuming the agent in the dashboard before the proving read: the proof sees "active" and pauses it again, undoing the colleague\'s resume',
		async () => {
			const agent: IDataObject = { id: 'agt_1', status: 'active' };
			let pauses = 0;
			nock(API)
				.persist()
				.get('/v1/agents/agt_1')
				.reply(() => [200, { data: agent }]);
			nock(API)
				.persist()
				.post('/v1/agents/agt_1/pause')
				.reply(async () => {
					pauses++;
					agent.status = 'paused';
					if (pauses === 1) {
						setImmediate(() => (agent.status = 'active'));
						throw networkError('ECONNRESET', 'socket hang up');
					}
					return [200, { data: agent }];
				});
			const tries = await retrying(
				{ resource: 'agent', operation: 'pause', agentId: byId('agt_1') },
				[{ json: {} }],
			);
			expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
			expect(pauses).toBe(1);
		},
	);

	test('found: Invoice → Send, the answer lost after the API applied it, the customer paying at once (sent → paid) before the proving read: the proof sees neither sent nor viewed and PATCHes "sent" again: the paid invoice goes back to sent and a 2nd invoice.sent e-mail goes out', async () => {
		const api = statusApi('/v1/invoices/inv_1', { id: 'inv_1', status: 'finalized' }, (r) => {
			if (r.status === 'sent') r.status = 'paid';
		});
		const tries = await retrying(
			{ resource: 'invoice', operation: 'send', invoiceId: byId('inv_1') },
			[{ json: {} }],
		);
		expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
		expect(api.patches()).toBe(1);
		expect(api.record.status).toBe('paid');
	});

	test('found: Quote → Send, the answer lost after the API applied it, the customer approving it at once (sent → approved, spec 3) before the proving read: the proof sees no "sent" and PATCHes "sent" again: the approved quote is moved back to sent', async () => {
		const api = statusApi('/v1/quotes/quo_1', { id: 'quo_1', status: 'draft' }, (r) => {
			if (r.status === 'sent') r.status = 'approved';
		});
		const tries = await retrying({ resource: 'quote', operation: 'send', quoteId: byId('quo_1') }, [
			{ json: {} },
		]);
		expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
		expect(api.patches()).toBe(1);
		expect(api.record.status).toBe('approved');
	});
});

// kept: a list read counts as whole by its total and repeated ids; a delete and an add between two pages leave both unchanged (pages.ts)
test.failing(
	"LIMIT: Contact → Create, the answer lost after the API stored it as the 101st contact; between the proving read's page 1 and page 2 another client deletes an older contact and adds one (total unchanged, no id repeated, so the read counts as whole): the own contact slid onto page 1 unseen, the proof says absent and creates it again",
	async () => {
		let moved = false;
		const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), {
			beforePage: (kind, page) => {
				if (kind !== 'contacts' || page !== 2 || moved || api.records.contacts.length !== 101)
					return;
				moved = true;
				api.records.contacts.splice(5, 1);
				api.records.contacts.push({ id: 'con_theirs', name: 'Zed', email: 'zed@example.com' });
			},
		});
		for (let i = 0; i < 100; i++)
			api.records.contacts.push({ id: `con_${i}`, name: `Old ${i}`, email: `old${i}@example.com` });
		const tries = await retrying(contactCreate, [
			{ json: { name: 'Ann', email: 'ann@example.com' } },
		]);
		await api.settled();
		expect(moved).toBe(true);
		expect(api.writes).toEqual(['POST /contacts Ann']);
		expect(api.records.contacts.filter((c) => c.email === 'ann@example.com')).toHaveLength(1);
		expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
	},
);

test('found: Contact → Create with a phone typed "+31 20-123 45 67", an API that stores phones in one form ("+31201234567"; the spec is silent), the answer lost: the proof compares phones without spaces only, the dash makes its own contact "another\'s", and it is created again', async () => {
	const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), {
		store: (body) => ({
			...body,
			...(body.phone ? { phone: String(body.phone).replace(/[^+\d]/g, '') } : {}),
		}),
	});
	const tries = await retrying(contactCreate, [
		{ json: { name: 'Ann', email: 'ann@example.com', phone: '+31 20-123 45 67' } },
	]);
	await api.settled();
	expect(api.records.contacts).toHaveLength(1);
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
});

test('control: the same with the phone typed "+31 20 123 45 67" (spaces only): found, not created again', async () => {
	const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), {
		store: (body) => ({ ...body, phone: String(body.phone).replace(/[^+\d]/g, '') }),
	});
	const tries = await retrying(contactCreate, [
		{ json: { name: 'Ann', email: 'ann@example.com', phone: '+31 20 123 45 67' } },
	]);
	await api.settled();
	expect(api.records.contacts).toHaveLength(1);
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
});

test('found: Request → Create, External Reference "T-1 " (a trailing space from a spreadsheet), an API that stores it trimmed, the answer lost: requestCreated compares External References exactly (not as the proof compares fields), finds nothing and creates the request again', async () => {
	const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), {
		store: (body) => ({ ...body, externalRef: String(body.externalRef).trim() }),
	});
	const tries = await retrying(
		{
			resource: 'request',
			operation: 'create',
			fromEmail: 'anna@example.nl',
			subject: 'Offerte',
			bodyText: 'Graag een prijs.',
			additionalFields: { externalRef: '={{ $json.ref }}' },
		},
		[{ json: { ref: 'T-1 ' } }],
	);
	await api.settled();
	expect(api.records.requests).toHaveLength(1);
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
});

test('found: Contact → Update of the name to "Ann de Vries " (trailing space), an API that stores names trimmed, the answer lost after it was applied: changes() compares exactly (not as a create\'s proof does), so the record "does not show" the change and the PATCH is sent again (a 2nd contact.updated)', async () => {
	const contact: IDataObject = { id: 'con_1', name: 'Ann', email: 'ann@example.com' };
	let patches = 0;
	nock(API)
		.persist()
		.get('/v1/contacts/con_1')
		.reply(() => [200, { data: contact }]);
	nock(API)
		.persist()
		.patch('/v1/contacts/con_1')
		.reply(async (_uri, body) => {
			patches++;
			const sent = body as IDataObject;
			Object.assign(contact, { ...sent, name: String(sent.name).trim() });
			if (patches === 1) throw networkError('ECONNRESET', 'socket hang up');
			return [200, { data: contact }];
		});
	const tries = await retrying(
		{
			resource: 'contact',
			operation: 'update',
			contactId: byId('con_1'),
			updateFields: { name: '={{ $json.name }}' },
		},
		[{ json: { name: 'Ann de Vries ' } }],
	);
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
	expect(patches).toBe(1);
});

const upsert = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'contact',
	operation: 'upsert',
	email: '={{ $json.email }}',
	name: '={{ $json.name }}',
	additionalFields: extra,
});

describe('Contact → Create or Update with a lost create', () => {
	// kept: as for Contact → Create: a field a record does not show is not taken as a difference
	test.failing(
		'LIMIT: with a phone, its create reset before the API stored it, another client creating the address (same name, no phone shown) before the next try: answeredBefore\'s proof takes their contact as this item\'s create: the item says action "created" for a contact it did not create, and the phone is never PATCHed onto it',
		async () => {
			const api = writesApi((n) => (n === 1 ? 'dropped' : 'ok'));
			const patches: IDataObject[] = [];
			nock(API)
				.persist()
				.patch('/v1/contacts/con_theirs')
				.reply((_uri, body) => {
					patches.push(body as IDataObject);
					return [200, { data: { ...api.records.contacts[0], ...(body as IDataObject) } }];
				});
			const tries = await runWithRetries(node, upsert({ phone: '+31201234567' }), {
				items: [{ json: { name: 'Ann', email: 'ann@example.com' } }],
				maxTries: 2,
				waitBetweenTries: 1000,
				betweenTries: () =>
					api.records.contacts.push({ id: 'con_theirs', name: 'Ann', email: 'ann@example.com' }),
			});
			await api.settled();
			expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
			expect(tries[1].items?.[0].json.action).toBe('updated');
			expect(patches).toEqual([{ name: 'Ann', phone: '+31201234567' }]);
		},
	);

	test("found: Max Tries 2, its create stored but the answer lost, the next try's proving read (answeredBefore, after the match read) reset: the last error is only about GET /contacts and does not say the contact may have been created by this run", async () => {
		const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), { resetRead: (n) => n >= 3 });
		const tries = await retrying(
			upsert(),
			[{ json: { name: 'Ann', email: 'ann@example.com' } }],
			undefined,
			2,
		);
		await api.settled();
		expect(api.writes).toEqual(['POST /contacts Ann']);
		expect(outcomes(tries)).toEqual(['failed', 'failed']);
		const last = tries[1].error as Error & { description?: string };
		expect(`${last.message} ${last.description}`).toMatch(
			/may (already )?(exist|have been (created|made))/,
		);
	});

	test("found: two executions at once in one process (overlapping runs), one address: run A's create is stored but its answer lost; run B, waiting on A's create in flight, gets no id and creates a 2nd contact for the address; A's retry then fails on 2 contacts", async () => {
		const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), { delayMs: 100 });
		const runA = retrying(upsert(), [{ json: { name: 'Ann', email: 'ann@example.com' } }]);
		await realSleep(30);
		const runB = retrying(upsert(), [{ json: { name: 'Ann', email: 'ann@example.com' } }]);
		const [a, b] = await Promise.all([runA, runB]);
		await api.settled();
		expect(api.records.contacts).toHaveLength(1);
		expect(outcomes(a).at(-1)).toBe('succeeded');
		expect(outcomes(b).at(-1)).toBe('succeeded');
	});

	test('found: Continue (regular output), two items with one address, the 1st create stored but its answer lost: the 2nd item sees no answered create for the address and creates a 2nd contact with the same address (the re-run then fails on 2 contacts)', async () => {
		const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'));
		const tries = await retrying(
			upsert(),
			[
				{ json: { name: 'Ann', email: 'ann@example.com' } },
				{ json: { name: 'Ann de Vries', email: 'ann@example.com' } },
			],
			'continueRegularOutput',
		);
		await api.settled();
		expect(api.records.contacts).toHaveLength(1);
		expect(tries.at(-1)?.items?.every((i) => i.json.error === undefined)).toBe(true);
	});

	// kept: the several-contacts refusal is worded for the read, not for what an earlier try may have written
	test.failing(
		'LIMIT: its create stored but the answer lost, another client creating a contact with the same address before the next try: the item fails "2 contacts have the e-mail …; nothing was written" although this run wrote one of them',
		async () => {
			const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'));
			const tries = await runWithRetries(node, upsert(), {
				items: [{ json: { name: 'Ann', email: 'ann@example.com' } }],
				maxTries: 2,
				waitBetweenTries: 1000,
				betweenTries: () =>
					api.records.contacts.push({
						id: 'con_theirs',
						name: 'A. de Vries',
						email: 'ann@example.com',
					}),
			});
			await api.settled();
			expect(api.writes).toEqual(['POST /contacts Ann']);
			const last = tries.at(-1)?.error as Error & { description?: string };
			expect(last).toBeDefined();
			expect(`${last.message} ${last.description}`).not.toMatch(/nothing was written/i);
		},
	);
});

// kept: a proving read cannot tell "not stored" from "not stored yet"; Wait Between Tries gives the API that time
test.failing(
	"LIMIT: Contact → Create answered by a gateway's 504 while the API is still storing it (stored 300 ms later): the proving read of the next try sees no contact yet, says absent and creates it again (two contacts); an absent list shortly after an unknown outcome is taken as proof it was not made",
	async () => {
		const records: IDataObject[] = [];
		let posts = 0;
		nock(API)
			.persist()
			.get(/^\/v1\/contacts(\?.*)?$/)
			.reply(() => [
				200,
				{ data: records, meta: { page: 1, pageSize: 100, total: records.length, hasMore: false } },
			]);
		nock(API)
			.persist()
			.post('/v1/contacts')
			.reply(async (_uri, body) => {
				posts++;
				const record = { ...(body as IDataObject), id: `con_${posts}` };
				if (posts === 1) {
					setTimeout(() => records.push(record), 300);
					return [504, '<html><body>504 Gateway Time-out</body></html>'];
				}
				records.push(record);
				return [201, { data: record }];
			});
		await retrying(contactCreate, [{ json: { name: 'Ann', email: 'ann@example.com' } }]);
		await realSleep(400);
		expect(records).toHaveLength(1);
	},
);

// kept: a field a record does not show is not taken as a difference: a list may leave fields out
test.failing(
	'LIMIT: Contact → Create with a phone, its POST reset before the API stored it; a contact with the same address and name but no phone (an API that leaves out fields never set) already exists: it "agrees" (the phone is not shown), the item is answered with it and the phone sent is stored nowhere',
	async () => {
		const api = writesApi((n) => (n === 1 ? 'dropped' : 'ok'));
		api.records.contacts.push({ id: 'con_0', name: 'Ann', email: 'ann@example.com' });
		const tries = await retrying(contactCreate, [
			{ json: { name: 'Ann', email: 'ann@example.com', phone: '+31201234567' } },
		]);
		await api.settled();
		const out = tries.at(-1)?.items?.[0]?.json;
		// either it says it cannot tell, or the contact it answers with holds the phone sent
		if (tries.at(-1)?.error === undefined) expect(out?.phone).toBe('+31201234567');
	},
);

describe('controls: Max Tries 5, Stop Workflow, item 1 failing to build in every try, each POST answered after 150 ms (later tries start while it is on its way)', () => {
	const sequences: Fate[][] = [
		['lost'],
		['internal', 'lost'],
		['gateway', 'internal', 'lost'],
		['dropped', 'lost'],
		['internal', 'internal', 'internal', 'lost'],
		['dropped', 'gateway', 'internal'],
	];
	test.each(sequences.map((s) => [s.join(' → '), s]))(
		'%s: one contact, never sent once it exists',
		async (_name, sequence) => {
			const api = writesApi((n) => sequence[n - 1] ?? 'ok', { delayMs: 150 });
			await withItemsLeftBehind(async () => {
				await retrying(
					{ ...contactCreate, name: FAILS_TO_BUILD },
					[
						{ json: { name: 'Ann', email: 'ann@example.com' } },
						{ json: { name: 'Bob', email: 'bob@example.com', fail: true } },
					],
					undefined,
					5,
				);
				await api.settled();
			});
			expect(api.records.contacts.length).toBeLessThanOrEqual(1);
			const firstStored = sequence.findIndex((f) => f === 'lost' || f === 'gateway' || f === 'ok');
			expect(api.writes.length).toBeLessThanOrEqual(
				(firstStored === -1 ? sequence.length : firstStored) + 1,
			);
		},
	);
});

test('found: Webhook → Send Test Event, the answer lost after the API delivered the event: its rule (`shows: () => false`) sends it again blind, a 2nd test delivery; the promise (and docs/n8n-features.md, which lists no exception) says a write that may have been made is not sent again', async () => {
	let deliveries = 0;
	nock(API)
		.persist()
		.get('/v1/webhooks/wh_1')
		.reply(() => [200, { data: { id: 'wh_1', url: 'https://example.com/hook', active: true } }]);
	nock(API)
		.persist()
		.post('/v1/webhooks/wh_1/test')
		.reply(async () => {
			deliveries++;
			if (deliveries === 1) throw networkError('ECONNRESET', 'socket hang up');
			return [200, { data: { delivered: true } }];
		});
	await retrying(
		{
			resource: 'webhook',
			operation: 'sendTestEvent',
			webhookId: byId('wh_1'),
			eventType: 'quote.approved',
		},
		[{ json: {} }],
	);
	expect(deliveries).toBe(1);
});

// kept: the API's own internal_error is "not written" by decision (spec 7)
test.failing(
	"LIMIT: Contact → Create stored by the API, which then fails building its answer with its own 500 internal_error (spec 7 names the code, never says a 500 stored nothing): taken as 'not written', sent again without the proof that would have found it: two contacts",
	async () => {
		const api = writesApi((n) => (n === 1 ? 'internalStored' : 'ok'));
		const tries = await retrying(contactCreate, [
			{ json: { name: 'Ann', email: 'ann@example.com' } },
		]);
		await api.settled();
		expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
		expect(api.records.contacts).toHaveLength(1);
	},
);

test('control: Contact → Create with the e-mail typed in capitals and the name with double spaces, an API that stores both normalised, the answer lost: found, not created again', async () => {
	const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), {
		store: (body) => ({
			...body,
			email: String(body.email).toLowerCase(),
			name: String(body.name).replace(/\s+/g, ' ').trim(),
		}),
	});
	const tries = await retrying(contactCreate, [
		{ json: { name: 'Ann  de Vries', email: 'Ann@Example.COM' } },
	]);
	await api.settled();
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
	expect(api.records.contacts).toHaveLength(1);
});

test('control: Contact → Create, the answer lost, the proving read answered 429 once (Retry-After 1): the read waits and repeats, finds the contact; one POST', async () => {
	const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), { limitRead: (n) => n === 1 });
	const tries = await retrying(contactCreate, [
		{ json: { name: 'Ann', email: 'ann@example.com' } },
	]);
	await api.settled();
	expect(api.limited()).toBe(1);
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
	expect(api.writes).toEqual(['POST /contacts Ann']);
});
