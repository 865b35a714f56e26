// The readings of what the spec leaves open: permissive by default, strict mode, the webhook lists
// without meta, the list order, text kept tidied and lists that show less as switches
// (controls `setReadings` / POST /__sandbox/readings).
import { startTestSandbox, type TestSandbox } from './helpers';

let t: TestSandbox;
beforeAll(async () => {
	t = await startTestSandbox();
});
afterAll(() => t.sandbox.stop());
beforeEach(() => t.control.reset());

const line = { name: 'Desembrood', quantity: 2, unitPrice: 5, vatPercentage: 9 };

async function firstContactId(): Promise<string> {
	return (await t.admin('GET', '/contacts?pageSize=1')).body.data[0].id;
}

async function agentId(): Promise<string> {
	return (await t.admin('GET', '/agents?status=active&pageSize=1')).body.data[0].id;
}

describe('permissive by default', () => {
	test('discount and credit lines are taken, and counted into the totals', async () => {
		const items = [
			line,
			{ name: 'Korting', quantity: 1, unitPrice: -2 },
			{ name: 'Retour', quantity: -1, unitPrice: 5, vatPercentage: 9 },
		];
		for (const path of ['/quotes', '/invoices']) {
			const res = await t.admin('POST', path, { contactId: await firstContactId(), items });
			expect(res.status).toBe(201);
			expect(res.body.data.subtotal).toBe(3);
		}
	});

	test('an approvals count of 0 is taken, and an override alone may bring the count', async () => {
		const id = await agentId();
		const zero = await t.admin('PATCH', `/agents/${id}/autonomy`, {
			defaultMode: 'auto_after_approvals',
			autoAfterApprovalsCount: 0,
		});
		expect(zero.body.data.autoAfterApprovalsCount).toBe(0);
		const withOverride = await t.admin('PATCH', `/agents/${id}/autonomy`, {
			defaultMode: 'manual',
			actionOverrides: { send_invoice: { mode: 'auto_after_approvals' } },
			autoAfterApprovalsCount: 4,
		});
		expect(withOverride.body.data).toMatchObject({
			defaultMode: 'manual',
			autoAfterApprovalsCount: 4,
		});
		const cleared = await t.admin('PATCH', `/agents/${id}/autonomy`, { actionOverrides: {} });
		expect(cleared.body.data.actionOverrides).toEqual({});
	});

	test('a contact type outside the known ones is kept as given', async () => {
		const res = await t.admin('POST', '/contacts', {
			name: 'Stichting Vrienden',
			type: 'foundation',
		});
		expect(res.status).toBe(201);
		expect(res.body.data.type).toBe('foundation');
	});

	test('webhook lists are paginated like every list', async () => {
		const res = await t.admin('GET', '/webhooks/events?pageSize=2');
		expect(res.body.data).toHaveLength(2);
		expect(res.body.meta).toMatchObject({ page: 1, pageSize: 2, hasMore: true });
	});
});

describe('strict mode', () => {
	beforeEach(() => t.control.setReadings({ strict: true }));

	test.each([
		[{ ...line, quantity: 0 }, 'items[0].quantity must be a number greater than 0'],
		[{ ...line, unitPrice: -1 }, 'items[0].unitPrice must be a number of at least 0'],
	])('line %j is refused on quotes and invoices', async (item, message) => {
		for (const path of ['/quotes', '/invoices']) {
			const res = await t.admin('POST', path, { contactId: await firstContactId(), items: [item] });
			expect(res.status).toBe(400);
			expect(res.body.error.message).toBe(message);
		}
	});

	test('an approvals count of 0, an unknown contact type and a dueDate with a time are refused', async () => {
		const count = await t.admin('PATCH', `/agents/${await agentId()}/autonomy`, {
			autoAfterApprovalsCount: 0,
		});
		expect(count.body.error).toMatchObject({
			code: 'invalid_request',
			field: 'autoAfterApprovalsCount',
		});
		const type = await t.admin('POST', '/contacts', { name: 'X', type: 'foundation' });
		expect(type.body.error).toMatchObject({ code: 'invalid_request', field: 'type' });
		const due = await t.admin('POST', '/invoices', {
			contactId: await firstContactId(),
			items: [line],
			dueDate: '2026-12-31T10:00:00Z',
		});
		expect(due.body.error).toMatchObject({ code: 'invalid_request', field: 'dueDate' });
	});

	test('no quote moves to canceled (the spec shows none)', async () => {
		const quote = (
			await t.admin('POST', '/quotes', { contactId: await firstContactId(), items: [line] })
		).body.data;
		const res = await t.admin('PATCH', `/quotes/${quote.id}`, { status: 'canceled' });
		expect(res.status).toBe(422);
		expect(res.body.error.message).toBe(
			'Cannot change quote status from "draft" to "canceled"; allowed from "draft": "sent"',
		);
	});

	test('reset brings back the permissive readings', () => {
		expect(t.control.readings()).toEqual({
			strict: true,
			webhookListsWithoutMeta: false,
			listOrder: 'oldest',
			duplicateContactEmails: false,
			storesTidiedText: false,
			listsShowLess: false,
		});
		t.control.reset();
		expect(t.control.readings()).toEqual({
			strict: false,
			webhookListsWithoutMeta: false,
			listOrder: 'oldest',
			duplicateContactEmails: false,
			storesTidiedText: false,
			listsShowLess: false,
		});
	});
});

