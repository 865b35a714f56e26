/** Publishing reads GET /webhooks through the list reader: a list that changes during every read fails publishing, within its bound. */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { forgetRateBudgets, manualClock, realClock } from '../harness/clock';
import { createTriggerNode, runWebhookMethod } from '../harness/engine';
import { API } from '../harness/actionNode';
import { trigger, EVENTS } from './liveSubscription';

// the real clock: the fast one counts each request's armed 10 s deadline as time passed
beforeEach(() => realClock());
afterEach(() => {
	realClock();
	forgetRateBudgets();
	nock.cleanAll();
});

/** GET /webhooks: 150 other subscriptions, the first deleted after each read of page 1; `answered` runs after each answer. */
function changingList(answered: () => void = () => {}) {
	const rows: IDataObject[] = Array.from({ length: 150 }, (_, i) => ({
		id: `whk_o${i}`,
		url: `https://other.example/hook/${i}`,
		events: EVENTS,
	}));
	const sent: number[] = [];
	let posts = 0;
	nock(API)
		.persist()
		.get('/v1/webhooks')
		.query(true)
		.reply((uri) => {
			const page = Number(new URL(uri, API).searchParams.get('page'));
			sent.push(page);
			const body = {
				data: rows.slice((page - 1) * 100, page * 100),
				meta: { page, pageSize: 100, total: rows.length, hasMore: page * 100 < rows.length },
			};
			if (page === 1) rows.shift();
			answered();
			return [200, body];
		})
		.post('/v1/webhooks')
		.reply(201, () => {
			posts++;
			return {
				data: { id: 'whk_2', signingSecret: 'whsec_cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhlLXRyaWdnZXI=' },
			};
		});
	return { sent, posts: () => posts };
}

async function publishError(): Promise<string | undefined> {
	return await runWebhookMethod(
		trigger,
		createTriggerNode(trigger, { events: EVENTS }),
		'create',
	).then(
		() => undefined,
		(error: Error) => error.message,
	);
}

test('a list that changes during every read: publishing fails after 3 reads, saying what to do, nothing subscribed', async () => {
	const list = changingList();
	expect(await publishError()).toBe(
		'The list changed while it was read (records were created or deleted); 3 reads tried (GET /webhooks). Wait until no other client creates or deletes these records, then publish the workflow again.',
	);
	expect(list.sent).toEqual([1, 2, 1, 2, 1, 2]);
	expect(list.posts()).toBe(0);
});

test('the activation bound covers every read of the list, not each read on its own', async () => {
	const clock = manualClock();
	// each answer takes 7 s: one read of two pages takes 14 s or more, three take 42 s, past the 30 s bound
	const list = changingList(() => clock.advance(7_000));
	expect(await publishError()).toMatch(
		/^The API's list still had more pages after 30 s of reading; stopped reading it \(GET \/webhooks\)\..* then publish the workflow again\.$/,
	);
	expect(list.sent.length).toBeLessThan(6);
	expect(list.posts()).toBe(0);
});
