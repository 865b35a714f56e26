/**
 * Break b31: as a tool (AI agent, MCP client), an error is worded for the model and carries no
 * "[item N]" (common brief; validation.ts and apiErrorFor follow it). A network failure of Create or
 * Update's list read, or of its write, comes from the transport's own NodeOperationError, which
 * appends itemSuffix(itemIndex) whatever the mode: the model reads
 * "Could not complete GET /contacts: the connection was closed by the server [item 0]".
 * (Contact → Create gives the same on its POST: the cause is in transport.ts, not only in upsert.)
 *
 * Expected: in tool mode neither error names an item.
 */

import { runDeclarativeNode } from '../harness/engine';
import { api, node, UPSERT } from '../harness/actionNode';

const upsert = UPSERT;
const connectionReset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const asTool = async () =>
	(await runDeclarativeNode(node, upsert, {
		items: [{ json: { email: 'a@example.com', name: 'A' } }],
		asTool: true,
	}).catch((e: unknown) => e)) as Error;

test('tool mode: a network failure of the list read names no item', async () => {
	api().get('/v1/contacts').query(true).times(10).replyWithError(connectionReset());
	const error = await asTool();
	expect(error.message).toContain('GET /contacts');
	expect(error.message).not.toContain('[item');
});

test('tool mode: a network failure of the write names no item', async () => {
	api()
		.get('/v1/contacts')
		.query(true)
		.reply(200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } });
	api().post('/v1/contacts').replyWithError(connectionReset());
	const error = await asTool();
	expect(error.message).toContain('POST /contacts');
	expect(error.message).not.toContain('[item');
});
