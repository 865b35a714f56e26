/**
 * Breaker: the state remembers a record by 48 bits of a hash of its id, and the walk itself
 * (uniqueRecords) merges records by that hash. Two different ids with the same 48-bit hash (found
 * by a birthday search over ids of the API's own shape: `quo_` + 16 characters) are one record to
 * the trigger: a new quote whose id collides with a remembered one is never emitted as
 * `quote.created`, and of two colliding quotes in one list only one is ever looked at. The promise
 * is "nothing lost"; ids must be told apart exactly (or a collision detected and failed loudly).
 */
import { createHash } from 'node:crypto';

import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { emitted, poller } from '../polling/harness';

const A = 'quo_000000000000kiv5';
const B = 'quo_000000000002KNeb';

beforeEach(() => {
	forgetRateBudgets();
	fastClock();
});

test('two quotes whose ids share a 48-bit hash are two records: the second one is emitted as created', async () => {
	expect(A).not.toBe(B);
	const key48 = (id: string) => createHash('sha256').update(id).digest('base64url').slice(0, 8);
	expect(key48(A)).toBe(key48(B)); // the premise: the first 48 bits of SHA-256 (what the state keeps) collide

	const quote = (id: string, at: string): IDataObject => ({
		id,
		number: id,
		status: 'draft',
		total: 10,
		createdAt: at,
		updatedAt: at,
	});
	let quotes: IDataObject[] = [quote(A, '2026-11-25T08:00:00.000Z')];
	nock(TEST_BASE_URL)
		.get('/quotes')
		.query(true)
		.reply(() => [
			200,
			{ data: quotes, meta: { page: 1, pageSize: 100, total: quotes.length, hasMore: false } },
		])
		.persist();
	const api = { baseUrl: TEST_BASE_URL, keys: { admin: TEST_API_KEY } } as unknown as Sandbox;
	const p = poller(api, { events: ['quote.created', 'quote.approved'] }, TEST_API_KEY);
	expect(await p.poll()).toBeNull(); // baseline: A

	quotes = [...quotes, quote(B, '2026-11-25T08:05:00.000Z')];
	const afterCreate = emitted(await p.poll());
	quotes = quotes.map((q) =>
		q.id === B ? { ...q, status: 'approved', updatedAt: '2026-11-25T08:06:00.000Z' } : q,
	);
	const afterApprove = emitted(await p.poll());

	expect(afterCreate).toEqual([['quote.created', B]]);
	expect(afterApprove).toEqual([['quote.approved', B]]);
});
