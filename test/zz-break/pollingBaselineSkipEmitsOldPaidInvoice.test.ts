/**
 * Breaker (status events): an invoice paid long before publishing, which the baseline walk skipped
 * because a draft on an already-read page was deleted during it, is emitted as `invoice.paid` at
 * the next poll (a record not remembered counts as new, and a new record "with that status" gives
 * the status event). A payment workflow then runs for an old payment. docs/polling.md: the first
 * poll remembers what exists and emits nothing.
 */
import { emitted, poller } from '../polling/harness';
import { collect, useSandbox } from '../polling/harness';

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
