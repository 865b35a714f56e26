/**
 * A break run on the unanswered-writes rules (itemOrder.ts, errors.ts), through n8n-core's engine with
 * Retry On Fail (3 tries, Wait Between Tries 1000 ms on the harness clock). A test titled "found:" was a
 * write sent twice, or answered from a record it did not make, now fixed; the others are controls.
 * (unansweredWritesBreak.test.ts holds an earlier run's findings: a gateway's JSON 5xx, a contact
 * that existed before, a Contact → Create body with $now; these are others.)
 */
import nock from 'nock';

import { API, node } from '../harness/actionNode';
import { byId, runDeclarativeNode } from '../harness/engine';
import {
	contactCreate,
	FAILS_TO_BUILD,
	networkError,
	outcomes,
	retrying,
	statusApi,
	withItemsLeftBehind,
	writesApi,
	type Fate,
} from '../harness/unansweredWrites';

const quoteCreate = (validUntil?: string, name = '={{ $json.name }}') => ({
	resource: 'quote',
	operation: 'create',
	contactId: byId('ctc_1'),
	items: { item: [{ name, quantity: 2, unitPrice: 100, vatPercentage: 21 }] },
	additionalFields: validUntil ? { validUntil } : {},
});
const requestCreate = (externalRef: string, bodyText = 'Graag een prijs.') => ({
	resource: 'request',
	operation: 'create',
	fromEmail: 'anna@example.nl',
	subject: '={{ $json.name }}',
	bodyText,
	additionalFields: { externalRef },
});

describe('an expression whose value moves with the clock ($now): the write memory was keyed by the body; now by item, method, URL and query', () => {
	// spec 2: validUntil is a UTC timestamp; "30 days from now" is the natural expression for it
	const in30Days = '={{ $now.plus({ days: 30 }) }}';

	test('found: Quote → Create, Valid Until from $now, the answer lost after the API stored it: the next try sends it again (2 quotes, execution green) instead of failing "may have been created"', async () => {
		const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), { delayMs: 5 });
		const tries = await retrying(quoteCreate(in30Days), [{ json: { name: 'Ann' } }]);
		await api.settled();
		expect(api.records.quotes).toHaveLength(1);
		expect(String(tries.at(-1)?.error?.message)).toContain('may have been created');
	});

	test('found: Request → Create with an External Reference, Body Text naming $now, the answer lost: sent again (2 requests) although its External Reference finds it', async () => {
		const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), { delayMs: 5 });
		const tries = await retrying(
			requestCreate('T-1', '=Sent {{ $now.toISO() }}: graag een prijs.'),
			[{ json: { name: 'Ann' } }],
		);
		await api.settled();
		expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
		expect(api.records.requests).toHaveLength(1);
	});

	test('found: a write still in flight when the next try starts (Stop Workflow, item 2 failing to build, answers after 150 ms), Valid Until from $now: the next try sends items 0 and 1 again', async () => {
		const api = writesApi(undefined, { delayMs: 150 });
		const parameters = quoteCreate(in30Days, FAILS_TO_BUILD);
		await withItemsLeftBehind(async () => {
			await retrying(parameters, [
				{ json: { name: 'Q0' } },
				{ json: { name: 'Q1' } },
				{ json: { name: 'Q2', fail: true } },
			]);
			await api.settled();
		});
		expect(api.writes).toEqual(['POST /quotes', 'POST /quotes']);
	});

	test('control: the same Quote → Create with a fixed Valid Until is not sent again', async () => {
		const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), { delayMs: 5 });
		const tries = await retrying(quoteCreate('2026-12-31T00:00:00Z'), [{ json: { name: 'Ann' } }]);
		await api.settled();
		expect(api.records.quotes).toHaveLength(1);
		expect(String(tries.at(-1)?.error?.message)).toContain('may have been created');
	});
});

test('found: Continue + Retry On Fail, two identical Contact → Create items, the 1st answer lost after it was stored, the 2nd reset before: both proofs run at once and both items are answered with the 1st contact; the 2nd contact is never made', async () => {
	const api = writesApi((n) => (n === 1 ? 'lost' : n === 2 ? 'dropped' : 'ok'));
	const same = { name: 'Ann', email: 'ann@example.com' };
	const tries = await retrying(
		contactCreate,
		[{ json: { ...same } }, { json: { ...same } }],
		'continueRegularOutput',
	);
	await api.settled();
	const ids = tries.at(-1)?.items?.map((i) => i.json.id);
	expect(api.records.contacts).toHaveLength(2);
	expect(new Set(ids).size).toBe(2);
});

