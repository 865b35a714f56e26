import { PollContext } from 'n8n-core';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { budgetFor, budgetKeyOf } from '../../nodes/shared/api/rateBudget';
import { LIST_ORDERS } from '../../sandbox/src/readings';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { createTestNode } from '../harness/engine';
import { useSandbox } from '../harness/sandbox';
import { emitted, poller, collect, trigger } from './harness';

/**
 * Breaker (status events): an invoice paid long before publishing, which the baseline walk skipped
 * because a draft on an already-read page was deleted during it, is emitted as `invoice.paid` at
 * the next poll (a record not remembered counts as new, and a new record "with that status" gives
 * the status event). A payment workflow then runs for an old payment. docs/polling.md: the first
 * poll remembers what exists and emits nothing.
 */
describe('polling baseline skip emits old paid invoice', () => {
	const env = useSandbox();
	test('an invoice paid before publishing is not emitted as invoice.paid because the baseline walk skipped it', async () => {
		const sandbox = env.sandbox();
		sandbox.control.setReadings({ listOrder: 'oldest' });
		sandbox.control.seed({ resource: 'invoices', count: 320 });
		const before = await collect(sandbox, '/invoices');
		const victim = before.slice(1, 99).find((i) => i.status === 'draft');
		const old = before[100];
		expect(victim).toBeDefined();
		if (old.status !== 'paid')
			await env.api('PATCH', `/invoices/${String(old.id)}`, { status: 'paid' });

		const p = poller(sandbox, { events: ['invoice.paid'] });
		let pages = 0;
		expect(
			await p.poll({
				afterAnswer: async (request) => {
					if (request.url === '/invoices' && ++pages === 1)
						await env.api('DELETE', `/invoices/${String(victim!.id)}`);
				},
			}),
		).toBeNull();

		// nothing was paid after publishing
		expect([...emitted(await p.poll()), ...emitted(await p.poll())]).toEqual([]);
	});
});

/**
 * Breaker: the first poll after publishing (the baseline) walks the list like any poll, so a record
 * deleted on an already-read page during that walk shifts the next record out of it. The baseline
 * then does not remember that record, and the second poll emits it as `quote.created` although it
 * existed long before publishing. docs/polling.md: "The first poll after publishing remembers what
 * exists and emits nothing"; a deletion during a walk must not turn an old record into a new one.
 */
describe('polling baseline skip emits old record as created', () => {
	const env = useSandbox();
	test.each(LIST_ORDERS)(
		'list order %s: a record the baseline walk skipped is not emitted as created later',
		async (listOrder) => {
			const sandbox = env.sandbox();
			sandbox.control.setReadings({ listOrder });
			sandbox.control.seed({ resource: 'quotes', count: 320 });
			const before = await collect(sandbox, '/quotes');
			const victim = String(before.slice(1, 99).find((q) => q.status === 'draft')!.id);
			const existed = new Set(before.map((q) => String(q.id)));

			const p = poller(sandbox, { events: ['quote.created'] });
			let pages = 0;
			expect(
				await p.poll({
					afterAnswer: async (request) => {
						if (request.url === '/quotes' && ++pages === 1)
							await env.api('DELETE', `/quotes/${victim}`);
					},
				}),
			).toBeNull();

			const later = [...emitted(await p.poll()), ...emitted(await p.poll())];
			// no quote was created after publishing: nothing may be emitted, least of all a quote that existed before
			expect(later.filter(([, id]) => existed.has(id))).toEqual([]);
			expect(later).toEqual([]);
		},
	);
});

/**
 * Breaker: a record that two consecutive walks skip (a deletion on an earlier page during each
 * walk shifts it back across the page boundary) is forgotten as "missing twice" and then emitted
 * as `quote.created` again when the next walk sees it. docs/polling.md promises a change during a
 * walk is emitted "never twice" and a record is "never emitted as new" unless it is new.
 */
