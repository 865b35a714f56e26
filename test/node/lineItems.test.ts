import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { checkLineItems, formRows } from '../../nodes/BusinessOps/shared/lineItems';
import { byId, runDeclarativeNode } from '../harness/engine';
import { API, node } from '../harness/actionNode';

const design = { name: 'Website design', quantity: 2, unitPrice: 95, vatPercentage: 21 };
const hosting = { name: 'Hosting', quantity: 12, unitPrice: 9.5, vatPercentage: 21 };

describe('checkLineItems', () => {
	test('numbers given as text with a dot become numbers; names are trimmed', () => {
		expect(
			checkLineItems([
				{ name: ' Design ', quantity: '2.5', unitPrice: ' 95 ', vatPercentage: '9' },
			]),
		).toEqual({
			items: [{ name: 'Design', quantity: 2.5, unitPrice: 95, vatPercentage: 9 }],
		});
	});

	test('vatPercentage may be left out (the API applies the organization default); 0 is a valid rate', () => {
		expect(
			checkLineItems([
				{ name: 'A', quantity: 1, unitPrice: 0 },
				{ name: 'B', quantity: 1, unitPrice: 1, vatPercentage: 0 },
			]),
		).toEqual({
			items: [
				{ name: 'A', quantity: 1, unitPrice: 0 },
				{ name: 'B', quantity: 1, unitPrice: 1, vatPercentage: 0 },
			],
		});
	});

	test('discount and credit lines go through: the spec says only "number", the API decides', () => {
		const lines = [
			{ name: 'Korting', quantity: 1, unitPrice: -25, vatPercentage: 21 },
			{ name: 'Creditering', quantity: -2, unitPrice: '95', vatPercentage: 21 },
			{ name: 'Gratis', quantity: 0, unitPrice: 10 },
		];
		expect(checkLineItems(lines)).toEqual({
			items: [lines[0], { ...lines[1], unitPrice: 95 }, lines[2]],
		});
	});

	test.each([
		[
			[design, { ...design, quantity: '2,5' }],
			'line 2 "quantity" must be a number; got "2,5" (use a dot for decimals)',
		],
		[[{ ...design, quantity: '' }], 'line 1 "quantity" must be a number; got ""'],
		[[{ ...design, quantity: 'abc' }], 'line 1 "quantity" must be a number; got "abc"'],
		[[{ ...design, quantity: null }], 'line 1 "quantity" must be a number; got null'],
		[[{ name: 'A', unitPrice: 1 }], 'line 1 "quantity" is missing'],
		[
			[{ ...design, unitPrice: '1.234,50' }],
			'line 1 "unitPrice" must be a number; got "1.234,50" (use a dot for decimals)',
		],
		[
			[{ ...design, unitPrice: '12345678901234567890' }],
			'line 1 "unitPrice" must be a number; got "12345678901234567890" (too many digits to send exactly)',
		],
		[[{ name: 'A', quantity: 1 }], 'line 1 "unitPrice" is missing'],
		[[{ ...design, vatPercentage: 121 }], 'line 1 "vatPercentage" must be from 0 to 100; got 121'],
		[[{ ...design, vatPercentage: -1 }], 'line 1 "vatPercentage" must be from 0 to 100; got -1'],
		[[{ ...design, vatPercentage: '21%' }], 'line 1 "vatPercentage" must be a number; got "21%"'],
		[
			[{ ...design, name: '  ' }],
			'line 1 "name" is empty; give the name of the product or service',
		],
		[[{ ...design, name: undefined }], 'line 1 "name" is missing'],
		[[{ ...design, name: { en: 'x' } }], 'line 1 "name" must be text; got an object'],
		[
			[design, 'Hosting'],
			'line 2 must be an object with name, quantity, unitPrice, vatPercentage; got "Hosting"',
		],
		[[null], 'line 1 must be an object with name, quantity, unitPrice, vatPercentage; got null'],
		[
			[{ name: 'A', quantity: 1, unit_price: 5 }],
			'line 1 has unknown key "unit_price"; allowed keys: name, quantity, unitPrice, vatPercentage (id, total, subtotal, vatTotal, vatAmount, lineTotal, createdAt, updatedAt of a fetched line are dropped)',
		],
		[
			[{ name: 'A', quantity: 1, unitPrice: 5, vat: 21, sku: 'X' }],
			'line 1 has unknown keys "vat", "sku"; allowed keys: name, quantity, unitPrice, vatPercentage (id, total, subtotal, vatTotal, vatAmount, lineTotal, createdAt, updatedAt of a fetched line are dropped)',
		],
		[[], 'no items were given; add at least one item'],
		[
			{ items: [design] },
			expect.stringMatching(
				/^must be a list \(JSON array\) of items such as \[.*\]; got an object$/,
			),
		],
		[
			'Design',
			expect.stringMatching(/^must be a list \(JSON array\) of items such as .*; got "Design"$/),
		],
	])('%j is refused: %s', (value, problem) => {
		expect(checkLineItems(value)).toEqual({ problem });
	});

	test('formRows fills a stored row with the defaults of the form', () => {
		expect(formRows({ item: [{ name: 'A' }, { name: 'B', vatPercentage: 9 }] })).toEqual([
			{ name: 'A', quantity: 1, unitPrice: 0, vatPercentage: 21 },
			{ name: 'B', quantity: 1, unitPrice: 0, vatPercentage: 9 },
		]);
		expect(formRows({})).toEqual([]);
		expect(formRows(undefined)).toEqual([]);
	});
});