test('found: Contact → Create, the name with a trailing space (as a spreadsheet gives it), an API that stores names trimmed (the spec is silent), the answer lost: the proof compares names exactly and creates it again', async () => {
	const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'), {
		store: (body) => ({ ...body, name: String(body.name).trim() }),
	});
	const tries = await retrying(contactCreate, [
		{ json: { name: 'Ann de Vries ', email: 'ann@example.com' } },
	]);
	await api.settled();
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
	expect(api.records.contacts).toHaveLength(1);
});

test("found: Request → Create, a ticket's 2nd message (same External Reference, another Body Text), its POST reset before the API stored it: answered from the ticket's 1st request; the 2nd is never created and the execution is green", async () => {
	const api = writesApi((n) => (n === 1 ? 'dropped' : 'ok'));
	// the ticket's first message, created by an earlier execution
	api.records.requests.push({
		id: 'req_0',
		externalRef: 'T-1',
		fromEmail: 'anna@example.nl',
		subject: 'Ann',
		bodyText: 'Graag een prijs.',
	});
	const tries = await retrying(requestCreate('T-1', 'And the back of the shop too, please.'), [
		{ json: { name: 'Ann' } },
	]);
	await api.settled();
	expect(api.records.requests.map((r) => r.bodyText)).toEqual([
		'Graag een prijs.',
		'And the back of the shop too, please.',
	]);
	expect(tries.at(-1)?.items?.[0]?.json.id).not.toBe('req_0');
});

test('found: Invoice → Send, the answer lost after the API applied it, the customer opening the invoice (sent → viewed) before the proving read: the proof sees no "sent" and PATCHes again (status back to sent, a 2nd invoice.sent)', async () => {
	// the customer opens the e-mail the API just sent
	const api = statusApi('/v1/invoices/inv_1', { id: 'inv_1', status: 'finalized' }, (invoice) => {
		invoice.status = 'viewed';
	});
	const tries = await retrying(
		{ resource: 'invoice', operation: 'send', invoiceId: byId('inv_1') },
		[{ json: {} }],
	);
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
	expect(api.events).toEqual(['invoice.sent']);
	expect(api.patches()).toBe(1);
});

test('found: Contact → Create, the answer lost, then every proving read reset: the last error is only about GET /contacts ("check the Base URL") and does not say the contact may already exist, so running again makes a 2nd', async () => {
	// every read of the contacts is reset (registered before the fake API's own list)
	nock(API)
		.persist()
		.get(/^\/v1\/contacts(\?.*)?$/)
		.replyWithError(networkError('ECONNRESET', 'socket hang up'));
	const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'));
	const tries = await retrying(contactCreate, [{ json: { name: 'Ann', email: 'a@example.com' } }]);
	await api.settled();
	expect(outcomes(tries)).toEqual(['failed', 'failed', 'failed']);
	expect(api.writes).toEqual(['POST /contacts Ann']);
	const last = tries[2].error as Error & { description?: string };
	expect(`${last.message} ${last.description}`).toMatch(
		/may (already )?(exist|have been (created|made))/,
	);
});

test('found: Quote → Create whose connection failed EHOSTUNREACH (never left, like ECONNREFUSED): Retry On Fail does not send it again; every try fails "may have been created" for a quote that cannot exist', async () => {
	const api = writesApi((n) => (n === 1 ? 'unreachable' : 'ok'));
	const tries = await retrying(quoteCreate(), [{ json: { name: 'Ann' } }]);
	await api.settled();
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
	expect(api.records.quotes).toHaveLength(1);
});

test('control: Quote → Create refused (ECONNREFUSED, never left) is sent again and succeeds', async () => {
	const api = writesApi((n) => (n === 1 ? 'refused' : 'ok'));
	const tries = await retrying(quoteCreate(), [{ json: { name: 'Ann' } }]);
	await api.settled();
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
	expect(api.records.quotes).toHaveLength(1);
});

