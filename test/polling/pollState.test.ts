import type { IDataObject } from 'n8n-workflow';

import {
	readMemory,
	recordKey,
	writeMemory,
	type ListMemory,
} from '../../nodes/BusinessOpsPollingTrigger/pollState';

const STATUSES = [
	'draft',
	'finalized',
	'sent',
	'viewed',
	'paid',
	'overdue',
	'in_collection',
	'written_off',
];

function invoices(count: number): ListMemory {
	const list: ListMemory = new Map();
	for (let i = 0; i < count; i++)
		list.set(recordKey(`inv_${i.toString(36).padStart(16, '0')}`), {
			status: STATUSES[i % STATUSES.length],
			missing: i % 1000 === 0,
		});
	return list;
}

test('10,000 records of one list take under 200 kB of static data, and read back the same', () => {
	const staticData: IDataObject = {};
	const list = invoices(10_000);
	writeMemory(staticData, new Map([['invoice', list]]));
	const bytes = Buffer.byteLength(JSON.stringify(staticData));
	expect(bytes).toBeLessThan(200_000);
	expect(bytes).toBeGreaterThan(130_000); // 13 characters per record: the bound is real
	const saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;
	expect(readMemory(saved).get('invoice')).toEqual(list);
});

test('no ids are stored, only 12 characters of their hash', () => {
	const staticData: IDataObject = {};
	const list: ListMemory = new Map([
		[recordKey('quo_secretlookingid123'), { status: 'approved', missing: false }],
	]);
	writeMemory(staticData, new Map([['quote', list]]));
	expect(JSON.stringify(staticData)).not.toContain('quo_');
	expect(staticData).toEqual({
		format: 2,
		lists: {
			quote: {
				statuses: ['approved'],
				seen: `${recordKey('quo_secretlookingid123')}a`,
				missing: '',
			},
		},
	});
});

test('static data that is not this format (empty, another version, damaged) counts as never read: a new baseline', () => {
	expect(readMemory({}).size).toBe(0);
	expect(
		readMemory({ format: 1, lists: { quote: { statuses: [], seen: '', missing: '' } } }).size,
	).toBe(0);
	const damaged = readMemory({
		format: 2,
		lists: {
			quote: { statuses: [], seen: 'abc', missing: '' },
			invoice: { statuses: [], seen: '', missing: '' },
		},
	});
	expect([...damaged.keys()]).toEqual(['invoice']);
});

test('a list whose status codes point past its status table, or whose keys no hash gives, is unreadable', () => {
	const key = recordKey('quo_1');
	const read = (quote: IDataObject) => readMemory({ format: 2, lists: { quote } }).has('quote');
	expect(read({ statuses: ['sent'], seen: `${key}a${key.replace(/./, 'A')}-`, missing: '' })).toBe(
		true,
	);
	expect(read({ statuses: ['sent'], seen: `${key}b`, missing: '' })).toBe(false);
	expect(read({ statuses: [], seen: '', missing: `${key}a` })).toBe(false);
	expect(read({ statuses: ['sent'], seen: `${key.slice(1)}.a`, missing: '' })).toBe(false);
});
