import { startTestSandbox, type TestSandbox } from './helpers';

let t: TestSandbox;
beforeAll(async () => {
	t = await startTestSandbox();
});
afterAll(() => t.sandbox.stop());
beforeEach(() => t.control.reset());

interface Agent {
	id: string;
	name: string;
	agentType: string;
	status: string;
}

async function agents(): Promise<Agent[]> {
	return (await t.admin('GET', '/agents')).body.data;
}

async function agentWith(status: string, agentType?: string): Promise<Agent> {
	return (await agents()).find(
		(a) => a.status === status && (!agentType || a.agentType === agentType),
	)!;
}

describe('agents', () => {
	test('seed: the four agent types, one paused, one uninstalled', async () => {
		const list = await agents();
		expect(new Set(list.map((a) => a.agentType))).toEqual(
			new Set(['QuoteAgent', 'InvoiceAgent', 'PlanningAgent', 'CustomerCareAgent']),
		);
		expect(list.filter((a) => a.status === 'paused')).toHaveLength(1);
		expect(list.filter((a) => a.status === 'uninstalled')).toHaveLength(1);
		for (const agent of list) {
			expect(agent.id).toMatch(/^agt_/);
			expect(Object.keys(agent)).toEqual([
				'id',
				'name',
				'agentType',
				'status',
				'description',
				'createdAt',
				'updatedAt',
			]);
		}
	});

	test('filters: status and agentType, alone and together', async () => {
		const paused = (await t.admin('GET', '/agents?status=paused')).body;
		expect(paused.meta.total).toBe(1);
		expect(paused.data[0].agentType).toBe('PlanningAgent');
		const invoiceAgents = (await t.admin('GET', '/agents?agentType=InvoiceAgent')).body.data;
		expect(invoiceAgents.map((a: Agent) => a.status).sort()).toEqual(['active', 'uninstalled']);
		expect(
			(await t.admin('GET', '/agents?agentType=InvoiceAgent&status=active')).body.meta.total,
		).toBe(1);
	});

	test('invalid filter values are 400 naming the field', async () => {
		const status = await t.admin('GET', '/agents?status=sleeping');
		expect(status.status).toBe(400);
		expect(status.body.error).toEqual({
			code: 'invalid_request',
			message: '"status" must be one of "active", "paused", "uninstalled"; got "sleeping"',
			field: 'status',
		});
		expect((await t.admin('GET', '/agents?agentType=SalesAgent')).body.error.field).toBe(
			'agentType',
		);
	});

	test('GET /agents/{id} adds counts of runs, connectors and examples', async () => {
		const quoteAgent = await agentWith('active', 'QuoteAgent');
		const res = await t.admin('GET', `/agents/${quoteAgent.id}`);
		expect(res.body.data).toMatchObject({
			...quoteAgent,
			counts: { runs: 3, connectors: 2, examples: 14 },
		});
		expect((await t.admin('GET', '/agents/agt_nope')).status).toBe(404);
	});

	test('PATCH renames; other fields are refused', async () => {
		const agent = await agentWith('active', 'QuoteAgent');
		const res = await t.admin('PATCH', `/agents/${agent.id}`, { name: 'Offertes 2.0' });
		expect(res.status).toBe(200);
		expect(res.body.data.name).toBe('Offertes 2.0');
		expect(res.body.data.counts).toBeDefined();
		const status = await t.admin('PATCH', `/agents/${agent.id}`, { status: 'paused' });
		expect(status.status).toBe(400);
		expect(status.body.error.message).toBe('"status" is not a known field; known fields: name');
		expect((await t.admin('PATCH', `/agents/${agent.id}`, { name: '' })).body.error.field).toBe(
			'name',
		);
	});

	test('pause an active agent, resume a paused one, with agent.paused / agent.resumed events', async () => {
		const agent = await agentWith('active', 'CustomerCareAgent');
		t.control.clearEvents();
		const paused = await t.admin('POST', `/agents/${agent.id}/pause`);
		expect(paused.status).toBe(200);
		expect(paused.body.data.status).toBe('paused');
		const resumed = await t.admin('POST', `/agents/${agent.id}/resume`, {});
		expect(resumed.body.data.status).toBe('active');
		expect(t.control.events().map((e) => e.type)).toEqual(['agent.paused', 'agent.resumed']);
	});

	test('pause when not active and resume when not paused are 422', async () => {
		const paused = await agentWith('paused');
		const pauseAgain = await t.admin('POST', `/agents/${paused.id}/pause`);
		expect(pauseAgain.status).toBe(422);
		expect(pauseAgain.body.error).toEqual({
			code: 'invalid_state',
			message: `Cannot pause agent ${paused.id}: its status is "paused"; only an "active" agent can be paused`,
		});
		const active = await agentWith('active');
		const resume = await t.admin('POST', `/agents/${active.id}/resume`);
		expect(resume.status).toBe(422);
		expect(resume.body.error.message).toBe(
			`Cannot resume agent ${active.id}: its status is "active"; only a "paused" agent can be resumed`,
		);
	});

	test('an uninstalled agent refuses pause, resume, rename and autonomy changes (422)', async () => {
		const agent = await agentWith('uninstalled');
		for (const [method, path, body] of [
			['POST', `/agents/${agent.id}/pause`, undefined],
			['POST', `/agents/${agent.id}/resume`, undefined],
			['PATCH', `/agents/${agent.id}`, { name: 'Terug' }],
			['PATCH', `/agents/${agent.id}/autonomy`, { defaultMode: 'manual' }],
		] as const) {
			const res = await t.admin(method, path, body);
			expect(res.status).toBe(422);
			expect(res.body.error.message).toMatch(/it is uninstalled$/);
		}
		expect((await t.admin('GET', `/agents/${agent.id}`)).body.data.status).toBe('uninstalled');
	});

	test('pause/resume accept no body fields', async () => {
		const agent = await agentWith('active');
		expect(
			(await t.admin('POST', `/agents/${agent.id}/pause`, { force: true })).body.error.field,
		).toBe('force');
	});
});

