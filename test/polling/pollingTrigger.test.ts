/**
 * The polling trigger through n8n-core's PollContext against the sandbox, under each list order
 * the sandbox offers (the spec gives none): baseline, events, nothing twice, two changes between
 * polls, deletions, records created, deleted or changed while a poll walks the list, restarts,
 * the test event, API errors and parameter checks.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIST_ORDERS } from '../../sandbox/src/readings';
import { useSandbox } from '../harness/sandbox';
import { collect, emitted, poller } from './harness';

const env = useSandbox();
const { api } = env;

const line = { name: 'Desembrood', quantity: 2, unitPrice: 5, vatPercentage: 9 };
const firstContact = async () =>
	String(((await api('GET', '/contacts?pageSize=1')) as unknown as IDataObject[])[0].id);
const createQuote = async () =>
	String((await api('POST', '/quotes', { contactId: await firstContact(), items: [line] })).id);
const createInvoice = async () =>
	String((await api('POST', '/invoices', { contactId: await firstContact(), items: [line] })).id);
const setStatus = async (path: string, status: string) => await api('PATCH', path, { status });
const submitRequest = async (subject: string) =>
	String(
		(
			await api('POST', '/requests', {
				fromEmail: 'klant@example.nl',
				fromName: 'Klant',
				subject,
				bodyText: 'Graag een offerte',
				processImmediately: false,
			})
		).id,
	);

const ALL = [
	'quote.created',
	'quote.sent',
	'quote.approved',
	'invoice.paid',
	'request.received',
	'contact.created',
];
const isList = (request: { url: string }, path: string) => request.url === path;

describe.each(LIST_ORDERS)('list order %s', (listOrder) => {
	beforeEach(() => env.sandbox().control.setReadings({ listOrder }));

	test('the first poll remembers what exists and emits nothing; later polls emit each change once', async () => {
		const p = poller(env.sandbox(), { events: ALL });
		expect(await p.poll()).toBeNull();
		expect(await p.poll()).toBeNull();

		const quote = await createQuote();
		expect(emitted(await p.poll())).toEqual([['quote.created', quote]]);
		await setStatus(`/quotes/${quote}`, 'sent');
		expect(emitted(await p.poll())).toEqual([['quote.sent', quote]]);
		await setStatus(`/quotes/${quote}`, 'approved');
		const invoice = await createInvoice();
		await setStatus(`/invoices/${invoice}`, 'paid');
		const request = await submitRequest('Poll me');
		const result = await p.poll();
		expect(emitted(result).sort()).toEqual(
			[
				['invoice.paid', invoice],
				['quote.approved', quote],
				['request.received', request],
			].sort(),
		);
		expect(await p.poll()).toBeNull();

		const item = result![0].find((i) => i.json.type === 'quote.approved')!.json;
		expect(Object.keys(item)).toEqual(['id', 'deliveryId', 'type', 'timestamp', 'data', 'source']);
		expect(item).toMatchObject({ source: 'polling', data: { id: quote, status: 'approved' } });
		expect(item.deliveryId).toBe(item.id);
	});

	test('two changes between polls give the event of the status now; a new record gives created and its status', async () => {
		const p = poller(env.sandbox(), { events: ALL });
		const quote = await createQuote();
		await p.poll();
		await setStatus(`/quotes/${quote}`, 'sent');
		await setStatus(`/quotes/${quote}`, 'approved');
		expect(emitted(await p.poll())).toEqual([['quote.approved', quote]]);

		const fresh = await createQuote();
		await setStatus(`/quotes/${fresh}`, 'sent');
		await setStatus(`/quotes/${fresh}`, 'approved');
		expect(emitted(await p.poll())).toEqual([
			['quote.created', fresh],
			['quote.approved', fresh],
		]);
	});

	test('only the chosen events, and only the lists they need are read', async () => {
		const p = poller(env.sandbox(), { events: ['invoice.paid'] });
		await p.poll();
		const invoice = await createInvoice();
		await createQuote();
		await submitRequest('Not watched');
		expect(await p.poll()).toBeNull();
		await setStatus(`/invoices/${invoice}`, 'paid');
		env.sandbox().control.clearRequestLog();
		expect(emitted(await p.poll())).toEqual([['invoice.paid', invoice]]);
		expect(
			new Set(
				env
					.sandbox()
					.control.requestLog()
					.map((r) => r.path),
			),
		).toEqual(new Set(['/v1/invoices']));
	});

	test('a deleted record is no event and is forgotten; the state of 250 quotes stays compact', async () => {
		env.sandbox().control.seed({ resource: 'quotes', count: 250 });
		const p = poller(env.sandbox(), { events: ALL });
		const quote = await createQuote();
		await p.poll();
		const size = JSON.stringify(p.staticData()).length;
		await api('DELETE', `/quotes/${quote}`);
		expect(await p.poll()).toBeNull();
		expect(await p.poll()).toBeNull();
		expect(JSON.stringify(p.staticData()).length).toBe(size - 13);
		expect(JSON.stringify(p.staticData())).not.toContain(quote);
	});

	test('records created, deleted and changed while a poll walks the list: each change emitted once, nothing else', async () => {
		env.sandbox().control.seed({ resource: 'quotes', count: 320 });
		const p = poller(env.sandbox(), { events: ALL });
		await p.poll();
		const quoteCount = (await collect(env.sandbox(), '/quotes')).length;
		const firstPage = (await collect(env.sandbox(), '/quotes')).slice(0, 100);
		const deleted = firstPage.find((q) => q.status === 'draft')!;
		const sent = firstPage.find((q) => q.status === 'sent')!;
		const during = async (change: () => Promise<void>) => {
			let pages = 0;
			const result = await p.poll({
				afterAnswer: async (request) => {
					if (isList(request, '/quotes') && ++pages === 1) await change();
				},
			});
			expect(pages).toBeGreaterThan(3);
			return emitted(result);
		};
		// after the first page, a record on it deleted (the pages after it shift back one, so one
		// record is not in this walk) and another approved
		const changes = await during(async () => {
			await api('DELETE', `/quotes/${String(deleted.id)}`);
			await setStatus(`/quotes/${String(sent.id)}`, 'approved');
		});
		const quoteState = (p.staticData().lists as IDataObject).quote as IDataObject;
		// the total changed during the walk, so it was not whole: nothing is marked missing or forgotten,
		// neither the record it skipped nor the deleted one (read before its deletion)
		expect(String(quoteState.missing)).toBe('');
		expect(String(quoteState.seen)).toHaveLength(quoteCount * 13);
		let created = '';
		changes.push(...(await during(async () => void (created = await createQuote()))));
		changes.push(...emitted(await p.poll()));
		changes.push(...emitted(await p.poll()));
		expect(changes.sort()).toEqual(
			[
				['quote.approved', String(sent.id)],
				['quote.created', created],
			].sort(),
		);
	});

	test('a change made while n8n is stopped is emitted once by the first poll after the restart', async () => {
		const p = poller(env.sandbox(), { events: ALL });
		await p.poll();
		p.restart();
		const contact = String(
			(
				await api('POST', '/contacts', {
					name: 'Nieuwe Klant',
					email: `nieuw.${listOrder}@example.nl`,
				})
			).id,
		);
		expect(emitted(await p.poll())).toEqual([['contact.created', contact]]);
		p.restart();
		expect(await p.poll()).toBeNull();
	});
});

/** Every record of a list, read directly (the test's own view, not the node's). */
test('a poll that starts while the previous one of the same trigger still runs is skipped; nothing is emitted twice', async () => {
	const p = poller(env.sandbox(), { events: ['quote.created'] });
	await p.poll();
	const quote = await createQuote();
	const [first, second] = await Promise.all([p.poll(), p.poll()]);
	expect([...emitted(first), ...emitted(second)]).toEqual([['quote.created', quote]]);
	expect(await p.poll()).toBeNull();
});

