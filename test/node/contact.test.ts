import nock from 'nock';

import { byId, runDeclarativeNode } from '../harness/engine';
import { api, node, searchOf } from '../harness/actionNode';

const fromList = (value: string) => ({ __rl: true, mode: 'list', value });
const contact = {
	id: 'ctc_1',
	name: 'Bakkerij de Vries B.V.',
	email: 'info@bakkerijdevries.nl',
	phone: '+31 20 123 4567',
	kvkNumber: '12345678',
	type: 'business',
	billingCountry: 'NL',
};

function page(ids: string[], pageNumber: number, hasMore: boolean) {
	return {
		data: ids.map((id) => ({ id, name: `Contact ${id}` })),
		meta: { page: pageNumber, pageSize: 100, total: 5, hasMore },
	};
}

describe('Contact', () => {
	test('Type: a value the API documentation does not list can come from an expression and is sent as given', async () => {
		const scope = api()
			.post('/v1/contacts', { name: 'Stichting Vrienden', type: 'foundation' })
			.reply(201, { data: { ...contact, type: 'foundation' } });
		await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'create',
			name: 'Stichting Vrienden',
			additionalFields: { type: '={{ "foundation" }}' },
		});
		expect(scope.isDone()).toBe(true);
	});

	test('Type is sent only when it was added', async () => {
		const scope = api().post('/v1/contacts', { name: 'Jan' }).reply(201, { data: contact });
		await runDeclarativeNode(node, { resource: 'contact', operation: 'create', name: 'Jan' });
		expect(scope.isDone()).toBe(true);
	});

	test('Create sends the name and only the additional fields that were set', async () => {
		const scope = api()
			.post('/v1/contacts', {
				name: contact.name,
				email: contact.email,
				billingCountry: 'NL',
				type: 'business',
			})
			.reply(201, { data: contact });
		const { items } = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'create',
			name: contact.name,
			additionalFields: { email: ` ${contact.email} `, billingCountry: 'nl', type: 'business' },
		});
		expect(items.map((i) => i.json)).toEqual([contact]);
		expect(scope.isDone()).toBe(true);
	});

	test('Get reads one contact by ID, from the list or typed', async () => {
		const scope = api().get('/v1/contacts/ctc_1').twice().reply(200, { data: contact });
		for (const contactId of [fromList('ctc_1'), byId('ctc_1')]) {
			const { items } = await runDeclarativeNode(node, {
				resource: 'contact',
				operation: 'get',
				contactId,
			});
			expect(items.map((i) => i.json)).toEqual([contact]);
		}
		expect(scope.isDone()).toBe(true);
	});

	test('Get Many with Return All pages at 100 until hasMore is false', async () => {
		const scope = api()
			.get('/v1/contacts')
			.query({ page: 1, pageSize: 100 })
			.reply(200, page(['a', 'b'], 1, true))
			.get('/v1/contacts')
			.query({ page: 2, pageSize: 100 })
			.reply(200, page(['c', 'd'], 2, true))
			.get('/v1/contacts')
			.query({ page: 3, pageSize: 100 })
			.reply(200, page(['e'], 3, false));
		const { items } = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
		});
		expect(items.map((i) => i.json.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
		expect(scope.isDone()).toBe(true);
	});

	test('Get Many with a Limit under 100 asks for exactly that many', async () => {
		const scope = api()
			.get('/v1/contacts')
			.query({ page: 1, pageSize: 3 })
			.reply(200, {
				data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
				meta: { page: 1, pageSize: 3, total: 9, hasMore: true },
			});
		const { items } = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'getAll',
			limit: 3,
		});
		expect(items.map((i) => i.json.id)).toEqual(['a', 'b', 'c']);
		expect(scope.isDone()).toBe(true);
	});

	test('Get Many with a Limit over 100 pages at 100 and stops at the limit', async () => {
		const ids = (from: number, count: number) =>
			Array.from({ length: count }, (_, i) => `c${from + i}`);
		const scope = api()
			.get('/v1/contacts')
			.query({ page: 1, pageSize: 100 })
			.reply(200, page(ids(0, 100), 1, true))
			.get('/v1/contacts')
			.query({ page: 2, pageSize: 100 })
			.reply(200, page(ids(100, 100), 2, true));
		const { items } = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'getAll',
			limit: 150,
		});
		expect(items).toHaveLength(150);
		expect(items[149].json.id).toBe('c149');
		expect(scope.isDone()).toBe(true);
	});

	test('Update sends only the fields to change', async () => {
		const scope = api()
			.patch('/v1/contacts/ctc_1', { phone: '+31 6 1234 5678' })
			.reply(200, { data: { ...contact, phone: '+31 6 1234 5678' } });
		const { items } = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'update',
			contactId: byId('ctc_1'),
			updateFields: { phone: '+31 6 1234 5678' },
		});
		expect(items[0].json.phone).toBe('+31 6 1234 5678');
		expect(scope.isDone()).toBe(true);
	});

	test('Update sends a new name beside the optional contact fields', async () => {
		const scope = api()
			.patch('/v1/contacts/ctc_1', { name: 'Bakkerij Jansen', email: 'info@jansen.nl' })
			.reply(200, { data: { ...contact, name: 'Bakkerij Jansen', email: 'info@jansen.nl' } });
		const { items } = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'update',
			contactId: byId('ctc_1'),
			updateFields: { name: 'Bakkerij Jansen', email: 'info@jansen.nl' },
		});
		expect(items[0].json.name).toBe('Bakkerij Jansen');
		expect(scope.isDone()).toBe(true);
	});

	test('Delete answers { deleted: true, id }', async () => {
		const scope = api()
			.delete('/v1/contacts/ctc_1')
			.reply(200, { data: { id: 'ctc_1', deleted: true } });
		const { items } = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'delete',
			contactId: byId('ctc_1'),
		});
		expect(items.map((i) => i.json)).toEqual([{ deleted: true, id: 'ctc_1' }]);
		expect(scope.isDone()).toBe(true);
	});

	test('Delete with an empty answer still reports the ID', async () => {
		const scope = api().delete('/v1/contacts/ctc_2').reply(204);
		const { items } = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'delete',
			contactId: byId('ctc_2'),
		});
		expect(items.map((i) => i.json)).toEqual([{ deleted: true, id: 'ctc_2' }]);
		expect(scope.isDone()).toBe(true);
	});
});

