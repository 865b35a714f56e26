/**
 * Breaker: static data in the current format whose status codes point past its `statuses` (a
 * hand-edited or damaged state, or one written by a version with other codes) is read as records
 * "without a status", so the next poll emits the status event of every record that has one.
 * pollState.ts and docs/polling.md promise: anything unreadable counts as never read (a new
 * baseline), which emits nothing.
 */
import type { IDataObject } from 'n8n-workflow';

import { emitted, poller } from '../polling/harness';
import { useSandbox } from '../polling/harness';

const env = useSandbox();

test('a state whose status codes are not in its status table is a new baseline, not a flood of status events', async () => {
	const sandbox = env.sandbox();
	sandbox.control.seed({ resource: 'quotes', count: 120 });
	const p = poller(sandbox, { events: ['quote.sent', 'quote.approved'] });
	expect(await p.poll()).toBeNull();
	const quote = (p.staticData().lists as IDataObject).quote as IDataObject;
	expect((quote.statuses as string[]).length).toBeGreaterThan(1);
	// damaged: the status table lost its entries, the 9-character entries are intact
	quote.statuses = [];

	const events = emitted(await p.poll());
	// expected: nothing readable to compare with, so a new baseline and no event
	expect(events).toEqual([]);
});
