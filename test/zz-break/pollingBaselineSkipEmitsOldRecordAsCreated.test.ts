/**
 * Breaker: the first poll after publishing (the baseline) walks the list like any poll, so a record
 * deleted on an already-read page during that walk shifts the next record out of it. The baseline
 * then does not remember that record, and the second poll emits it as `quote.created` although it
 * existed long before publishing. docs/polling.md: "The first poll after publishing remembers what
 * exists and emits nothing"; a deletion during a walk must not turn an old record into a new one.
 */
import { LIST_ORDERS } from '../../sandbox/src/readings';
import { emitted, poller } from '../polling/harness';
import { collect, useSandbox } from '../polling/harness';

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