describe('autonomy', () => {
	test('GET returns the default mode and the per-action overrides', async () => {
		const agent = await agentWith('active', 'InvoiceAgent');
		const res = await t.admin('GET', `/agents/${agent.id}/autonomy`);
		expect(res.body.data).toMatchObject({
			agentId: agent.id,
			defaultMode: 'auto_after_approvals',
			autoAfterApprovalsCount: 5,
			actionOverrides: { send_invoice: { mode: 'manual' } },
		});
	});

	test('PATCH changes the given fields; actionOverrides replaces the set', async () => {
		const agent = await agentWith('active', 'QuoteAgent');
		const res = await t.admin('PATCH', `/agents/${agent.id}/autonomy`, {
			defaultMode: 'auto_after_approvals',
			autoAfterApprovalsCount: 4,
			actionOverrides: { send_invoice: { mode: 'auto_instant' } },
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			defaultMode: 'auto_after_approvals',
			autoAfterApprovalsCount: 4,
			actionOverrides: { send_invoice: { mode: 'auto_instant' } },
		});
		const partial = await t.admin('PATCH', `/agents/${agent.id}/autonomy`, {
			defaultMode: 'auto_instant',
		});
		expect(partial.body.data).toMatchObject({
			defaultMode: 'auto_instant',
			autoAfterApprovalsCount: 4,
		});
		expect((await t.admin('GET', `/agents/${agent.id}/autonomy`)).body.data).toEqual(
			partial.body.data,
		);
	});

	test.each([
		[
			{ defaultMode: 'sometimes' },
			'defaultMode',
			'"defaultMode" must be one of "manual", "auto_after_approvals", "auto_instant"; got "sometimes"',
		],
		[
			{ autoAfterApprovalsCount: -1 },
			'autoAfterApprovalsCount',
			'"autoAfterApprovalsCount" must be an integer from 0 to 1000',
		],
		[
			{ autoAfterApprovalsCount: 2.5 },
			'autoAfterApprovalsCount',
			'"autoAfterApprovalsCount" must be an integer from 0 to 1000',
		],
		[
			{ defaultMode: 'auto_after_approvals', autoAfterApprovalsCount: null },
			'autoAfterApprovalsCount',
			'"autoAfterApprovalsCount" is required (an integer of at least 0) when a mode is auto_after_approvals',
		],
		[
			{ actionOverrides: { send_invoice: { mode: 'later' } } },
			'actionOverrides.send_invoice.mode',
			'actionOverrides.send_invoice.mode must be one of "manual", "auto_after_approvals", "auto_instant"; got "later"',
		],
		[
			{ actionOverrides: { send_invoice: {} } },
			'actionOverrides.send_invoice.mode',
			'actionOverrides.send_invoice.mode is required',
		],
		[
			{ actionOverrides: { send_invoice: 'manual' } },
			'actionOverrides.send_invoice',
			'actionOverrides.send_invoice must be an object',
		],
		[
			{ actionOverrides: { 'Send Invoice': { mode: 'manual' } } },
			'actionOverrides.Send Invoice',
			'actionOverrides.Send Invoice is not a valid name: names must be lower-case letters, digits and _ (like send_invoice)',
		],
		[{ actionOverrides: [] }, 'actionOverrides', '"actionOverrides" must be an object'],
	])('invalid %j names %s', async (body, fieldName, message) => {
		const agent = await agentWith('active', 'CustomerCareAgent');
		const res = await t.admin('PATCH', `/agents/${agent.id}/autonomy`, body);
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({ code: 'invalid_request', message, field: fieldName });
	});

	test('auto_after_approvals with no count set is 400; with the count in the same body it works', async () => {
		const agent = await agentWith('active', 'CustomerCareAgent'); // seeded with count null
		expect(
			(
				await t.admin('PATCH', `/agents/${agent.id}/autonomy`, {
					defaultMode: 'auto_after_approvals',
				})
			).status,
		).toBe(400);
		expect(
			(
				await t.admin('PATCH', `/agents/${agent.id}/autonomy`, {
					actionOverrides: { send_quote: { mode: 'auto_after_approvals' } },
				})
			).status,
		).toBe(400);
		const ok = await t.admin('PATCH', `/agents/${agent.id}/autonomy`, {
			defaultMode: 'auto_after_approvals',
			autoAfterApprovalsCount: 3,
		});
		expect(ok.status).toBe(200);
	});
});

