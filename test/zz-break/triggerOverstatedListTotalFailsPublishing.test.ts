/**
 * Breaker b29d: "walkPages({ readForMs }) / listAll for activation: a slow but finite list, the
 * concurrent page workers hitting the bound" with an odd answer.
 *
 * Page 1 of GET /webhooks says `total` is far beyond what the list holds (a broken API or proxy
 * counting something else). walkPages trusts `total` and sends its 4 concurrent workers through
 * pages 2 … 10,000; every page past the end answers `data: []` with `hasMore: false`, which the
 * concurrent path never looks at. The workers go on until the key's rate budget (or the 30 s bound)
 * stops them: publishing fails with "would have waited 60 s … publish the workflow again in a
 * minute" after spending the key's whole minute of requests (other workflows' too) on empty pages,
 * and no subscription is made; publishing again does the same.
 * Expected: an empty page that says it is the last ends the walk; publishing goes on (one POST).
 */
import nock from 'nock';

import { activateTrigger, createTriggerNode } from '../harness/engine';
import { API, EVENTS, SIGNING, trigger, useLogs } from './liveSubscription';

// the real clock: the harness clocks count each request's armed 10 s deadline as time passed
useLogs();

test('a list whose page 1 overstates `total` and whose next page is empty and last: publishing subscribes', async () => {
	const others = Array.from({ length: 100 }, (_, i) => ({
		id: `whk_o${i}`,
		url: `https://other.example/hook/${i}`,
		events: EVENTS,
	}));
	const pagesAsked: number[] = [];
	nock(API)
		.persist()
		.get('/v1/webhooks')
		.query(true)
		.reply(200, (uri) => {
			const page = Number(new URLSearchParams(uri.split('?')[1]).get('page'));
			pagesAsked.push(page);
			return page === 1
				? { data: others, meta: { page: 1, pageSize: 100, total: 1_000_000, hasMore: true } }
				: { data: [], meta: { page, pageSize: 100, total: 100, hasMore: false } };
		});
	let posted = 0;
	nock(API)
		.post('/v1/webhooks')
		.optionally()
		.reply(201, () => {
			posted++;
			return { data: { id: 'whk_2', signingSecret: SIGNING } };
		});

	const error = await activateTrigger(trigger, createTriggerNode(trigger, { events: EVENTS })).then(
		() => undefined,
		(e: unknown) => (e as Error).message,
	);
	// fails today: after 120 empty pages (the key's whole minute) "Not sent: GET /webhooks would have waited 60 s …
	// publish the workflow again in a minute" (which repeats it), nothing POSTed
	expect({ error, posted }).toEqual({ error: undefined, posted: 1 });
	expect(pagesAsked.length).toBeLessThan(10);
});
