/**
 * Breaker: the spec lists no `createdAt` or `updatedAt` on quotes (section 2), so an API whose
 * list records carry neither is a reasonable reading. The trigger then builds the event `id` and
 * `deliveryId` from the poll's own time, so the same change seen again (n8n stopped before it saved
 * the state of the poll that emitted it, and the next poll emits it again) gets a different id and
 * a downstream dedupe on `id` lets it through twice. The same happens with timestamps present:
 * a status event's id is built from `updatedAt`, which any later edit (not a status change) moves.
 * docs/polling.md: "`id` and `deliveryId` … the same whenever the same change is seen".
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src';
import { TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { poller } from '../polling/harness';

beforeEach(() => {
	forgetRateBudgets();
	fastClock();
	jest.useFakeTimers({
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
});
afterEach(() => jest.useRealTimers());

test('the same status change seen again gives the same event id when the list shows no timestamps', async () => {
	let quote: IDataObject = { id: 'quo_1', number: 'OFF-1', status: 'sent', total: 10 };
	nock(TEST_BASE_URL)
		.get('/quotes')
		.query(true)
		.reply(() => [
			200,
			{ data: [quote], meta: { page: 1, pageSize: 100, total: 1, hasMore: false } },
		])
		.persist();
	const api = { baseUrl: TEST_BASE_URL, keys: { admin: TEST_API_KEY } } as unknown as Sandbox;
	const p = poller(api, { events: ['quote.approved'] }, TEST_API_KEY);

	jest.setSystemTime(new Date('2026-11-25T08:00:00Z'));
	expect(await p.poll()).toBeNull();
	const saved = JSON.parse(JSON.stringify(p.staticData())) as IDataObject;

	quote = { ...quote, status: 'approved' };
	jest.setSystemTime(new Date('2026-11-25T08:01:00Z'));
	const first = (await p.poll())![0][0].json;

	// n8n stopped before it saved the state of that poll: the next poll sees the same change again
	Object.assign(p.staticData(), saved);
	jest.setSystemTime(new Date('2026-11-25T08:02:00Z'));
	const again = (await p.poll())![0][0].json;

	expect(again.type).toBe('quote.approved');
	expect(again.id).toBe(first.id);
	expect(again.deliveryId).toBe(first.deliveryId);
});

test('the same status change seen again gives the same event id after an edit that is no status change', async () => {
	let invoice: IDataObject = {
		id: 'inv_1',
		number: 'F-1',
		status: 'sent',
		total: 10,
		createdAt: '2026-11-01T00:00:00.000Z',
		updatedAt: '2026-11-20T00:00:00.000Z',
	};
	nock(TEST_BASE_URL)
		.get('/invoices')
		.query(true)
		.reply(() => [
			200,
			{ data: [invoice], meta: { page: 1, pageSize: 100, total: 1, hasMore: false } },
		])
		.persist();
	const api = { baseUrl: TEST_BASE_URL, keys: { admin: TEST_API_KEY } } as unknown as Sandbox;
	const p = poller(api, { events: ['invoice.paid'] }, TEST_API_KEY);
	expect(await p.poll()).toBeNull();
	const saved = JSON.parse(JSON.stringify(p.staticData())) as IDataObject;

	invoice = { ...invoice, status: 'paid', updatedAt: '2026-11-25T08:00:30.000Z' };
	const first = (await p.poll())![0][0].json;

	// n8n stopped before it saved that poll's state; meanwhile someone edited the paid invoice's total
	Object.assign(p.staticData(), saved);
	invoice = { ...invoice, total: 11, updatedAt: '2026-11-25T08:01:30.000Z' };
	const again = (await p.poll())![0][0].json;

	expect(again.type).toBe('invoice.paid');
	expect(again.id).toBe(first.id);
});
