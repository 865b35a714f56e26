import { isValidIban } from '../src/resources/organization';
import { startTestSandbox, type TestSandbox } from './helpers';

let t: TestSandbox;
beforeAll(async () => {
	t = await startTestSandbox();
});
afterAll(() => t.sandbox.stop());
beforeEach(() => t.control.reset());

describe('organization', () => {
	test('GET returns every setting of a real-looking Dutch business', async () => {
		const res = await t.admin('GET', '/organization');
		expect(res.status).toBe(200);
		const org = res.body.data;
		expect(org).toMatchObject({
			id: t.sandbox.organizationIds.primary,
			legalName: 'Bakkerij de Vries B.V.',
			defaultCurrency: 'EUR',
			defaultVatPercentage: 21,
			defaultPaymentTermsDays: 30,
			invoiceNumberPrefix: 'INV-',
			quoteNumberPrefix: 'OFF-',
		});
		expect(org.kvkNumber).toMatch(/^\d{8}$/);
		expect(org.vatNumber).toMatch(/^NL\d{9}B01$/);
		expect(org.iban).toMatch(/^NL\d{2}[A-Z]{4}\d{10}$/);
		expect(isValidIban(org.iban)).toBe(true);
		expect(typeof org.invoiceFooter).toBe('string');
	});

	test('PATCH accepts any subset of the updatable fields', async () => {
		const change = {
			legalName: 'Bakkerij de Vries & Zn. B.V.',
			kvkNumber: '12345678',
			vatNumber: 'NL123456789B02',
			iban: 'NL91ABNA0417164300',
			defaultCurrency: 'USD',
			defaultVatPercentage: 9,
			defaultPaymentTermsDays: 14,
			invoiceFooter: 'Dank voor uw bestelling',
			invoiceNumberPrefix: 'F-',
			quoteNumberPrefix: 'O-',
		};
		const res = await t.admin('PATCH', '/organization', change);
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject(change);
		expect((await t.admin('GET', '/organization')).body.data).toMatchObject(change);
		const partial = await t.admin('PATCH', '/organization', { defaultVatPercentage: 0 });
		expect(partial.body.data).toMatchObject({ ...change, defaultVatPercentage: 0 });
	});

	test('a new default currency and VAT apply to new quotes', async () => {
		await t.admin('PATCH', '/organization', { defaultCurrency: 'USD', defaultVatPercentage: 10 });
		const contactId = (await t.admin('GET', '/contacts')).body.data[0].id;
		const quote = (
			await t.admin('POST', '/quotes', {
				contactId,
				items: [{ name: 'x', quantity: 1, unitPrice: 100 }],
			})
		).body.data;
		expect(quote).toMatchObject({ currency: 'USD', total: 110 });
	});

	test.each([
		[
			{ defaultCurrency: 'eur' },
			'defaultCurrency',
			'"defaultCurrency" must be an ISO 4217 currency code of 3 capital letters, e.g. "EUR"',
		],
		[
			{ defaultCurrency: 'EURO' },
			'defaultCurrency',
			'"defaultCurrency" must be an ISO 4217 currency code of 3 capital letters, e.g. "EUR"',
		],
		[
			{ defaultVatPercentage: 101 },
			'defaultVatPercentage',
			'"defaultVatPercentage" must be a number from 0 to 100',
		],
		[
			{ defaultVatPercentage: -1 },
			'defaultVatPercentage',
			'"defaultVatPercentage" must be a number from 0 to 100',
		],
		[
			{ defaultVatPercentage: '21' },
			'defaultVatPercentage',
			'"defaultVatPercentage" must be a number from 0 to 100',
		],
		[
			{ defaultPaymentTermsDays: 1.5 },
			'defaultPaymentTermsDays',
			'"defaultPaymentTermsDays" must be an integer from 0 to 3650',
		],
		[
			{ defaultPaymentTermsDays: -1 },
			'defaultPaymentTermsDays',
			'"defaultPaymentTermsDays" must be an integer from 0 to 3650',
		],
		[{ kvkNumber: 'KVK123' }, 'kvkNumber', '"kvkNumber" must be exactly 8 digits, e.g. "12345678"'],
		[
			{ iban: 'NL00ABNA0417164300' },
			'iban',
			'"iban" must be a valid IBAN in capitals without spaces, e.g. "NL91ABNA0417164300"; the check digits of "NL00ABNA0417164300" are wrong',
		],
		[
			{ iban: 'NL91 ABNA 0417 1643 00' },
			'iban',
			'"iban" must be a valid IBAN in capitals without spaces, e.g. "NL91ABNA0417164300"',
		],
		[
			{ legalName: '' },
			'legalName',
			'"legalName" must be a non-empty string of at most 200 characters',
		],
		[
			{ id: 'org_x' },
			'id',
			'"id" is not a known field; known fields: legalName, kvkNumber, vatNumber, iban, defaultCurrency, defaultVatPercentage, defaultPaymentTermsDays, invoiceFooter, invoiceNumberPrefix, quoteNumberPrefix',
		],
	])('invalid PATCH %j names %s', async (body, fieldName, message) => {
		const res = await t.admin('PATCH', '/organization', body);
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({ code: 'invalid_request', message, field: fieldName });
	});

	test("a PATCH does not touch the other organization's settings", async () => {
		await t.admin('PATCH', '/organization', { legalName: 'Gewijzigd B.V.' });
		expect((await t.as(t.sandbox.keys.otherOrg)('GET', '/organization')).body.data.legalName).toBe(
			'Schildersbedrijf Jansen V.O.F.',
		);
	});
});