describe('webhook lists without meta', () => {
	test('GET /webhooks and GET /webhooks/events answer every record as { data }, whatever the page size', async () => {
		for (const name of ['A', 'B', 'C']) {
			await t.admin('POST', '/webhooks', {
				name,
				url: 'https://example.com/hook',
				events: ['invoice.paid'],
			});
		}
		t.control.setReadings({ webhookListsWithoutMeta: true });
		const hooks = await t.admin('GET', '/webhooks?page=1&pageSize=1');
		expect(Object.keys(hooks.body)).toEqual(['data']);
		expect(hooks.body.data.map((w: { name: string }) => w.name)).toEqual(['A', 'B', 'C']);
		const events = await t.admin('GET', '/webhooks/events?pageSize=1');
		expect(Object.keys(events.body)).toEqual(['data']);
		expect(events.body.data.length).toBeGreaterThan(5);
	});

	test('the switch is an HTTP control too, and refuses unknown readings', async () => {
		const post = (body: unknown) =>
			fetch(`${t.sandbox.controlUrl}/readings`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			});
		expect(await (await post({ webhookListsWithoutMeta: true })).json()).toEqual({
			data: {
				strict: false,
				webhookListsWithoutMeta: true,
				listOrder: 'oldest',
				duplicateContactEmails: false,
				storesTidiedText: false,
				listsShowLess: false,
			},
		});
		const refused = await post({ lenient: true });
		expect(refused.status).toBe(400);
	});
});

describe('list order', () => {
	const ids = async (path: string) =>
		(await t.admin('GET', `${path}?pageSize=100`)).body.data.map(
			(r: { id: string }) => r.id,
		) as string[];

	test('oldest first by default, newest first, or by id; the same for contacts, quotes, invoices and requests', async () => {
		const created = (
			await t.admin('POST', '/quotes', { contactId: await firstContactId(), items: [line] })
		).body.data.id as string;
		for (const path of ['/contacts', '/quotes', '/invoices', '/requests']) {
			t.control.setReadings({ listOrder: 'oldest' });
			const oldest = await ids(path);
			expect(oldest.length).toBeGreaterThan(2);
			t.control.setReadings({ listOrder: 'newest' });
			expect(await ids(path)).toEqual([...oldest].reverse());
			t.control.setReadings({ listOrder: 'byId' });
			const byId = await ids(path);
			expect(byId).toEqual([...oldest].sort());
			expect(byId).not.toEqual(oldest);
			expect(byId).not.toEqual([...oldest].reverse());
		}
		t.control.setReadings({ listOrder: 'newest' });
		expect((await ids('/quotes'))[0]).toBe(created);
	});

	test('pages are cut from the order at each request, and unknown orders are refused', async () => {
		t.control.setReadings({ listOrder: 'newest' });
		const before = (await t.admin('GET', '/quotes?page=2&pageSize=2')).body.data[0].id;
		await t.admin('POST', '/quotes', { contactId: await firstContactId(), items: [line] });
		expect((await t.admin('GET', '/quotes?page=2&pageSize=2')).body.data[1].id).toBe(before);
		expect(() => t.control.setReadings({ listOrder: 'random' as never })).toThrow(/listOrder/);
	});
});

describe('text kept in a form of its own, lists that show less', () => {
	test('storesTidiedText: a contact as the API keeps it, and a request externalRef trimmed; off: as sent', async () => {
		const sent = {
			name: '  Ann   de Vries ',
			email: 'Ann@Example.TEST',
			phone: '+31 (20) 123-45.67',
		};
		const asSent = await t.admin('POST', '/contacts', sent);
		expect(asSent.body.data).toMatchObject(sent);
		t.control.setReadings({ storesTidiedText: true });
		const created = await t.admin('POST', '/contacts', { ...sent, email: 'Ann2@Example.TEST' });
		expect(created.body.data).toMatchObject({
			name: 'Ann de Vries',
			email: 'ann2@example.test',
			phone: '+31201234567',
		});
		const updated = await t.admin('PATCH', `/contacts/${created.body.data.id}`, {
			phone: '06 - 1234 5678',
		});
		expect(updated.body.data.phone).toBe('0612345678');
		const request = await t.admin('POST', '/requests', {
			fromEmail: 'ann@example.test',
			subject: 'Hello',
			bodyText: 'A question',
			externalRef: ' ticket-1 ',
		});
		expect(request.body.data.externalRef).toBe('ticket-1');
	});

	test("listsShowLess: listed records leave out their null fields and a contact's phone and kvkNumber; the record read alone shows them", async () => {
		const { id } = (await t.admin('POST', '/contacts', { name: 'Ann', phone: '+31 20 1234567' }))
			.body.data;
		t.control.setReadings({ listOrder: 'newest', listsShowLess: true });
		const listed = (await t.admin('GET', '/contacts?pageSize=1')).body.data[0];
		expect(listed).toMatchObject({ id, name: 'Ann' });
		expect(Object.keys(listed)).not.toContain('phone');
		expect(Object.keys(listed)).not.toContain('email');
		expect((await t.admin('GET', `/contacts/${id}`)).body.data).toMatchObject({
			phone: '+31 20 1234567',
			email: null,
		});
		t.control.setReadings({ listsShowLess: false });
		expect((await t.admin('GET', '/contacts?pageSize=1')).body.data[0]).toMatchObject({
			phone: '+31 20 1234567',
			email: null,
		});
	});
});
