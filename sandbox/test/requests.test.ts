import { agentTypeFor } from '../src/resources/requests';
import { startTestSandbox, type TestSandbox } from './helpers';

let t: TestSandbox;
beforeAll(async () => {
	t = await startTestSandbox();
});
afterAll(() => t.sandbox.stop());
beforeEach(() => t.control.reset());

const quoteRequest = {
	fromEmail: 'nieuw@klant.nl',
	fromName: 'Nieuwe Klant',
	subject: 'Offerte voor 50 croissants',
	bodyText: 'Kunnen jullie een offerte sturen voor 50 croissants per week?',
};

async function agentOfType(type: string): Promise<{ id: string; status: string }> {
	return (await t.admin('GET', `/agents?agentType=${type}&status=active`)).body.data[0];
}

describe('requests', () => {
	test('seed has requests in every status', async () => {
		const { body } = await t.admin('GET', '/requests?pageSize=100');
		expect(new Set(body.data.map((r: { status: string }) => r.status))).toEqual(
			new Set(['new', 'processing', 'processed', 'failed', 'archived']),
		);
	});

	test('status filter, and 400 for an unknown status', async () => {
		const res = await t.admin('GET', '/requests?status=new');
		expect(res.body.data.length).toBeGreaterThan(0);
		expect(res.body.data.every((r: { status: string }) => r.status === 'new')).toBe(true);
		const bad = await t.admin('GET', '/requests?status=done');
		expect(bad.status).toBe(400);
		expect(bad.body.error.field).toBe('status');
	});

	test('processImmediately false (the default): 201, stays new, only request.received', async () => {
		t.control.clearEvents();
		const res = await t.admin('POST', '/requests', { ...quoteRequest, externalRef: 'CRM-1' });
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({
			...quoteRequest,
			externalRef: 'CRM-1',
			status: 'new',
			agentRunId: null,
			output: null,
			quoteId: null,
		});
		expect(res.body.data.id).toMatch(/^req_/);
		expect(t.control.events().map((e) => e.type)).toEqual(['request.received']);
		expect((await t.admin('GET', `/requests/${res.body.data.id}`)).body.data).toEqual(
			res.body.data,
		);
	});

	test('processImmediately true with a quote question: QuoteAgent run, draft quote, new contact, events in order', async () => {
		const quoteAgent = await agentOfType('QuoteAgent');
		const contactsBefore = (await t.admin('GET', '/contacts')).body.meta.total;
		t.control.clearEvents();
		const res = await t.admin('POST', '/requests', { ...quoteRequest, processImmediately: true });
		expect(res.status).toBe(201);
		const request = res.body.data;
		expect(request).toMatchObject({ status: 'processed', agentId: quoteAgent.id });
		expect(request.agentRunId).toMatch(/^run_/);
		expect(request.output).toMatchObject({
			action: 'quote_created',
			quoteId: request.quoteId,
			contactId: request.contactId,
			contactCreated: true,
		});
		expect(request.processedAt).not.toBeNull();

		const quote = (await t.admin('GET', `/quotes/${request.quoteId}`)).body.data;
		expect(quote).toMatchObject({ status: 'draft', contactId: request.contactId });
		const contact = (await t.admin('GET', `/contacts/${request.contactId}`)).body.data;
		expect(contact).toMatchObject({ name: 'Nieuwe Klant', email: 'nieuw@klant.nl' });
		expect((await t.admin('GET', '/contacts')).body.meta.total).toBe(contactsBefore + 1);

		const run = (await t.admin('GET', `/agents/${quoteAgent.id}/runs/${request.agentRunId}`)).body
			.data;
		expect(run).toMatchObject({
			status: 'success',
			trigger: 'request',
			requestId: request.id,
			output: request.output,
		});
		expect(run.input).toMatchObject({
			requestId: request.id,
			fromEmail: 'nieuw@klant.nl',
			subject: quoteRequest.subject,
		});

		const types = t.control.events().map((e) => e.type);
		expect(types).toEqual([
			'request.received',
			'contact.created',
			'quote.created',
			'request.processed',
		]);
		expect(types.indexOf('request.received')).toBeLessThan(types.indexOf('quote.created'));
		expect((await t.admin('GET', `/requests/${request.id}`)).body.data.output).toEqual(
			request.output,
		);
	});

	test('a known sender (any case) gets the quote on the existing contact', async () => {
		const res = await t.admin('POST', '/requests', {
			...quoteRequest,
			fromEmail: 'Sanne.Bakker@ziggo.nl',
			processImmediately: true,
		});
		const sanne = (await t.admin('GET', '/contacts?pageSize=100')).body.data.find(
			(c: { name: string }) => c.name === 'Sanne Bakker',
		);
		expect(res.body.data.contactId).toBe(sanne.id);
		expect(res.body.data.output.contactCreated).toBe(false);
	});

	test('a general question goes to the CustomerCareAgent: run recorded, no quote', async () => {
		const care = await agentOfType('CustomerCareAgent');
		t.control.clearEvents();
		const res = await t.admin('POST', '/requests', {
			fromEmail: 'info@cafethoekje.nl',
			subject: 'Openingstijden',
			bodyText: 'Zijn jullie op tweede kerstdag open?',
			processImmediately: true,
		});
		expect(res.body.data).toMatchObject({
			status: 'processed',
			agentId: care.id,
			quoteId: null,
			fromName: null,
		});
		expect(res.body.data.output).toMatchObject({
			action: 'reply_drafted',
			replySubject: 'Re: Openingstijden',
		});
		expect(t.control.events().map((e) => e.type)).toEqual([
			'request.received',
			'request.processed',
		]);
	});

	test('routing rule', () => {
		expect(agentTypeFor('Offerte', '')).toBe('QuoteAgent');
		expect(agentTypeFor('Vraag', 'Wat is de prijs van een taart?')).toBe('QuoteAgent');
		expect(agentTypeFor('Quote please', '')).toBe('QuoteAgent');
		expect(agentTypeFor('Levering', 'Kan het eerder?')).toBe('CustomerCareAgent');
	});

	test('a paused agent cannot process: the request fails with a reason and request.failed', async () => {
		const quoteAgent = await agentOfType('QuoteAgent');
		await t.admin('POST', `/agents/${quoteAgent.id}/pause`);
		t.control.clearEvents();
		const res = await t.admin('POST', '/requests', { ...quoteRequest, processImmediately: true });
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({
			status: 'failed',
			agentId: quoteAgent.id,
			agentRunId: null,
			quoteId: null,
		});
		expect(res.body.data.failureReason).toBe(
			'Agent "Offerte-assistent" (QuoteAgent) is paused; the request was not processed',
		);
		expect(t.control.events().map((e) => e.type)).toEqual(['request.received', 'request.failed']);
	});

	test('409 for an externalRef that exists (per organization)', async () => {
		expect(
			(await t.admin('POST', '/requests', { ...quoteRequest, externalRef: 'X-1' })).status,
		).toBe(201);
		const res = await t.admin('POST', '/requests', { ...quoteRequest, externalRef: 'X-1' });
		expect(res.status).toBe(409);
		expect(res.body.error).toMatchObject({ code: 'duplicate_resource', field: 'externalRef' });
		expect(res.body.error.message).toMatch(
			/^A request with externalRef "X-1" already exists \(req_/,
		);
		expect(
			(
				await t.as(t.sandbox.keys.otherOrg)('POST', '/requests', {
					...quoteRequest,
					externalRef: 'X-1',
				})
			).status,
		).toBe(201);
	});

	test.each([
		[{ subject: 's', bodyText: 'b' }, 'fromEmail', '"fromEmail" is required'],
		[
			{ fromEmail: 'x', subject: 's', bodyText: 'b' },
			'fromEmail',
			'"fromEmail" must be a valid e-mail address',
		],
		[{ fromEmail: 'a@b.nl', bodyText: 'b' }, 'subject', '"subject" is required'],
		[{ fromEmail: 'a@b.nl', subject: 's' }, 'bodyText', '"bodyText" is required'],
		[
			{ fromEmail: 'a@b.nl', subject: 's', bodyText: 'b', processImmediately: 'yes' },
			'processImmediately',
			'"processImmediately" must be a boolean (true or false)',
		],
		[
			{ fromEmail: 'a@b.nl', subject: 's', bodyText: 'b', externalRef: 12 },
			'externalRef',
			'"externalRef" must be a non-empty string of at most 200 characters',
		],
	])('invalid %j names %s', async (body, fieldName, message) => {
		const res = await t.admin('POST', '/requests', body);
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({ code: 'invalid_request', message, field: fieldName });
	});

	test('unknown request ids are 404', async () => {
		expect((await t.admin('GET', '/requests/req_nope')).status).toBe(404);
	});
});
