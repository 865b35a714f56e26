/**
 * README, Operations: "Retry On Fail does not send a write again that the API already accepted in
 * an earlier try of the same node run". The write memory keeps a run's first 10,000 answers. It used
 * to evict the oldest, and the eviction cascaded: a run of 10,002 creates whose last is answered 503
 * once kept 10,001 answers, item 0's was dropped, the next try sent item 0 again, keeping its answer
 * dropped item 1's, and so on: all 10,001 creates were sent twice. Now only the write past the
 * 10,000th (item 10,000) is sent again. Driven through `sendWrite` itself (the path every write of
 * the node takes), with the transport stubbed: 20,000 requests through RoutingNode took minutes.
 */
import type {
	IExecuteData,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { creates, sendWrite } from '../../nodes/BusinessOps/shared/itemOrder';
import { sendRequest } from '../../nodes/shared/api/transport';

jest.mock('../../nodes/shared/api/transport', () => ({ sendRequest: jest.fn() }));

const COUNT = 10_002;

test('10,002 creates, the last answered 503 once: the next try sends again only the write past the 10,000th', async () => {
	const sent = new Map<number, number>();
	let failedOnce = false;
	jest
		.mocked(sendRequest)
		.mockImplementation(async (_ctx, options: IHttpRequestOptions, item?: number) => {
			const index = item ?? -1;
			if (index === COUNT - 1 && !failedOnce) {
				failedOnce = true;
				throw new Error('503 Try later');
			}
			sent.set(index, (sent.get(index) ?? 0) + 1);
			return {
				statusCode: 201,
				headers: {},
				body: { data: { id: `ctc_${index}`, name: (options.body as { name: string }).name } },
			} as IN8nHttpFullResponse;
		});
	const executeData = {} as IExecuteData;
	const ctx = {
		getExecuteData: () => executeData,
		getNode: () => ({ type: 'n8n-nodes-business-ops.businessOps' }),
	} as unknown as IExecuteSingleFunctions;
	const create = (i: number) =>
		sendWrite(ctx, { method: 'POST', url: '/contacts', body: { name: `C${i}` } }, i, creates());
	for (const tryNumber of [1, 2]) {
		for (let i = 0; i < COUNT; i++) {
			await create(i).catch((error: Error) => {
				if (tryNumber === 2) throw error;
			});
		}
	}
	const twice = [...sent].filter(([, n]) => n > 1).map(([item]) => item);
	expect(twice).toEqual([COUNT - 2]);
});