describe('a write answered after the next try began (Stop Workflow, item 1 failing to build in every try, answers after 150 ms: tries 2 and 3 both start while item 0 of try 1 is on its way)', () => {
	const failingSecond = quoteCreate(undefined, FAILS_TO_BUILD);
	const run = async (late: Fate) => {
		const api = writesApi((n) => (n === 1 ? late : 'ok'), { delayMs: 150 });
		await withItemsLeftBehind(async () => {
			await retrying(failingSecond, [
				{ json: { name: 'Q0' } },
				{ json: { name: 'Q1', fail: true } },
			]);
			await api.settled();
		});
		return { api };
	};

	test("control: the late answer is a gateway's 502 page: the later tries prove, nothing is sent again", async () => {
		const { api } = await run('gateway');
		expect(api.writes).toEqual(['POST /quotes']);
	});

	test("found: the late answer is the API's own 500 (not written): tries 2 and 3 were both waiting on it and each sends the quote again (2 quotes)", async () => {
		const { api } = await run('internal');
		expect(api.writes).toEqual(['POST /quotes', 'POST /quotes']);
		expect(api.records.quotes).toHaveLength(1);
	});

	test('found: Contact → Create reset before the API stored it (unknown): tries 2 and 3 both prove at once, both find nothing and both send (2 contacts)', async () => {
		const api = writesApi((n) => (n === 1 ? 'dropped' : 'ok'), { delayMs: 150 });
		await withItemsLeftBehind(async () => {
			await retrying({ ...contactCreate, name: FAILS_TO_BUILD }, [
				{ json: { name: 'Ann', email: 'ann@example.com' } },
				{ json: { name: 'Bob', email: 'bob@example.com', fail: true } },
			]);
			await api.settled();
		});
		expect(api.records.contacts).toHaveLength(1);
	});
});

test('found: Contact → Create or Update, its create stored but the answer lost: the next try finds the contact, PATCHes it and says "updated"; a workflow branching on action = created (a welcome e-mail) skips a contact this run created', async () => {
	const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'));
	const tries = await retrying(
		{ resource: 'contact', operation: 'upsert', email: 'ann@example.com', name: 'Ann' },
		[{ json: {} }],
	);
	await api.settled();
	expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
	expect(api.records.contacts).toHaveLength(1);
	expect(tries[1].items?.[0].json).toMatchObject({ id: 'con_1', action: 'created' });
	expect(api.writes).toEqual(['POST /contacts Ann']);
});

describe('controls: the demanding user', () => {
	const three = ['Ann', 'Bob', 'Cas'].map((name) => ({
		json: { name, email: `${name.toLowerCase()}@example.com` },
	}));

	test('Batching on (1 item per batch, 50 ms apart), Stop Workflow, the 2nd answer lost: one contact per address, the execution succeeds, each paired with its item', async () => {
		const api = writesApi((n) => (n === 2 ? 'lost' : 'ok'));
		const parameters = {
			...contactCreate,
			requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 50 } } },
		};
		const tries = await retrying(parameters, three);
		await api.settled();
		expect(outcomes(tries)).toEqual(['failed', 'succeeded']);
		expect(api.writes).toEqual(['POST /contacts Ann', 'POST /contacts Bob', 'POST /contacts Cas']);
		expect(tries[1].items?.map((i) => [i.json.id, i.pairedItem])).toEqual([
			['con_1', { item: 0 }],
			['con_2', { item: 1 }],
			['con_3', { item: 2 }],
		]);
	});

	test('Continue (using error output) + Retry On Fail, a Quote → Create answer lost: an error item paired with its input, saying it may have been created; nothing sent again', async () => {
		const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'));
		const tries = await retrying(
			quoteCreate(),
			[{ json: { name: 'Ann' } }, { json: { name: 'Bob' } }],
			'continueErrorOutput',
		);
		await api.settled();
		expect(api.writes).toEqual(['POST /quotes', 'POST /quotes']);
		const first = tries.at(-1)?.items?.[0];
		expect(String(first?.json.error)).toContain('may have been created');
		expect(first?.pairedItem).toEqual({ item: 0 });
		expect(tries.at(-1)?.items?.[1].json.id).toBe('quo_2');
	});

	test('Continue (regular output), Contact → Create, the 1st of two answers lost: the re-run answers it from the contact found, paired with item 0', async () => {
		const api = writesApi((n) => (n === 1 ? 'lost' : 'ok'));
		const tries = await retrying(contactCreate, three.slice(0, 2), 'continueRegularOutput');
		await api.settled();
		expect(api.writes).toEqual(['POST /contacts Ann', 'POST /contacts Bob']);
		expect(tries.at(-1)?.items?.map((i) => [i.json.id, i.pairedItem])).toEqual([
			['con_1', { item: 0 }],
			['con_2', { item: 1 }],
		]);
	});
});

test('control: in tool mode (no memory), a Quote → Create whose connection reset after the API stored it tells the model the record may exist and to read it before calling again', async () => {
	const api = writesApi(() => 'lost');
	const error = (await runDeclarativeNode(node, quoteCreate(), {
		items: [{ json: { name: 'Ann' } }],
		asTool: true,
	}).catch((e: unknown) => e)) as Error;
	await api.settled();
	expect(api.writes).toEqual(['POST /quotes']);
	expect(error.message).toMatch(
		/may have made the change although the call failed: read the record/,
	);
});