describe('Fetch Test Event', () => {
	test('returns the most recent matching record as an event and leaves the production state alone', async () => {
		const p = poller(env.sandbox(), { events: ['quote.approved', 'invoice.paid'] });
		await p.poll();
		const before = JSON.stringify(p.staticData());
		const quote = await createQuote();
		await setStatus(`/quotes/${quote}`, 'sent');
		await setStatus(`/quotes/${quote}`, 'approved');
		const test = await p.poll({ mode: 'manual' });
		expect(emitted(test)).toEqual([['quote.approved', quote]]);
		expect(test![0][0].json.source).toBe('polling');
		expect(JSON.stringify(p.staticData())).toBe(before);
		// the production poll still sees the change
		expect(emitted(await p.poll())).toEqual([['quote.approved', quote]]);
	});

	test('without a baseline it writes no state either; no matching record is a clear error', async () => {
		// the other organization has one draft quote and no paid invoice
		const quotes = poller(
			env.sandbox(),
			{ events: ['quote.created'] },
			env.sandbox().keys.otherOrg,
		);
		const [[type, id]] = emitted(await quotes.poll({ mode: 'manual' }));
		expect(type).toBe('quote.created');
		expect(id).toMatch(/^quo_/);
		expect(quotes.staticData()).toEqual({});
		const invoices = poller(
			env.sandbox(),
			{ events: ['invoice.paid'] },
			env.sandbox().keys.otherOrg,
		);
		await expect(invoices.poll({ mode: 'manual' })).rejects.toThrow(
			'No record matches the chosen events yet',
		);
		expect(invoices.staticData()).toEqual({});
	});
});

