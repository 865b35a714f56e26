/**
 * `changes()`'s proof after an unknown outcome: the record read back answers the write only where it
 * shows every field sent; a list shows it only element by element, with the same length.
 */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { changes } from '../../nodes/BusinessOps/shared/itemOrder';
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
	return await changes().prove(ctx, options, 0, new Set());
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
