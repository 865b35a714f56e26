import nock from 'nock';
import type { INodeProperties, INodePropertyOptions, INodePropertyRouting } from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { walkPages } from '../../nodes/shared/api/pages';
import { runDeclarativeNode } from '../harness/engine';
import { API, node } from '../harness/actionNode';

const description = new BusinessOps().description;

/** Every `routing` of the node, with where it sits: properties, options, collection entries. */
function routings(
	properties: Array<INodeProperties | INodePropertyOptions>,
	at = '',
): Array<[string, INodePropertyRouting]> {
	const found: Array<[string, INodePropertyRouting]> = [];
	for (const property of properties) {
		const where = `${at}${'name' in property ? property.name : ''}`;
		if ('routing' in property && property.routing) found.push([where, property.routing]);
		const children = (
			'options' in property && Array.isArray(property.options) ? property.options : []
		) as Array<INodeProperties | INodePropertyOptions | { values?: INodeProperties[] }>;
		for (const child of children) {
			if ('values' in child && Array.isArray(child.values))
				found.push(...routings(child.values, `${where}.`));
			else if (typeof child === 'object')
				found.push(...routings([child as INodeProperties], `${where}.`));
		}
	}
	return found;
}

test('every postReceive step is a function: the seam unwraps the envelope before they run', () => {
	const all = routings(description.properties);
	expect(all.length).toBeGreaterThan(40);
	const declarative = all
		.flatMap(([where, routing]) =>
			(routing.output?.postReceive ?? []).map((step) => [where, step] as const),
		)
		.filter(([, step]) => typeof step !== 'function')
		.map(([where]) => where);
	expect(declarative).toEqual([]);
});

test('every Get Many reads its list through the page walker, and nothing else does (Create or Update reads its look-up in its own sender)', () => {
	const operations = description.properties.filter((p) => p.name === 'operation');
	const lists: string[] = [];
	const getMany: string[] = [];
	for (const property of operations) {
		const resource = property.displayOptions?.show?.resource?.[0];
		for (const option of (property.options ?? []) as INodePropertyOptions[]) {
			const method = option.routing?.request?.method ?? 'GET';
			if (option.routing?.operations?.pagination && method === 'GET')
				lists.push(`${String(resource)}.${String(option.value)}`);
			if (option.value === 'getAll') getMany.push(`${String(resource)}.getAll`);
		}
	}
	expect(getMany.length).toBe(7);
	expect(lists.sort()).toEqual([...getMany, 'webhook.getEventTypes'].sort());
});

test('every write operation declares what a repeat of it does (writeRouting and its rule)', () => {
	const writes: string[] = [];
	const withoutRule: string[] = [];
	for (const property of description.properties.filter((p) => p.name === 'operation')) {
		const resource = String(property.displayOptions?.show?.resource?.[0]);
		for (const option of (property.options ?? []) as INodePropertyOptions[]) {
			if ((option.routing?.request?.method ?? 'GET') === 'GET') continue;
			writes.push(`${resource}.${String(option.value)}`);
			if (!option.routing?.operations?.pagination)
				withoutRule.push(`${resource}.${String(option.value)}`);
		}
	}
	expect(writes.length).toBeGreaterThanOrEqual(25);
	expect(withoutRule).toEqual([]);
});

describe('the page walker', () => {
	const page = (records: number[], meta?: object) => ({
		body: { data: records.map((id) => ({ id })), ...(meta ? { meta } : {}) },
		response: records,
	});

	test('an answer without meta is the whole list: one request, every record', async () => {
		const fetched: number[] = [];
		const { records } = await walkPages(async (n) => {
			fetched.push(n);
			return page([1, 2, 3]);
		});
		expect(fetched).toEqual([1]);
		expect(records).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
	});

	test('hasMore without totals is followed page by page until it ends', async () => {
		const fetched: number[] = [];
		const { records, last } = await walkPages(async (n) => {
			fetched.push(n);
			return page([n], { hasMore: n < 3 });
		});
		expect(fetched).toEqual([1, 2, 3]);
		expect(records).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
		expect(last.response).toEqual([3]);
	});

	test('a page that says there is more but holds nothing ends with an error, not a loop', async () => {
		let calls = 0;
		await expect(
			walkPages(async (n) => {
				calls++;
				return page(n === 1 ? [1] : [], { hasMore: true });
			}),
		).rejects.toThrow(/page 2 of the list with no records but said there were more/);
		expect(calls).toBe(2);
	});

	test('a page-1 total that overstates: the walk follows hasMore, reads no further, and says the read is not whole', async () => {
		const fetched: number[] = [];
		const { records, last, whole } = await walkPages(async (n) => {
			fetched.push(n);
			return n === 1
				? page([1, 2], { pageSize: 2, total: 2000, hasMore: true })
				: page([3], { pageSize: 2, hasMore: false });
		});
		expect(records).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
		expect(last.response).toEqual([3]);
		expect(whole).toBe(false);
		expect(fetched).toEqual([1, 2]);
	});

	test('with a total, an empty page that says there are more ends with an error', async () => {
		const fetched: number[] = [];
		await expect(
			walkPages(async (n) => {
				fetched.push(n);
				return page(n === 1 ? [1, 2] : [], { pageSize: 2, total: 2000, hasMore: true });
			}),
		).rejects.toThrow(/page 2 of the list with no records but said there were more/);
		expect(Math.max(...fetched)).toBeLessThan(10);
	});
});

test('Get Event Types: a plain data array without meta gives every record in one request', async () => {
	const scope = nock(API)
		.get('/v1/webhooks/events')
		.query(true)
		.reply(200, { data: ['invoice.paid', 'invoice.sent', 'quote.created'] });
	const { items } = await runDeclarativeNode(node, {
		resource: 'webhook',
		operation: 'getEventTypes',
	});
	expect(items.map((item) => item.json.type)).toEqual([
		'invoice.paid',
		'invoice.sent',
		'quote.created',
	]);
	expect(scope.isDone()).toBe(true);
});

test('"Custom API Call" (added by n8n to the Resource and Operation lists) sends nothing and points to the HTTP Request node', async () => {
	for (const parameters of [
		{ resource: '__CUSTOM_API_CALL__' },
		{ resource: 'contact', operation: '__CUSTOM_API_CALL__' },
	]) {
		await expect(runDeclarativeNode(node, parameters)).rejects.toThrow(
			'Custom API Call runs in the HTTP Request node [item 0]',
		);
	}
	// nock refuses any request that is not intercepted: none was sent
	expect(nock.pendingMocks()).toEqual([]);
});

test('"Custom API Call" under Stop Workflow stays out of the item order: its request has no method, and its error gains no Stop Workflow description', async () => {
	const said =
		'Add an HTTP Request node, set Authentication to "Predefined Credential Type" and Credential Type to "Business Ops API": it sends any method and path of the API with this credential\'s key. Nothing was sent from this node.';
	for (const parameters of [
		{ resource: '__CUSTOM_API_CALL__' },
		{ resource: 'quote', operation: '__CUSTOM_API_CALL__' },
	]) {
		for (const count of [1, 3]) {
			const items = Array.from({ length: count }, () => ({ json: {} }));
			const error = await runDeclarativeNode(node, parameters, { items }).then(
				() => undefined,
				(thrown: Error & { description?: string }) => thrown,
			);
			expect(error?.message).toBe('Custom API Call runs in the HTTP Request node [item 0]');
			// nothing of it can be fixed by the item or by "Continue": the item order has nothing to say
			expect(error?.description).toBe(said);
		}
	}
	expect(nock.pendingMocks()).toEqual([]);
});
