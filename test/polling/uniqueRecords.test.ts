import { listsFor, uniqueRecords } from '../../nodes/BusinessOpsPollingTrigger/events';

// every id hashes to one key, so that two different ids collide as two real ids almost never do
jest.mock('../../nodes/BusinessOpsPollingTrigger/pollState', () => ({
	...jest.requireActual('../../nodes/BusinessOpsPollingTrigger/pollState'),
	recordKey: (id: string) => (id.startsWith('clash_') ? 'clash' : id),
}));

const [quotes] = listsFor(['quote.created']);

test('a record read twice in one walk (shifted across a page boundary) is one record: the later copy, in its later place', () => {
	const walk = uniqueRecords(quotes, [
		{ id: 'quo_1', status: 'draft' },
		{ id: 'quo_2', status: 'draft' },
		{ id: 'quo_1', status: 'sent' },
	]);
	expect([...walk.values()]).toEqual([
		{ id: 'quo_2', status: 'draft' },
		{ id: 'quo_1', status: 'sent' },
	]);
});

test('two different ids with one remembered key fail the poll loudly instead of becoming one record', () => {
	expect(() =>
		uniqueRecords(quotes, [{ id: 'clash_a' }, { id: 'quo_9' }, { id: 'clash_b' }]),
	).toThrow(
		'Two of the quotes (clash_a and clash_b) share the key the polling trigger remembers them by; please report this',
	);
});

test('a listed record without an id fails the poll', () => {
	expect(() => uniqueRecords(quotes, [{ id: 'quo_1' }, { number: 'Q-2' }])).toThrow(
		'The API listed one of the quotes without an id',
	);
});
