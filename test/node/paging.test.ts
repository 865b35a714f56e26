import nock from 'nock';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { loadNodeType, runDeclarativeNode } from '../harness/engine';
import { forgetRateBudgets } from '../harness/clock';

const node = loadNodeType(new BusinessOps());
const API = 'https://api.business-ops.test';
const getAll = { resource: 'contact', operation: 'getAll', returnAll: true };

beforeEach(() => forgetRateBudgets());

function page(n: number, size: number, total: number) {
	const first = (n - 1) * 100;
	const count = Math.max(0, Math.min(size, total - first));
	return {
		data: Array.from({ length: count }, (_, i) => ({ id: `c${first + i}` })),
		meta: { page: n, pageSize: 100, total, hasMore: first + count < total },
	};
}

test('after the first page, the rest are read several at a time and kept in order', async () => {
	const scope = nock(API);
	scope.get('/v1/contacts').query({ page: 1, pageSize: 100 }).reply(200, page(1, 100, 550));
	// Later pages answer sooner than earlier ones: the output order must not follow the answers.
	for (let n = 2; n <= 6; n++) {
		scope.get('/v1/contacts').query({ page: n, pageSize: 100 }).delay(60 - n * 10).reply(200, page(n, 100, 550));
	}
	const { items } = await runDeclarativeNode(node, getAll);
	expect(items).toHaveLength(550);
	expect(items.map((i) => i.json.id)).toEqual(Array.from({ length: 550 }, (_, i) => `c${i}`));
	expect(scope.isDone()).toBe(true);
});

test('records added while reading: hasMore on the last expected page is followed', async () => {
	const grown = { ...page(2, 100, 200), meta: { page: 2, pageSize: 100, total: 201, hasMore: true } };
	const scope = nock(API)
		.get('/v1/contacts').query({ page: 1, pageSize: 100 }).reply(200, page(1, 100, 200))
		.get('/v1/contacts').query({ page: 2, pageSize: 100 }).reply(200, grown)
		.get('/v1/contacts').query({ page: 3, pageSize: 100 })
		.reply(200, { data: [{ id: 'c200' }], meta: { page: 3, pageSize: 100, total: 201, hasMore: false } });
	const { items } = await runDeclarativeNode(node, getAll);
	expect(items).toHaveLength(201);
	expect(scope.isDone()).toBe(true);
});

test('a page that fails fails the item, and no page beyond the total is asked for', async () => {
	nock(API)
		.get('/v1/contacts').query({ page: 1, pageSize: 100 }).reply(200, page(1, 100, 300))
		.get('/v1/contacts').query({ page: 2, pageSize: 100 }).reply(200, page(2, 100, 300))
		.get('/v1/contacts').query({ page: 3, pageSize: 100 })
		.reply(404, { error: { code: 'not_found', message: 'Page gone' } });
	const error = await runDeclarativeNode(node, getAll).catch((e) => e);
	expect(error.message).toBe('Page gone (HTTP 404 not_found, GET /contacts) [item 0]');
	expect(nock.pendingMocks()).toEqual([]);
});

test('Limit reads only the pages it needs', async () => {
	const scope = nock(API)
		.get('/v1/contacts').query({ page: 1, pageSize: 100 }).reply(200, page(1, 100, 1000))
		.get('/v1/contacts').query({ page: 2, pageSize: 100 }).reply(200, page(2, 100, 1000));
	const { items } = await runDeclarativeNode(node, { resource: 'contact', operation: 'getAll', limit: 150 });
	expect(items).toHaveLength(150);
	expect(scope.isDone()).toBe(true);
});
