/**
 * Breaker: when the first poll after publishing fails (the API answers 503), nothing is
 * remembered, so the next successful poll takes the baseline and a quote created after publishing,
 * between the two polls, is never emitted. The issue: "nothing lost … the next poll tries again
 * without losing what was not yet emitted"; the workflow was published before the quote existed.
 */
import { emitted, poller } from '../polling/harness';
import { useSandbox } from './support';

const env = useSandbox();

test('a quote created after publishing is emitted although the first poll after publishing failed', async () => {
	const sandbox = env.sandbox();
	const p = poller(sandbox, { events: ['quote.created'] });
	sandbox.control.failNext({ status: 503, code: 'unavailable', message: 'Down for a moment', path: '/quotes', count: 5 });
	await expect(p.poll()).rejects.toMatchObject({ httpCode: '503' }); // the poll at publishing

	const contactId = String(((await env.api('GET', '/contacts?pageSize=1')) as unknown as Array<{ id: string }>)[0].id);
	const quote = String((await env.api('POST', '/quotes', { contactId, items: [{ name: 'x', quantity: 1, unitPrice: 1, vatPercentage: 9 }] })).id);

	const seen = [...emitted(await p.poll()), ...emitted(await p.poll())];
	expect(seen).toEqual([['quote.created', quote]]);
});
