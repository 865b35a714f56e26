import type { IDataObject } from 'n8n-workflow';
import {
	readPollState,
	recordKey,
	writePollState,
	type ListState,
} from '../../nodes/BusinessOpsPollingTrigger/pollState';
import nock from 'nock';
import type { Sandbox } from '../../sandbox/src';
import { TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { INVOICE_STATUSES } from '../harness/actionNode';
import { poller } from './harness';

const STATUSES = INVOICE_STATUSES;

function invoices(count: number): ListState {
	const list: ListState = new Map();
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
	writePollState(staticData, new Map([['invoice', list]]));
	const bytes = Buffer.byteLength(JSON.stringify(staticData));
	expect(bytes).toBeLessThan(200_000);
	expect(bytes).toBeGreaterThan(130_000); // 13 characters per record: the bound is real
	const saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;
	expect(readPollState(saved).get('invoice')).toEqual(list);
});

test('no ids are stored, only 12 characters of their hash', () => {
	const staticData: IDataObject = {};
	const list: ListState = new Map([
		[recordKey('quo_secretlookingid123'), { status: 'approved', missing: false }],
	]);
	writePollState(staticData, new Map([['quote', list]]));
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
	expect(readPollState({}).size).toBe(0);
	expect(
		readPollState({ format: 1, lists: { quote: { statuses: [], seen: '', missing: '' } } }).size,
	).toBe(0);
	const damaged = readPollState({
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
	const read = (quote: IDataObject) => readPollState({ format: 2, lists: { quote } }).has('quote');
	expect(read({ statuses: ['sent'], seen: `${key}a${key.replace(/./, 'A')}-`, missing: '' })).toBe(
		true,
	);
	expect(read({ statuses: ['sent'], seen: `${key}b`, missing: '' })).toBe(false);
	expect(read({ statuses: [], seen: '', missing: `${key}a` })).toBe(false);
	expect(read({ statuses: ['sent'], seen: `${key.slice(1)}.a`, missing: '' })).toBe(false);
});

describe('the status event id names the status at the last poll, none when it had none', () => {
	/** The id of a status event names the status the record had at the last poll, `none` when it had none. */
	const api = { baseUrl: TEST_BASE_URL, keys: { admin: TEST_API_KEY } } as unknown as Sandbox;

	test('an invoice listed without a status that is then paid gives invoice.paid with the id …:from:none', async () => {
		const invoice: IDataObject = { id: 'inv_0000000000000001', number: 'F-1' };
		nock(TEST_BASE_URL)
			.persist()
			.get('/invoices')
			.query(true)
			.reply(() => [
				200,
				{ data: [invoice], meta: { page: 1, pageSize: 100, total: 1, hasMore: false } },
			]);
		const p = poller(api, { events: ['invoice.paid'] }, TEST_API_KEY);
		expect(await p.poll()).toBeNull();
		invoice.status = 'paid';
		const items = (await p.poll())?.[0] ?? [];
		expect(items.map((item) => item.json.id)).toEqual([
			'invoice.paid:inv_0000000000000001:from:none',
		]);
	});
});
