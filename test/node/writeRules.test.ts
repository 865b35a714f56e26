/**
 * The proofs after an unknown outcome. `changes()`: the record read back answers the write only where
 * it shows every field sent; a list shows it only element by element, with the same length.
 * `creates(find)`: a record found answers it only where it agrees with what was sent and no other
 * item holds it.
 */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { changes, creates } from '../../nodes/BusinessOps/shared/itemOrder';
import { sendRequest } from '../../nodes/shared/api/transport';

jest.mock('../../nodes/shared/api/transport', () => ({ sendRequest: jest.fn() }));

const ctx = {
	getNode: () => ({ type: 'n8n-nodes-business-ops.businessOps' }),
} as unknown as IExecuteSingleFunctions;

const proofWhenRecordHas = async (stored: IDataObject, sent: IDataObject) => {
	jest.mocked(sendRequest).mockResolvedValue({
		statusCode: 200,
		headers: {},
		body: { data: stored },
	} as IN8nHttpFullResponse);
	const options: IHttpRequestOptions = { method: 'PATCH', url: '/quotes/quo_1', body: sent };
	return await changes().prove(ctx, options, 0, new Map());
};

test.each([
	['the same list', { items: [{ name: 'A' }] }, { items: [{ name: 'A' }] }, 'record'],
	[
		'a longer list than sent',
		{ items: [{ name: 'A' }, { name: 'B' }] },
		{ items: [{ name: 'A' }] },
		'absent',
	],
	[
		'a shorter list than sent',
		{ items: [{ name: 'A' }] },
		{ items: [{ name: 'A' }, { name: 'B' }] },
		'absent',
	],
	['another element', { items: [{ name: 'B' }] }, { items: [{ name: 'A' }] }, 'absent'],
	['more fields than sent', { status: 'sent', notes: 'x' }, { status: 'sent' }, 'record'],
	['another value', { status: 'draft' }, { status: 'sent' }, 'absent'],
])('a record with %s', async (_case, stored, sent, expected) => {
	const proof = await proofWhenRecordHas(stored, sent);
	expect(proof === 'absent' ? 'absent' : 'record').toBe(expected);
});

describe('creates(find)', () => {
	const sent = { name: 'Ann de Vries', email: 'ann@example.com', phone: '+31 6 1234 5678' };
	const post: IHttpRequestOptions = { method: 'POST', url: '/contacts', body: sent };
	const proofAmong = async (found: IDataObject[], ids = new Map<number, string>()) =>
		await creates(async () => found).prove(ctx, post, 1, ids);

	test.each([
		[
			'stored in another form (case, spaces)',
			{ name: 'ANN DE VRIES ', phone: '+31612345678' },
			'record',
		],
		['without a field sent', { name: 'Ann de Vries' }, 'record'],
		[
			'with another phone (another client)',
			{ name: 'Ann de Vries', phone: '+31 20 000 0000' },
			'absent',
		],
		['with another name', { name: 'Ann Jansen' }, 'absent'],
	])('a record %s', async (_case, stored, expected) => {
		const proof = await proofAmong([{ id: 'ctc_1', email: 'ann@example.com', ...stored }]);
		expect(proof === 'absent' ? 'absent' : 'record').toBe(expected);
	});

	test('a record another item of the run holds is not this one', async () => {
		expect(await proofAmong([{ id: 'ctc_1', ...sent }], new Map([[0, 'ctc_1']]))).toBe('absent');
	});

	test('two items proving side by side (their reads answered in one tick) take two records, never one twice', async () => {
		const ids = new Map<number, string>();
		const twins = [{ id: 'ctc_1', ...sent }];
		const rule = creates(async () => twins);
		const [first, second] = await Promise.all([
			rule.prove(ctx, post, 0, ids),
			rule.prove(ctx, post, 1, ids),
		]);
		expect([first, second]).toEqual([twins[0], 'absent']);
		expect(ids.get(0)).toBe('ctc_1');
	});
});
