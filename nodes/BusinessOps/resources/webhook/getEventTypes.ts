import type { IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

/**
 * postReceive of Get Event Types: one item per event type. The list may hold names or records;
 * a name becomes `{ type }`, a record is kept as the API sent it.
 */
export async function toEventTypeItems(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return items.map((item) => {
		const entry: unknown = item.json;
		return typeof entry === 'string' ? { ...item, json: { type: entry } } : item;
	});
}
