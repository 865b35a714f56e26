import nock from 'nock';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { loadNodeType, runDeclarativeNode } from '../harness/engine';
import { fastClock, forgetRateBudgets } from '../harness/clock';

const node = loadNodeType(new BusinessOps());
const API = 'https://api.business-ops.test';
const getAll = { resource: 'contact', operation: 'getAll', returnAll: true };

beforeEach(() => {
	forgetRateBudgets();
	fastClock();
});

function page(n: number, size: number, total: number) {
	const first = (n - 1) * 100;
	const count = Math.max(0, Math.min(size, total - first));
	return {
		data: Array.from({ length: count }, (_, i) => ({ id: `c${first + i}` })),
		meta: { page: n, pageSize: 100, total, hasMore: first + count < total },
	};
}

/**
 * Answers held on a virtual clock: each request waits its delay in virtual milliseconds, and time
 * moves to the next answer due only once the event loop has nothing left to do (every request the
 * node was going to send meanwhile has been sent). Counts the requests in flight at once.
 */
function virtualDelays() {
	let now = 0;
	let inFlight = 0;
	let mostInFlight = 0;
	let sent = 0;
	const due: Array<{ at: number; answer: () => void }> = [];
	const idle = async () => {
		let seen;
		do {
			seen = sent;
			for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
		} while (sent !== seen);
	};
	return {
		/** A nock reply that answers `body` after `delay` virtual milliseconds. */
		reply: (delay: number, body: object) =>
			function (_uri: string, _body: unknown, callback: (error: null, result: [number, object]) => void) {
				sent++;
				inFlight++;
				mostInFlight = Math.max(mostInFlight, inFlight);
				due.push({ at: now + delay, answer: () => (inFlight--, callback(null, [200, body])) });
			},
		/** Runs `work` while answering held requests in the order they fall due. */
		async run<T>(work: Promise<T>): Promise<T> {
			let done = false;
			const result = work.finally(() => (done = true));
			while (!done) {
				await idle();
				due.sort((a, b) => a.at - b.at);
				const next = due.shift();
				if (!next) continue;
				now = next.at;
				next.answer();
			}
			return await result;
		},
		mostInFlight: () => mostInFlight,
	};
}

test('after the first page, the rest are read four at a time and kept in order', async () => {
	const clock = virtualDelays();
	const scope = nock(API);
	scope.get('/v1/contacts').query({ page: 1, pageSize: 100 }).reply(clock.reply(0, page(1, 100, 950)));
	// Later pages answer sooner than earlier ones: the output order must not follow the answers.
	for (let n = 2; n <= 10; n++) {
		scope.get('/v1/contacts').query({ page: n, pageSize: 100 }).reply(clock.reply(100 - n * 10, page(n, 100, 950)));
	}
	const { items } = await clock.run(runDeclarativeNode(node, getAll));
	expect(clock.mostInFlight()).toBe(4);
	expect(items.map((i) => i.json.id)).toEqual(Array.from({ length: 950 }, (_, i) => `c${i}`));
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
