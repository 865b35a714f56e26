/**
 * Break b31: "One list read per node run" does not hold when the read fails. Under "Continue" a
 * failed list read is thrown away (`run.index = undefined`) and the next item reads again, each
 * time with the transport's full retry series (5 attempts, 1+2+4+8 s of backoff). With the API
 * answering 500 for a while, a run of 1,000 rows sends 5,000 GET /contacts and waits about four
 * hours before it ends; every row gets the same error anyway.
 *
 * The same with a 429 whose Retry-After is longer than the node waits: every later item sends its
 * own GET /contacts at once, after the API asked for an hour.
 *
 * Expected: a run reads (and retries) the list as one read, whatever the number of items: a run of
 * 4 items sends as many GET /contacts as a run of 1 item, and every item still gets its error item.
 */
import nock from 'nock';

import { fastClock } from '../harness/clock';
import { runDeclarativeNode } from '../harness/engine';
import { api, node, UPSERT } from '../harness/actionNode';

const upsert = UPSERT;
const rows = (count: number) =>
	Array.from({ length: count }, (_, i) => ({
		json: { email: `r${i}@example.com`, name: `Row ${i}` },
	}));

/** GET /contacts answering 500 every time; returns how many were sent and the waits between them. */
async function runAgainstFailingRead(count: number) {
	const waits = fastClock();
	let reads = 0;
	api()
		.get('/v1/contacts')
		.query(true)
		.times(1000)
		.reply(() => (reads++, [500, { error: { code: 'internal', message: 'down' } }]));
	const { items } = await runDeclarativeNode(node, upsert, {
		items: rows(count),
		continueOnFail: true,
	});
	nock.cleanAll();
	return {
		reads,
		waited: waits.reduce((a, b) => a + b, 0),
		errors: items.map((item) => String(item.json.error)),
	};
}

test('Continue: a list read that keeps failing is read (and retried) once per run, not once per item', async () => {
	const one = await runAgainstFailingRead(1);
	const four = await runAgainstFailingRead(4);
	expect(four.errors).toHaveLength(4);
	for (const error of four.errors) expect(error).toContain('GET /contacts');
	expect(four.reads).toBe(one.reads);
	expect(four.waited).toBe(one.waited);
}, 20_000);

test('Continue: after the list read was told to wait an hour (429, Retry-After: 3600), later items do not ask again at once', async () => {
	fastClock();
	let reads = 0;
	api()
		.get('/v1/contacts')
		.query(true)
		.times(100)
		.reply(
			() => (
				reads++,
				[429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'Retry-After': '3600' }]
			),
		);
	const { items } = await runDeclarativeNode(node, upsert, {
		items: rows(4),
		continueOnFail: true,
	});
	expect(items.map((item) => String(item.json.error))).toEqual(
		Array.from({ length: 4 }, (_, i) => expect.stringContaining(`[item ${i}]`)),
	);
	// one read for the run, not 4 GET /contacts within the same second after the API asked for an hour
	expect(reads).toBe(1);
});