describe('polling skipped twice reemitted as created', () => {
	const env = useSandbox();
	test('a record skipped by two walks in a row (deletions during each walk) is not emitted as created', async () => {
		const sandbox = env.sandbox();
		sandbox.control.setReadings({ listOrder: 'newest' });
		sandbox.control.seed({ resource: 'quotes', count: 320 });
		const p = poller(sandbox, { events: ['quote.created'] });
		expect(await p.poll()).toBeNull(); // baseline: every quote remembered

		const contactId = String(
			((await env.api('GET', '/contacts?pageSize=1')) as unknown as Array<{ id: string }>)[0].id,
		);
		const walkDeletingOnPageOne = async () => {
			const firstPage = (await collect(sandbox, '/quotes')).slice(0, 100);
			const victim = String(firstPage.slice(1, 99).find((q) => q.status === 'draft')!.id);
			let pages = 0;
			return await p.poll({
				afterAnswer: async (request) => {
					if (request.url === '/quotes' && ++pages === 1)
						await env.api('DELETE', `/quotes/${victim}`);
				},
			});
		};
		const seen: Array<[string, string]> = [];
		// walk 1: the record at place 101 moves to place 100 after page 1 was read: skipped
		const skipped = String((await collect(sandbox, '/quotes'))[100].id);
		seen.push(...emitted(await walkDeletingOnPageOne()));
		// a new quote (newest first: at the top) pushes it back to place 101
		const fresh = String(
			(
				await env.api('POST', '/quotes', {
					contactId,
					items: [{ name: 'x', quantity: 1, unitPrice: 1, vatPercentage: 9 }],
				})
			).id,
		);
		expect(String((await collect(sandbox, '/quotes'))[100].id)).toBe(skipped);
		// walk 2: skipped again
		seen.push(...emitted(await walkDeletingOnPageOne()));
		// walk 3 and 4: nothing changes
		seen.push(...emitted(await p.poll()));
		seen.push(...emitted(await p.poll()));

		expect(seen).not.toContainEqual(['quote.created', skipped]);
		// expected: only the quote really created; the skipped one existed all along
		expect(seen).toEqual([['quote.created', fresh]]);
	});
});

/**
 * Breaker: static data in the current format whose status codes point past its `statuses` (a
 * hand-edited or damaged state, or one written by a version with other codes) is read as records
 * "without a status", so the next poll emits the status event of every record that has one.
 * pollState.ts and docs/polling.md promise: anything unreadable counts as never read (a new
 * baseline), which emits nothing.
 */
describe('polling damaged state floods status events', () => {
	const env = useSandbox();
	test('a state whose status codes are not in its status table is a new baseline, not a flood of status events', async () => {
		const sandbox = env.sandbox();
		sandbox.control.seed({ resource: 'quotes', count: 120 });
		const p = poller(sandbox, { events: ['quote.sent', 'quote.approved'] });
		expect(await p.poll()).toBeNull();
		const quote = (p.staticData().lists as IDataObject).quote as IDataObject;
		expect((quote.statuses as string[]).length).toBeGreaterThan(1);
		// damaged: the status table lost its entries, the 9-character entries are intact
		quote.statuses = [];

		const events = emitted(await p.poll());
		// expected: nothing readable to compare with, so a new baseline and no event
		expect(events).toEqual([]);
	});
});

/**
 * Breaker: "Fetch Test Event" is the user waiting in the editor, but its list reads take the
 * rate budget's `poll` lane, after every waiting workflow run on the same key, and without the
 * editor's time limit. On a key busy with workflow runs the editor waits until the queue is empty.
 * The budget's own rule: "`editor`: a look-up of the editor … goes before every waiting
 * production request". Expected: the test event's request is served before a workflow run that
 * was already waiting (as the editor's look-ups are).
 */
describe('polling test event waits behind runs', () => {
	const env = useSandbox();
	test('Fetch Test Event goes before a workflow run already waiting on the same key', async () => {
		const sandbox = env.sandbox();
		forgetRateBudgets();
		fastClock();
		const credentials = {
			apiKey: sandbox.keys.admin,
			baseUrl: sandbox.baseUrl,
			requestsPerMinute: 1,
		};
		const budget = budgetFor(budgetKeyOf(sandbox.keys.admin), 1);
		const order: string[] = [];
		// a workflow run used this minute's request; another run waits for the next minute
		(await budget.take({ lane: 'run' })).answered();
		const waitingRun = budget.take({ lane: 'run' }).then((slot) => {
			order.push('workflow run');
			slot.answered();
		});

		const test = createTestNode(trigger, { events: ['quote.created'] }, { credentials });
		const ctx = new PollContext(
			test.workflow,
			test.node,
			test.additionalData,
			'manual',
			'activate',
		);
		const send = ctx.helpers.httpRequestWithAuthentication;
		ctx.helpers.httpRequestWithAuthentication = async function (
			this: unknown,
			type: string,
			request: IHttpRequestOptions,
			...rest: unknown[]
		) {
			order.push(`Fetch Test Event ${request.url}`);
			return await (send as (...args: unknown[]) => Promise<unknown>).call(
				this,
				type,
				request,
				...rest,
			);
		} as typeof send;
		await trigger.poll.call(ctx);
		await waitingRun;

		expect(order[0]).toBe('Fetch Test Event /quotes');
	});
});