describe('errors', () => {
	test("an API error fails the poll with the API's code and message; the next poll emits what was not yet emitted", async () => {
		const p = poller(env.sandbox(), { events: ALL });
		await p.poll();
		const quote = await createQuote();
		const request = await submitRequest('Kept for the next poll');
		const before = JSON.stringify(p.staticData());
		env.sandbox().control.failNext({
			status: 422,
			code: 'invalid_state',
			message: 'Lists are closed for maintenance',
			path: '/requests',
		});
		await expect(p.poll()).rejects.toMatchObject({
			message: 'Lists are closed for maintenance (HTTP 422 invalid_state, GET /requests)',
			httpCode: '422',
		});
		expect(JSON.stringify(p.staticData())).toBe(before);
		expect(emitted(await p.poll()).sort()).toEqual(
			[
				['quote.created', quote],
				['request.received', request],
			].sort(),
		);
	});

	test('a key without the scope: 403 naming it', async () => {
		const p = poller(env.sandbox(), { events: ['quote.created'] }, env.sandbox().keys.contactsOnly);
		await expect(p.poll()).rejects.toMatchObject({
			httpCode: '403',
			description: expect.stringContaining('quotes.read'),
		});
	});

	test('a list beyond 20,000 records fails the poll with a message naming it, and reads no further', async () => {
		env.sandbox().control.seed({ resource: 'contacts', count: 20_001 });
		const p = poller(env.sandbox(), { events: ['contact.created'] });
		env.sandbox().control.clearRequestLog();
		await expect(p.poll()).rejects.toThrow('The contacts list holds more than 20000 records');
		expect(env.sandbox().control.requestLog().length).toBeLessThanOrEqual(201);
		expect(p.staticData()).toEqual({});
	});

	test('no events, or an event the poller cannot emit: a clear error before any request', async () => {
		env.sandbox().control.clearRequestLog();
		// the author reads a poll's error in the executions list: what to change, not "publish again"
		await expect(poller(env.sandbox(), { events: [] }).poll()).rejects.toMatchObject({
			message: 'No event is chosen. Choose at least one event in "Event Names or IDs".',
		});
		await expect(
			poller(env.sandbox(), { events: [null] as unknown as string[] }).poll(),
		).rejects.toMatchObject({
			message:
				'Event Names or IDs: entry 1 of the list must be an event type (text); the expression gave null. Change the field.',
		});
		await expect(
			poller(env.sandbox(), { events: ['quote.created', 'agent.paused'] }).poll(),
		).rejects.toThrow('Event Names or IDs: the polling trigger cannot emit "agent.paused"');
		expect(env.sandbox().control.requestLog()).toEqual([]);
	});
});