describe('Contact input checks (nothing is sent)', () => {
	test.each([
		[
			'an e-mail without @',
			{ email: 'info.bakkerij.nl' },
			'Email: "info.bakkerij.nl" is not an e-mail address [item 0]',
		],
	])('Create refuses %s', async (_case, additionalFields, message) => {
		const error = await runDeclarativeNode(node, {
			resource: 'contact',
			operation: 'create',
			name: 'x',
			additionalFields,
		}).catch((e) => e);
		expect(error.message).toBe(message);
	});

	test.each([
		[
			'an ID with a slash',
			'ctc_1/../../organization',
			'Contact: "ctc_1/../../organization" is not an ID',
		],
		['an empty ID', '', 'Contact: no ID was given'],
		['an ID with spaces', 'ctc 1', 'Contact: "ctc 1" is not an ID'],
	])('Get refuses %s', async (_case, value, message) => {
		const scope = api()
			.get('/v1/contacts/ok')
			.reply(200, { data: { id: 'ok' } });
		const error = await runDeclarativeNode(
			node,
			{ resource: 'contact', operation: 'get', contactId: '={{ $json.id }}' },
			{ items: [{ json: { id: 'ok' } }, { json: { id: value } }], continueOnFail: true },
		).then(
			(r) => r.items[1].error,
			(e) => e,
		);
		expect(error.message).toContain(message);
		expect(error.message).toMatch(/\[item 1\]$/);
		expect(scope.isDone()).toBe(true);
		expect(nock.pendingMocks()).toEqual([]);
	});
});

describe('Contact list search', () => {
	test('lists contacts by name and e-mail, filtered, with the next page as token', async () => {
		api()
			.get('/v1/contacts')
			.query({ page: 1, pageSize: 100 })
			.reply(200, {
				data: [contact, { id: 'ctc_2', name: 'Fietsenmaker Jansen', email: 'jan@jansen.nl' }],
				meta: { page: 1, pageSize: 100, total: 150, hasMore: true },
			});
		const result = await searchOf('searchContacts', 'contact', 'jansen');
		expect(result).toEqual({
			results: [{ name: 'Fietsenmaker Jansen · jan@jansen.nl', value: 'ctc_2' }],
			paginationToken: '2',
		});
	});
});

describe('API key and organization', () => {
	test('API Key > Get reads GET /me', async () => {
		const me = { apiKeyId: 'key_1', organizationId: 'org_1', scopes: ['*'], prefix: 'svc_Ab3d…' };
		const scope = api().get('/v1/me').reply(200, { data: me });
		const { items } = await runDeclarativeNode(node, { resource: 'me', operation: 'get' });
		expect(items.map((i) => i.json)).toEqual([me]);
		expect(scope.isDone()).toBe(true);
	});

	test('Organization > Get reads all settings', async () => {
		const settings = {
			legalName: 'Bakkerij de Vries B.V.',
			defaultCurrency: 'EUR',
			defaultVatPercentage: 21,
		};
		const scope = api().get('/v1/organization').reply(200, { data: settings });
		const { items } = await runDeclarativeNode(node, {
			resource: 'organization',
			operation: 'get',
		});
		expect(items.map((i) => i.json)).toEqual([settings]);
		expect(scope.isDone()).toBe(true);
	});

	test('Organization > Update sends only the settings that were set', async () => {
		const scope = api()
			.patch('/v1/organization', { defaultVatPercentage: 9, invoiceNumberPrefix: 'F-' })
			.reply(200, { data: { defaultVatPercentage: 9, invoiceNumberPrefix: 'F-' } });
		const { items } = await runDeclarativeNode(node, {
			resource: 'organization',
			operation: 'update',
			updateFields: { defaultVatPercentage: 9, invoiceNumberPrefix: 'F-' },
		});
		expect(items[0].json).toEqual({ defaultVatPercentage: 9, invoiceNumberPrefix: 'F-' });
		expect(scope.isDone()).toBe(true);
	});

	test.each([
		[
			{ defaultCurrency: 'euro' },
			'Default Currency: "euro" must be a 3-letter ISO 4217 code such as EUR [item 0]',
		],
		[
			{ defaultVatPercentage: 121 },
			'Default VAT Percentage: "121" must be a number from 0 to 100 [item 0]',
		],
		[
			{ defaultPaymentTermsDays: 14.5 },
			'Default Payment Terms (Days): "14.5" must be a whole number of 0 or more [item 0]',
		],
	])('Organization > Update refuses %j before sending', async (updateFields, message) => {
		const error = await runDeclarativeNode(node, {
			resource: 'organization',
			operation: 'update',
			updateFields,
		}).catch((e) => e);
		expect(error.message).toBe(message);
	});
});