describe.each([
	['quote', '/v1/quotes', 'quoteId', 'quo_1'],
	['invoice', '/v1/invoices', 'invoiceId', 'inv_1'],
])('line items: %s', (resource, path, idParam, id) => {
	const create = (extra: INodeParameters): INodeParameters => ({
		resource,
		operation: 'create',
		contactId: byId('ctc_1'),
		...extra,
	});
	const update = (updateFields: INodeParameters): INodeParameters => ({
		resource,
		operation: 'update',
		[idParam]: byId(id),
		updateFields,
	});
	const record = {
		id,
		status: 'draft',
		contactId: 'ctc_1',
		items: [design, hosting],
		total: 344.85,
	};

	/** Runs the node expecting a validation error; asserts nothing was sent. */
	async function refused(params: INodeParameters) {
		nock.cleanAll();
		const post = nock(API).post(path).reply(201, { data: record });
		const patch = nock(API).patch(`${path}/${id}`).reply(200, { data: record });
		const error = await runDeclarativeNode(node, params).catch((e) => e);
		expect(post.isDone()).toBe(false);
		expect(patch.isDone()).toBe(false);
		expect(nock.pendingMocks()).toHaveLength(2);
		return error.message as string;
	}

	describe('Create', () => {
		test('from the form: every row, in order, with its VAT %', async () => {
			const scope = nock(API)
				.post(path, { contactId: 'ctc_1', items: [design, hosting] })
				.reply(201, { data: record });
			const { items } = await runDeclarativeNode(
				node,
				create({ items: { item: [design, hosting] } }),
			);
			expect(items.map((i) => i.json)).toEqual([record]);
			expect(scope.isDone()).toBe(true);
		});

		test('from the form: a row keeps the default VAT % of 21', async () => {
			const scope = nock(API)
				.post(path, {
					contactId: 'ctc_1',
					items: [{ name: 'Consult', quantity: 1.5, unitPrice: 80, vatPercentage: 21 }],
				})
				.reply(201, { data: record });
			await runDeclarativeNode(
				node,
				create({ items: { item: [{ name: 'Consult', quantity: 1.5, unitPrice: 80 }] } }),
			);
			expect(scope.isDone()).toBe(true);
		});

		test('from the form: VAT % left empty leaves it out, so the organization default applies', async () => {
			const scope = nock(API)
				.post(path, {
					contactId: 'ctc_1',
					items: [{ name: 'Consult', quantity: 1, unitPrice: 80 }],
				})
				.reply(201, { data: record });
			await runDeclarativeNode(
				node,
				create({
					items: { item: [{ name: 'Consult', quantity: 1, unitPrice: 80, vatPercentage: null }] },
				}),
			);
			expect(scope.isDone()).toBe(true);
		});

		test.each([
			[
				'from JSON: lines copied from a fetched record keep working; the read-only keys are dropped',
				[
					{
						...design,
						id: 'li_1',
						total: 228.9,
						lineTotal: 190,
						createdAt: '2026-01-01T00:00:00Z',
					},
					{ ...hosting, id: 'li_2', total: 115.95 },
				],
			],
			['from JSON: an array given by an expression', [design, hosting]],
		])('%s', async (_title, given) => {
			const scope = nock(API)
				.post(path, { contactId: 'ctc_1', items: [design, hosting] })
				.reply(201, { data: record });
			await runDeclarativeNode(
				node,
				create({ itemsInput: 'json', itemsJson: '={{ $json.items }}' }),
				{
					items: [{ json: { items: given } }],
				},
			);
			expect(scope.isDone()).toBe(true);
		});

		test('from JSON: JSON text, with numbers as text turned into numbers', async () => {
			const scope = nock(API)
				.post(path, {
					contactId: 'ctc_1',
					items: [{ name: 'Hosting', quantity: 12, unitPrice: 9.5 }],
				})
				.reply(201, { data: record });
			await runDeclarativeNode(
				node,
				create({
					itemsInput: 'json',
					itemsJson: '[{"name": "Hosting", "quantity": "12", "unitPrice": "9.50"}]',
				}),
			);
			expect(scope.isDone()).toBe(true);
		});

		test('the form: "2,5" from an expression is refused, naming the item and the field', async () => {
			const message = await refused(
				create({ items: { item: [design, { ...hosting, quantity: '={{ "2,5" }}' }] } }),
			);
			expect(message).toBe(
				'Items: line 2 "quantity" must be a number; got "2,5" (use a dot for decimals) [item 0]',
			);
		});

		test('the form: a row without a name is refused', async () => {
			const message = await refused(create({ items: { item: [{ ...design, name: '' }] } }));
			expect(message).toBe(
				'Items: line 1 "name" is empty; give the name of the product or service [item 0]',
			);
		});

		test('the form: no rows is refused', async () => {
			const message = await refused(create({ items: {} }));
			expect(message).toBe('Items: no items were given; add at least one item [item 0]');
		});

		test.each([
			[
				{ ...design, quantity: '2,5' },
				'line 1 "quantity" must be a number; got "2,5" (use a dot for decimals)',
			],
			[{ ...design, vatPercentage: 101 }, 'line 1 "vatPercentage" must be from 0 to 100; got 101'],
			[{ ...design, name: '' }, 'line 1 "name" is empty; give the name of the product or service'],
			[{ ...design, quantity: null }, 'line 1 "quantity" must be a number; got null'],
			[
				{ name: 'A', quantity: 1, unit_price: 5 },
				'line 1 has unknown key "unit_price"; allowed keys: name, quantity, unitPrice, vatPercentage (id, total, subtotal, vatTotal, vatAmount, lineTotal, createdAt, updatedAt of a fetched line are dropped)',
			],
		])('JSON item %j is refused: %s', async (bad, problem) => {
			const message = await refused(
				create({ itemsInput: 'json', itemsJson: JSON.stringify([bad]) }),
			);
			expect(message).toBe(`Items (JSON): ${problem} [item 0]`);
		});

		test('a credit line (negative quantity) and a discount line (negative price) are sent as given', async () => {
			const lines = [
				design,
				{ name: 'Korting', quantity: 1, unitPrice: -20, vatPercentage: 21 },
				{ name: 'Retour', quantity: -1, unitPrice: 95 },
			];
			const scope = nock(API)
				.post(path, { contactId: 'ctc_1', items: lines })
				.reply(201, { data: record });
			await runDeclarativeNode(
				node,
				create({ itemsInput: 'json', itemsJson: JSON.stringify(lines) }),
			);
			expect(scope.isDone()).toBe(true);
		});

		test('the form sends a quantity of 0 and a negative unit price as given', async () => {
			const rows = [{ name: 'Korting', quantity: 0, unitPrice: -5, vatPercentage: 9 }];
			const scope = nock(API)
				.post(path, { contactId: 'ctc_1', items: rows })
				.reply(201, { data: record });
			await runDeclarativeNode(node, create({ items: { item: rows } }));
			expect(scope.isDone()).toBe(true);
		});

		test('JSON: an empty array is refused', async () => {
			const message = await refused(create({ itemsInput: 'json', itemsJson: '={{ [] }}' }));
			expect(message).toBe('Items (JSON): no items were given; add at least one item [item 0]');
		});

		test('JSON: an empty field or an expression that gives nothing is refused', async () => {
			expect(await refused(create({ itemsInput: 'json', itemsJson: '' }))).toMatch(
				/^Items \(JSON\): no items were given; add at least one item, e\.g\. \[\{"name": .*\}\] \[item 0\]$/,
			);
			expect(
				await refused(create({ itemsInput: 'json', itemsJson: '={{ $json.missing }}' })),
			).toMatch(/^Items \(JSON\): no items were given/);
		});

		test('JSON: text that is not JSON is refused', async () => {
			const message = await refused(create({ itemsInput: 'json', itemsJson: "[{name: 'x'}]" }));
			expect(message).toMatch(/^Items \(JSON\): the text is not valid JSON \(.+\) \[item 0\]$/);
		});

		test('JSON: an object instead of an array is refused', async () => {
			const message = await refused(
				create({ itemsInput: 'json', itemsJson: JSON.stringify(design) }),
			);
			expect(message).toMatch(
				/^Items \(JSON\): must be a list \(JSON array\) of items such as .*; got an object \[item 0\]$/,
			);
		});
	});

	describe('Update', () => {
		test('items are not sent when neither Items nor Items (JSON) was added', async () => {
			const scope = nock(API)
				.patch(`${path}/${id}`, { contactId: 'ctc_2' })
				.reply(200, { data: record });
			await runDeclarativeNode(node, update({ contactId: byId('ctc_2') }));
			expect(scope.isDone()).toBe(true);
		});

		test.each([{}, { item: [] }])(
			'the Items form added with no rows (%j) keeps the current lines',
			async (items) => {
				const scope = nock(API)
					.patch(`${path}/${id}`, { contactId: 'ctc_2' })
					.reply(200, { data: record });
				await runDeclarativeNode(node, update({ contactId: byId('ctc_2'), items }));
				expect(scope.isDone()).toBe(true);
			},
		);

		test('Items (JSON) replaces the items', async () => {
			const scope = nock(API)
				.patch(`${path}/${id}`, { items: [hosting] })
				.reply(200, { data: record });
			await runDeclarativeNode(node, update({ itemsJson: JSON.stringify([hosting]) }));
			expect(scope.isDone()).toBe(true);
		});

		test('an empty array is refused: the API needs at least one item', async () => {
			const message = await refused(update({ itemsJson: '[]' }));
			expect(message).toBe('Items (JSON): no items were given; add at least one item [item 0]');
		});

		test('a refused list under Update Fields says how to keep the current items; text that is not JSON does not', async () => {
			const described = async (itemsJson: string) => {
				nock.cleanAll();
				const error = await runDeclarativeNode(node, update({ itemsJson })).catch((e) => e);
				return error.description as string;
			};
			expect(await described('[]')).toMatch(/^To keep the current items, remove the field/);
			expect(await described('[{')).toMatch(/^Fix "Items \(JSON\)"/);
		});

		test('Items and Items (JSON) together are refused', async () => {
			const message = await refused(
				update({ items: { item: [design] }, itemsJson: JSON.stringify([hosting]) }),
			);
			expect(message).toBe('Items: use either "Items" or "Items (JSON)", not both [item 0]');
		});

		test('a bad item in the form is refused, naming the item', async () => {
			const message = await refused(
				update({ items: { item: [design, { ...hosting, vatPercentage: '={{ "abc" }}' }] } }),
			);
			expect(message).toBe('Items: line 2 "vatPercentage" must be a number; got "abc" [item 0]');
		});
	});
});
