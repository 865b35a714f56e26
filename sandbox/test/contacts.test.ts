import { startTestSandbox, type TestSandbox } from './helpers';

let t: TestSandbox;
beforeAll(async () => {
	t = await startTestSandbox();
});
afterAll(() => t.sandbox.stop());
beforeEach(() => t.control.reset());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('contacts', () => {
	test('seed: 20 Dutch contacts with e-mails, +31 phones, KvK numbers and a few BE/DE', async () => {
		const { body } = await t.admin('GET', '/contacts?pageSize=100');
		expect(body.meta.total).toBe(20);
		const countries = body.data.map((c: { billingCountry: string }) => c.billingCountry);
		expect(countries.filter((c: string) => c === 'NL').length).toBeGreaterThan(14);
		expect(countries).toEqual(expect.arrayContaining(['BE', 'DE']));
		for (const contact of body.data) {
			expect(Object.keys(contact)).toEqual([
				'id',
				'name',
				'email',
				'phone',
				'kvkNumber',
				'type',
				'billingCountry',
				'createdAt',
				'updatedAt',
			]);
			expect(contact.id).toMatch(/^ctc_/);
			expect(contact.createdAt).toMatch(ISO);
			if (contact.kvkNumber !== null) expect(contact.kvkNumber).toMatch(/^\d{8}$/);
		}
		expect(
			body.data.filter((c: { phone: string | null }) => c.phone?.startsWith('+31')).length,
		).toBeGreaterThan(10);
	});

	test('seed ids are the same after a reset', async () => {
		const before = (await t.admin('GET', '/contacts')).body.data.map((c: { id: string }) => c.id);
		t.control.reset();
		expect((await t.admin('GET', '/contacts')).body.data.map((c: { id: string }) => c.id)).toEqual(
			before,
		);
	});

	test('create with only a name: defaults type business and billingCountry NL', async () => {
		const res = await t.admin('POST', '/contacts', { name: 'Bakkerij Klein' });
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({
			name: 'Bakkerij Klein',
			email: null,
			phone: null,
			kvkNumber: null,
			type: 'business',
			billingCountry: 'NL',
		});
		expect(res.body.data.createdAt).toBe(res.body.data.updatedAt);
		expect((await t.admin('GET', `/contacts/${res.body.data.id}`)).body.data).toEqual(
			res.body.data,
		);
		expect((await t.admin('GET', '/contacts')).body.meta.total).toBe(21);
	});

	test('create with every field', async () => {
		const body = {
			name: 'Anna Jansen',
			email: 'anna@jansen.nl',
			phone: '+31 6 1234 0000',
			kvkNumber: '87654321',
			type: 'individual',
			billingCountry: 'BE',
		};
		const res = await t.admin('POST', '/contacts', body);
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject(body);
	});

	test.each([
		[{}, 'name', '"name" is required'],
		[{ name: '' }, 'name', '"name" must be a non-empty string of at most 200 characters'],
		[{ name: '   ' }, 'name', '"name" must be a non-empty string of at most 200 characters'],
		[{ name: 42 }, 'name', '"name" must be a non-empty string of at most 200 characters'],
		[{ name: 'X', email: 'not-an-email' }, 'email', '"email" must be a valid e-mail address'],
		[{ name: 'X', email: 'a@b' }, 'email', '"email" must be a valid e-mail address'],
		[{ name: 'X', type: '' }, 'type', '"type" must be a non-empty string of at most 50 characters'],
		[
			{ name: 'X', billingCountry: 'NLD' },
			'billingCountry',
			'"billingCountry" must be a two-letter ISO 3166-1 country code in capitals, e.g. "NL"; got "NLD"',
		],
		[
			{ name: 'X', billingCountry: 'nl' },
			'billingCountry',
			'"billingCountry" must be a two-letter ISO 3166-1 country code in capitals, e.g. "NL"; got "nl"',
		],
		[
			{ name: 'X', billingCountry: 'XX' },
			'billingCountry',
			'"billingCountry" must be a two-letter ISO 3166-1 country code in capitals, e.g. "NL"; got "XX"',
		],
		[
			{ name: 'X', kvkNumber: '1234567' },
			'kvkNumber',
			'"kvkNumber" must be exactly 8 digits, e.g. "12345678"',
		],
		[
			{ name: 'X', kvkNumber: 12345678 },
			'kvkNumber',
			'"kvkNumber" must be exactly 8 digits, e.g. "12345678"',
		],
		[
			{ name: 'X', phone: 'call me' },
			'phone',
			'"phone" must be a phone number of 6 to 30 digits, spaces and + ( ) - . /, e.g. "+31 30 123 4567"',
		],
	])('invalid create %j names %s', async (body, fieldName, message) => {
		const res = await t.admin('POST', '/contacts', body);
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({ code: 'invalid_request', message, field: fieldName });
	});

	test('409 duplicate_resource for an e-mail that exists (case-insensitive)', async () => {
		const res = await t.admin('POST', '/contacts', {
			name: 'Dubbel',
			email: 'INKOOP@HotelDeWereld.nl',
		});
		expect(res.status).toBe(409);
		expect(res.body.error.code).toBe('duplicate_resource');
		expect(res.body.error.message).toMatch(
			/^A contact with email "INKOOP@HotelDeWereld.nl" already exists \(ctc_/,
		);
		expect(res.body.error.field).toBe('email');
	});

	test('reading duplicateContactEmails: a second contact with an e-mail in use is taken', async () => {
		t.control.setReadings({ duplicateContactEmails: true });
		const res = await t.admin('POST', '/contacts', {
			name: 'Dubbel',
			email: 'INKOOP@HotelDeWereld.nl',
		});
		expect(res.status).toBe(201);
		const all = (await t.admin('GET', '/contacts?pageSize=100')).body.data as Array<{
			email: string | null;
		}>;
		expect(all.filter((c) => c.email?.toLowerCase() === 'inkoop@hoteldewereld.nl')).toHaveLength(2);
	});

	test('created meanwhile: the next create with the e-mail meets a contact made just before it (409), once', async () => {
		t.control.createdMeanwhile('race@example.com');
		const first = await t.admin('POST', '/contacts', { name: 'Mine', email: 'Race@Example.com' });
		expect(first.status).toBe(409);
		const all = (await t.admin('GET', '/contacts?pageSize=100')).body.data as Array<{
			name: string;
			email: string | null;
		}>;
		expect(all.filter((c) => c.email === 'Race@Example.com').map((c) => c.name)).toEqual([
			'Created meanwhile',
		]);
		const other = await t.admin('POST', '/contacts', { name: 'Next', email: 'other@example.com' });
		expect(other.status).toBe(201);
	});

	test('409 for a KvK number that exists; other organizations may reuse both', async () => {
		const res = await t.admin('POST', '/contacts', { name: 'Dubbel', kvkNumber: '30174512' });
		expect(res.status).toBe(409);
		expect(res.body.error.field).toBe('kvkNumber');
		const other = await t.as(t.sandbox.keys.otherOrg)('POST', '/contacts', {
			name: 'Elders',
			email: 'inkoop@hoteldewereld.nl',
			kvkNumber: '30174512',
		});
		expect(other.status).toBe(201);
	});

	test('PATCH changes only the fields sent; null clears optional fields', async () => {
		const created = (
			await t.admin('POST', '/contacts', {
				name: 'Piet',
				email: 'piet@piet.nl',
				phone: '+31 6 9999 0000',
			})
		).body.data;
		await new Promise((r) => setTimeout(r, 5));
		const res = await t.admin('PATCH', `/contacts/${created.id}`, {
			phone: null,
			type: 'individual',
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			name: 'Piet',
			email: 'piet@piet.nl',
			phone: null,
			type: 'individual',
		});
		expect(res.body.data.updatedAt > created.updatedAt).toBe(true);
		expect(res.body.data.createdAt).toBe(created.createdAt);
	});

	test('PATCH to an e-mail of another contact is 409; to its own e-mail is fine', async () => {
		const created = (await t.admin('POST', '/contacts', { name: 'Piet', email: 'piet@piet.nl' }))
			.body.data;
		expect(
			(await t.admin('PATCH', `/contacts/${created.id}`, { email: 'info@cafethoekje.nl' })).status,
		).toBe(409);
		expect(
			(await t.admin('PATCH', `/contacts/${created.id}`, { email: 'PIET@piet.nl' })).status,
		).toBe(200);
		// The old e-mail is free again after a change.
		await t.admin('PATCH', `/contacts/${created.id}`, { email: 'nieuw@piet.nl' });
		expect(
			(await t.admin('POST', '/contacts', { name: 'Ander', email: 'piet@piet.nl' })).status,
		).toBe(201);
	});

	test('PATCH validation names the field; unknown ids are 404', async () => {
		const id = (await t.admin('GET', '/contacts')).body.data[0].id;
		const res = await t.admin('PATCH', `/contacts/${id}`, { email: 'nope' });
		expect(res.body.error).toEqual({
			code: 'invalid_request',
			message: '"email" must be a valid e-mail address',
			field: 'email',
		});
		expect((await t.admin('PATCH', `/contacts/${id}`, { id: 'ctc_x' })).body.error.field).toBe(
			'id',
		);
		expect((await t.admin('PATCH', '/contacts/ctc_missing', { name: 'X' })).status).toBe(404);
	});

	test('DELETE is permanent and answers { data: { id, deleted: true } }', async () => {
		const created = (await t.admin('POST', '/contacts', { name: 'Weg', email: 'weg@weg.nl' })).body
			.data;
		const res = await t.admin('DELETE', `/contacts/${created.id}`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ data: { id: created.id, deleted: true } });
		expect((await t.admin('GET', `/contacts/${created.id}`)).status).toBe(404);
		expect((await t.admin('DELETE', `/contacts/${created.id}`)).status).toBe(404);
		expect((await t.admin('POST', '/contacts', { name: 'Weer', email: 'weg@weg.nl' })).status).toBe(
			201,
		);
	});
});