describe('runs', () => {
	test('run history with status filter; list items leave out input and output', async () => {
		const agent = await agentWith('active', 'QuoteAgent');
		const res = await t.admin('GET', `/agents/${agent.id}/runs`);
		expect(res.body.meta.total).toBe(3);
		expect(new Set(res.body.data.map((r: { status: string }) => r.status))).toEqual(
			new Set(['success', 'failed', 'running']),
		);
		for (const run of res.body.data) {
			expect(run.id).toMatch(/^run_/);
			expect(run.agentId).toBe(agent.id);
			expect(run).not.toHaveProperty('input');
			expect(run).not.toHaveProperty('output');
		}
		const failed = await t.admin('GET', `/agents/${agent.id}/runs?status=failed`);
		expect(failed.body.data.map((r: { status: string }) => r.status)).toEqual(['failed']);
		expect((await t.admin('GET', `/agents/${agent.id}/runs?status=done`)).body.error.field).toBe(
			'status',
		);
		expect((await t.admin('GET', '/agents/agt_nope/runs')).status).toBe(404);
	});

	test('a single run includes input and output JSON', async () => {
		const agent = await agentWith('active', 'QuoteAgent');
		const [first] = (await t.admin('GET', `/agents/${agent.id}/runs?status=success`)).body.data;
		const res = await t.admin('GET', `/agents/${agent.id}/runs/${first.id}`);
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			...first,
			input: expect.any(Object),
			output: expect.objectContaining({ action: 'quote_created' }),
		});
	});

	test("a run read through another agent's path is 404", async () => {
		const quoteAgent = await agentWith('active', 'QuoteAgent');
		const care = await agentWith('active', 'CustomerCareAgent');
		const [run] = (await t.admin('GET', `/agents/${quoteAgent.id}/runs`)).body.data;
		expect((await t.admin('GET', `/agents/${care.id}/runs/${run.id}`)).status).toBe(404);
		expect((await t.admin('GET', `/agents/${quoteAgent.id}/runs/run_nope`)).status).toBe(404);
	});

	test('every agent type has runs; runs exist in each status', async () => {
		const statuses = new Set<string>();
		for (const agent of await agents()) {
			for (const run of (await t.admin('GET', `/agents/${agent.id}/runs`)).body.data)
				statuses.add(run.status);
		}
		expect(statuses).toEqual(new Set(['running', 'success', 'failed']));
	});
});
