import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { byId, jsonOf, runListSearch, runLoadOptions } from '../harness/engine';
import { baseApi as api, node, runOn } from '../harness/actionNode';

const run = runOn('webhook');

const webhook = (id: string) => ({
	id,
	name: 'Paid invoices',
	url: 'https://hooks.example.com/paid',
	events: ['invoice.paid'],
	active: true,
});

afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('Webhook: Create', () => {
	const body = {
		name: 'Paid invoices',
		url: 'https://hooks.example.com/paid',
		events: ['invoice.paid', 'quote.approved'],
	};

	it('posts name, url and events and shows the signing secret with the note to store it now', async () => {
		const created = { ...webhook('whk_1'), events: body.events, signingSecret: 'whsec_k9Xq2' };
		api().post('/webhooks', body).reply(201, { data: created });

		const { items } = await run({
			operation: 'create',
			name: 'Paid invoices',
			url: ' https://hooks.example.com/paid ',
			events: ['invoice.paid', 'quote.approved'],
		});

		expect(jsonOf(items)).toEqual([
			{
				...created,
				signingSecretNote:
					'This signing secret is shown only this once: store it now (for example in an n8n credential). The API never returns it again, and it is needed to verify the deliveries.',
			},
		]);
	});

	it('takes the events from an expression given as comma-separated text', async () => {
		api()
			.post('/webhooks', body)
			.reply(201, { data: { ...webhook('whk_1'), signingSecret: 's' } });

		await run({
			operation: 'create',
			name: 'Paid invoices',
			url: 'https://hooks.example.com/paid',
			events: '={{ "invoice.paid, quote.approved" }}',
		});
	});

	const refused: Array<[string, INodeParameters, string]> = [
		[
			'a URL that is not http(s)',
			{ url: 'ftp://hooks.example.com/paid' },
			'URL: "ftp://hooks.example.com/paid" is not an http:// or https:// URL [item 0]',
		],
		[
			'a URL that is not a URL',
			{ url: 'hooks.example.com/paid' },
			'URL: "hooks.example.com/paid" is not an http:// or https:// URL [item 0]',
		],
		['no events', { events: [] }, 'Event Names or IDs: choose at least one event type [item 0]'],
		['an empty name', { name: '' }, 'Name: a value is required [item 0]'],
	];

	it.each(refused)('refuses %s and sends nothing', async (_case, params, message) => {
		await expect(run({ operation: 'create', ...body, ...params })).rejects.toThrow(message);
	});
});

describe('Webhook: Get, Get Many, Update, Delete', () => {
	it('Get reads GET /webhooks/{id}', async () => {
		api()
			.get('/webhooks/whk_1')
			.reply(200, { data: webhook('whk_1') });

		const { items } = await run({ operation: 'get', webhookId: byId('whk_1') });

		expect(jsonOf(items)).toEqual([webhook('whk_1')]);
	});

	it('Get Many follows the pages when the list comes with meta', async () => {
		api()
			.get('/webhooks')
			.query({ page: '1', pageSize: '100' })
			.reply(200, {
				data: [webhook('whk_1')],
				meta: { page: 1, pageSize: 100, total: 2, hasMore: true },
			});
		api()
			.get('/webhooks')
			.query({ page: '2', pageSize: '100' })
			.reply(200, {
				data: [webhook('whk_2')],
				meta: { page: 2, pageSize: 100, total: 2, hasMore: false },
			});

		const { items } = await run({ operation: 'getAll', returnAll: true });

		expect(jsonOf(items)).toEqual([webhook('whk_1'), webhook('whk_2')]);
	});

	it('Get Many takes a list without meta as the whole list', async () => {
		api()
			.get('/webhooks')
			.query({ page: '1', pageSize: '100' })
			.reply(200, { data: [webhook('whk_1'), webhook('whk_2')] });

		const { items } = await run({ operation: 'getAll', returnAll: true });

		expect(jsonOf(items)).toEqual([webhook('whk_1'), webhook('whk_2')]);
	});

	it('Get Many with a Limit cuts a list without meta', async () => {
		api()
			.get('/webhooks')
			.query({ page: '1', pageSize: '1' })
			.reply(200, { data: [webhook('whk_1'), webhook('whk_2')] });

		const { items } = await run({ operation: 'getAll', returnAll: false, limit: 1 });

		expect(jsonOf(items)).toEqual([webhook('whk_1')]);
	});

	it('Update patches only the fields that were added', async () => {
		const body = {
			active: false,
			events: ['invoice.sent'],
			name: 'Sent invoices',
			url: 'https://hooks.example.com/sent',
		};
		api()
			.patch('/webhooks/whk_1', body)
			.reply(200, { data: { id: 'whk_1', ...body } });

		const { items } = await run({
			operation: 'update',
			webhookId: byId('whk_1'),
			updateFields: body,
		});

		expect(jsonOf(items)).toEqual([{ id: 'whk_1', ...body }]);
	});

	it('Update with only Active pauses the subscription', async () => {
		api()
			.patch('/webhooks/whk_1', { active: false })
			.reply(200, { data: { ...webhook('whk_1'), active: false } });

		const { items } = await run({
			operation: 'update',
			webhookId: byId('whk_1'),
			updateFields: { active: false },
		});

		expect(items[0].json.active).toBe(false);
	});

	it.each([
		[
			{ url: 'mailto:ops@example.com' },
			'URL: "mailto:ops@example.com" is not an http:// or https:// URL [item 0]',
		],
		[{ events: [] }, 'Event Names or IDs: choose at least one event type [item 0]'],
	])('Update refuses %j and sends nothing', async (updateFields, message) => {
		await expect(
			run({ operation: 'update', webhookId: byId('whk_1'), updateFields }),
		).rejects.toThrow(message);
	});

	it('Delete sends DELETE /webhooks/{id} and answers { deleted, id }', async () => {
		api()
			.delete('/webhooks/whk_1')
			.reply(200, { data: { id: 'whk_1', deleted: true } });

		const { items } = await run({ operation: 'delete', webhookId: byId('whk_1') });

		expect(jsonOf(items)).toEqual([{ deleted: true, id: 'whk_1' }]);
	});

	it('Delete with a key without webhooks.write names the missing scope', async () => {
		api()
			.delete('/webhooks/whk_1')
			.reply(403, {
				error: {
					code: 'insufficient_scope',
					message: 'This API key lacks the scope "webhooks.write"',
				},
			});

		await expect(run({ operation: 'delete', webhookId: byId('whk_1') })).rejects.toMatchObject({
			message:
				'This API key lacks the scope "webhooks.write" (HTTP 403 insufficient_scope, DELETE /webhooks/whk_1) [item 0]',
			httpCode: '403',
			errorResponse: { code: 'insufficient_scope', scope: 'webhooks.write', status: 403 },
		});
	});

	it('the webhook list search lists name and URL', async () => {
		api()
			.get('/webhooks')
			.query({ page: '1', pageSize: '100' })
			.reply(200, { data: [webhook('whk_1')] });

		const result = await runListSearch(node, 'searchWebhooks', {
			resource: 'webhook',
			operation: 'get',
		});

		expect(result).toEqual({
			results: [{ name: 'Paid invoices · https://hooks.example.com/paid', value: 'whk_1' }],
			paginationToken: undefined,
		});
	});
});

