/** The id of a status event names the status the record had at the last poll, `none` when it had none. */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src';
import { TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { poller } from './harness';

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