describe('Webhook: events', () => {
	it('Send Test Event posts { eventType } to /webhooks/{id}/test', async () => {
		const outcome = { delivered: true, statusCode: 200, eventId: 'evt_1' };
		api()
			.post('/webhooks/whk_1/test', { eventType: 'quote.approved' })
			.reply(200, { data: outcome });

		const { items } = await run({
			operation: 'sendTestEvent',
			webhookId: byId('whk_1'),
			eventType: 'quote.approved',
		});

		expect(jsonOf(items)).toEqual([outcome]);
	});

	it('Send Test Event refuses an empty event type', async () => {
		await expect(
			run({ operation: 'sendTestEvent', webhookId: byId('whk_1'), eventType: '' }),
		).rejects.toThrow('Event Type Name or ID: a value is required [item 0]');
	});

	it('Get Event Types returns one item per event type, following the pages', async () => {
		api()
			.get('/webhooks/events')
			.query({ page: '1', pageSize: '100' })
			.reply(200, {
				data: [
					{ type: 'invoice.sent', description: 'An invoice was sent' },
					{ type: 'invoice.paid', description: 'An invoice was paid' },
				],
				meta: { page: 1, pageSize: 100, total: 3, hasMore: true },
			});
		api()
			.get('/webhooks/events')
			.query({ page: '2', pageSize: '100' })
			.reply(200, {
				data: [{ type: 'quote.approved', description: 'A quote was approved' }],
				meta: { page: 2, pageSize: 100, total: 3, hasMore: false },
			});

		const { items } = await run({ operation: 'getEventTypes' });

		expect(jsonOf(items)).toEqual([
			{ type: 'invoice.sent', description: 'An invoice was sent' },
			{ type: 'invoice.paid', description: 'An invoice was paid' },
			{ type: 'quote.approved', description: 'A quote was approved' },
		]);
	});

	it('Get Event Types turns a list of names into items with a type', async () => {
		api()
			.get('/webhooks/events')
			.query(true)
			.reply(200, { data: ['quote.created', 'request.received'] });

		const { items } = await run({ operation: 'getEventTypes' });

		expect(jsonOf(items)).toEqual([{ type: 'quote.created' }, { type: 'request.received' }]);
	});

	it('Get Event Types takes records without meta as the whole list, in one request', async () => {
		const scope = api()
			.get('/webhooks/events')
			.query({ page: '1', pageSize: '100' })
			.reply(200, {
				data: [{ type: 'invoice.sent' }, { type: 'invoice.paid' }, { type: 'quote.created' }],
			});

		const { items } = await run({ operation: 'getEventTypes' });

		expect(jsonOf(items).map((i) => (i as { type: string }).type)).toEqual([
			'invoice.sent',
			'invoice.paid',
			'quote.created',
		]);
		expect(scope.isDone()).toBe(true);
	});

	it('the webhook list search offers a list without meta whole, with no next page', async () => {
		api()
			.get('/webhooks')
			.query({ page: '1', pageSize: '100' })
			.reply(200, { data: [webhook('whk_1'), webhook('whk_2')] });

		const result = await runListSearch(node, 'searchWebhooks', {
			resource: 'webhook',
			operation: 'get',
		});

		expect(result.results.map((r) => r.value)).toEqual(['whk_1', 'whk_2']);
		expect(result.paginationToken).toBeUndefined();
	});

	it('the event choices come from GET /webhooks/events', async () => {
		api()
			.get('/webhooks/events')
			.query({ page: '1', pageSize: '100' })
			.reply(200, { data: [{ type: 'invoice.paid', description: 'An invoice was paid' }] });

		const options = await runLoadOptions(node, 'getEventTypes', {
			resource: 'webhook',
			operation: 'create',
		});

		expect(options).toEqual([
			{ name: 'invoice.paid', value: 'invoice.paid', description: 'An invoice was paid' },
		]);
	});
});
