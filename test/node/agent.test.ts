import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { byId, jsonOf } from '../harness/engine';
import { baseApi as api, node, runOn, searchOf } from '../harness/actionNode';

const run = runOn('agent');
/** Update Autonomy of agt_1 with `parameters`. */
const updateAutonomy = async (parameters: INodeParameters) =>
	await run({ operation: 'updateAutonomy', agentId: byId('agt_1'), ...parameters });
/** n8n leaves the body out of a POST that has no fields. */
const noBody = (body: unknown) => body === '';

/** The Action Overrides parameter with one override per [action, mode] pair. */
const overrides = (...pairs: Array<[string, string]>) => ({
	override: pairs.map(([action, mode]) => ({ action, mode })),
});

const quoteAgent = { id: 'agt_1', name: 'Offertes', agentType: 'QuoteAgent', status: 'active' };
const careAgent = {
	id: 'agt_2',
	name: 'Klantcontact',
	agentType: 'CustomerCareAgent',
	status: 'active',
};

afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('Agent: Get and Get Many', () => {
	it('Get reads GET /agents/{id} and returns the agent with its counts', async () => {
		const detail = { ...quoteAgent, counts: { runs: 12, connectors: 1, examples: 3 } };
		api().get('/agents/agt_1').reply(200, { data: detail });

		const { items } = await run({ operation: 'get', agentId: byId('agt_1') });

		expect(jsonOf(items)).toEqual([detail]);
	});

	it('Get takes the agent from the list mode of the locator as well', async () => {
		api().get('/agents/agt_2').reply(200, { data: careAgent });

		const { items } = await run({
			operation: 'get',
			agentId: { __rl: true, mode: 'list', value: 'agt_2' },
		});

		expect(jsonOf(items)).toEqual([careAgent]);
	});

	it('Get Many with Return All follows every page at the largest page size, with the filters as query', async () => {
		const page = (n: number, hasMore: boolean) => ({
			data: [{ ...quoteAgent, id: `agt_p${n}` }],
			meta: { page: n, pageSize: 100, total: 3, hasMore },
		});
		const filter = { status: 'paused', agentType: 'QuoteAgent', pageSize: '100' };
		api()
			.get('/agents')
			.query({ ...filter, page: '1' })
			.reply(200, page(1, true));
		api()
			.get('/agents')
			.query({ ...filter, page: '2' })
			.reply(200, page(2, true));
		api()
			.get('/agents')
			.query({ ...filter, page: '3' })
			.reply(200, page(3, false));

		const { items } = await run({
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'paused', agentType: 'QuoteAgent' },
		});

		expect(jsonOf(items).map((a) => (a as { id: string }).id)).toEqual([
			'agt_p1',
			'agt_p2',
			'agt_p3',
		]);
	});

	/** GET /agents with `query` answers one page of `data`; more follow when `total` says so. */
	const agentsPage = (query: Record<string, string>, data: object[], total = data.length) =>
		api()
			.get('/agents')
			.query(query)
			.reply(200, {
				data,
				meta: { page: 1, pageSize: Number(query.pageSize), total, hasMore: total > data.length },
			});

	it('Get Many with a Limit asks for that many and stops there', async () => {
		agentsPage({ page: '1', pageSize: '2' }, [quoteAgent, careAgent], 9);

		const { items } = await run({ operation: 'getAll', returnAll: false, limit: 2 });

		expect(jsonOf(items)).toEqual([quoteAgent, careAgent]);
	});

	it('Get Many sends only the filter that was added', async () => {
		agentsPage({ page: '1', pageSize: '50', agentType: 'CustomerCareAgent' }, [careAgent]);

		const { items } = await run({
			operation: 'getAll',
			filters: { agentType: 'CustomerCareAgent' },
		});

		expect(jsonOf(items)).toEqual([careAgent]);
	});

	it('the agent list search lists the agents with name, type and status', async () => {
		agentsPage({ page: '1', pageSize: '100' }, [quoteAgent, careAgent]);

		const result = await searchOf('searchAgents', 'agent', 'klant');

		expect(result).toEqual({
			results: [{ name: 'Klantcontact · CustomerCareAgent · active', value: 'agt_2' }],
			paginationToken: undefined,
		});
	});
});

describe('Agent: Update, Pause and Resume', () => {
	it('Update renames the agent with PATCH /agents/{id} and body { name }', async () => {
		const renamed = { ...quoteAgent, name: 'Offertes schilderwerk' };
		api().patch('/agents/agt_1', { name: 'Offertes schilderwerk' }).reply(200, { data: renamed });

		const { items } = await run({
			operation: 'update',
			agentId: byId('agt_1'),
			name: 'Offertes schilderwerk',
		});

		expect(jsonOf(items)).toEqual([renamed]);
	});

	it('Update refuses an empty name and sends nothing', async () => {
		await expect(
			run({ operation: 'update', agentId: byId('agt_1'), name: '={{ "  " }}' }),
		).rejects.toThrow('Name: a value is required [item 0]');
	});

	it('Pause posts to /agents/{id}/pause without a body', async () => {
		const paused = { ...quoteAgent, status: 'paused' };
		api().post('/agents/agt_1/pause', noBody).reply(200, { data: paused });

		const { items } = await run({ operation: 'pause', agentId: byId('agt_1') });

		expect(jsonOf(items)).toEqual([paused]);
	});

	it('Resume posts to /agents/{id}/resume without a body', async () => {
		api().post('/agents/agt_1/resume', noBody).reply(200, { data: quoteAgent });

		const { items } = await run({ operation: 'resume', agentId: byId('agt_1') });

		expect(jsonOf(items)).toEqual([quoteAgent]);
	});

	it('Pause with a read-only key fails with the API code, message, HTTP status, missing scope and item', async () => {
		api()
			.post('/agents/agt_1/pause')
			.reply(403, {
				error: {
					code: 'insufficient_scope',
					message: 'This API key lacks the scope "agents.write"',
				},
			});

		const error = await run({ operation: 'pause', agentId: byId('agt_1') }).catch(
			(e: unknown) => e,
		);

		expect(error).toMatchObject({
			message:
				'This API key lacks the scope "agents.write" (HTTP 403 insufficient_scope, POST /agents/agt_1/pause) [item 0]',
			httpCode: '403',
			errorResponse: {
				code: 'insufficient_scope',
				message: 'This API key lacks the scope "agents.write"',
				status: 403,
				scope: 'agents.write',
			},
			context: { itemIndex: 0 },
		});
		expect((error as { description: string }).description).toContain('"agents.write"');
	});

	it('Pause of a paused agent fails with the 422 invalid_state answer and is not repeated', async () => {
		const message = 'Cannot pause agent agt_1: its status is "paused"';
		api()
			.post('/agents/agt_1/pause')
			.once()
			.reply(422, { error: { code: 'invalid_state', message } });

		const error = await run({ operation: 'pause', agentId: byId('agt_1') }).catch(
			(e: unknown) => e,
		);

		expect(error).toMatchObject({
			message: `${message} (HTTP 422 invalid_state, POST /agents/agt_1/pause) [item 0]`,
			httpCode: '422',
			errorResponse: { code: 'invalid_state', status: 422 },
		});
		expect((error as { description: string }).description).toContain(message);
	});

	it('an ID that is not one URL segment is refused before anything is sent', async () => {
		await expect(run({ operation: 'pause', agentId: byId('agt_1/../x') })).rejects.toThrow(
			'Agent: "agt_1/../x" is not an ID',
		);
	});
});

describe('Agent: autonomy', () => {
	const autonomy = {
		defaultMode: 'auto_after_approvals',
		autoAfterApprovalsCount: 5,
		actionOverrides: { send_invoice: { mode: 'manual' } },
	};

	it('Get Autonomy reads GET /agents/{id}/autonomy', async () => {
		api().get('/agents/agt_1/autonomy').reply(200, { data: autonomy });

		const { items } = await run({ operation: 'getAutonomy', agentId: byId('agt_1') });

		expect(jsonOf(items)).toEqual([autonomy]);
	});

	it('Update Autonomy sends the mode, the approvals count and the overrides as an object keyed by action', async () => {
		const body = {
			defaultMode: 'auto_after_approvals',
			autoAfterApprovalsCount: 5,
			actionOverrides: {
				send_invoice: { mode: 'manual' },
				create_draft_quote: { mode: 'auto_instant' },
			},
		};
		api().patch('/agents/agt_1/autonomy', body).reply(200, { data: body });

		const { items } = await updateAutonomy({
			defaultMode: 'auto_after_approvals',
			autoAfterApprovalsCount: 5,
			actionOverrides: overrides(
				[' send_invoice ', 'manual'],
				['create_draft_quote', 'auto_instant'],
			),
		});

		expect(jsonOf(items)).toEqual([body]);
	});

	it.each(['manual', 'auto_instant'])(
		'Update Autonomy to %s leaves the approvals count out',
		async (mode) => {
			api()
				.patch('/agents/agt_1/autonomy', { defaultMode: mode })
				.reply(200, { data: { defaultMode: mode } });

			await updateAutonomy({
				defaultMode: mode,
				autoAfterApprovalsCount: 4,
			});
		},
	);

	it('Update Autonomy with Keep Current Mode sends only the overrides', async () => {
		const body = { actionOverrides: { send_invoice: { mode: 'auto_instant' } } };
		api()
			.patch('/agents/agt_1/autonomy', body)
			.reply(200, { data: { ...autonomy, ...body } });

		await updateAutonomy({
			actionOverrides: overrides(['send_invoice', 'auto_instant']),
		});
	});

	it.each(['manual', 'keep'])(
		'with default mode %s and an auto_after_approvals override, the approvals count is sent with the override',
		async (defaultMode) => {
			const body = {
				...(defaultMode === 'keep' ? {} : { defaultMode }),
				actionOverrides: { send_invoice: { mode: 'auto_after_approvals' } },
				autoAfterApprovalsCount: 4,
			};
			api()
				.patch('/agents/agt_1/autonomy', body)
				.reply(200, { data: { ...autonomy, ...body } });

			await updateAutonomy({
				defaultMode,
				autoAfterApprovalsCount: 4,
				actionOverrides: overrides(['send_invoice', 'auto_after_approvals']),
			});
		},
	);

	it('an approvals count of 0 is sent: the spec does not refuse it, the API decides', async () => {
		const body = { defaultMode: 'auto_after_approvals', autoAfterApprovalsCount: 0 };
		api().patch('/agents/agt_1/autonomy', body).reply(200, { data: body });

		const { items } = await updateAutonomy({
			defaultMode: 'auto_after_approvals',
			autoAfterApprovalsCount: 0,
		});

		expect(jsonOf(items)).toEqual([body]);
	});

	it('Clear Action Overrides sends an empty set of overrides', async () => {
		api()
			.patch('/agents/agt_1/autonomy', { actionOverrides: {} })
			.reply(200, { data: { ...autonomy, actionOverrides: {} } });

		const { items } = await updateAutonomy({
			clearActionOverrides: true,
		});

		expect(items[0].json.actionOverrides).toEqual({});
	});

	it('Clear Action Overrides wins over override rows left in a saved workflow (the rows are hidden)', async () => {
		api()
			.patch('/agents/agt_1/autonomy', { defaultMode: 'manual', actionOverrides: {} })
			.reply(200, { data: autonomy });

		await updateAutonomy({
			defaultMode: 'manual',
			clearActionOverrides: true,
			actionOverrides: overrides(['send_invoice', 'auto_instant']),
		});
	});

	it('Clear Action Overrides "false" from an expression keeps the overrides; "maybe" is refused naming the field', async () => {
		api().patch('/agents/agt_1/autonomy', { defaultMode: 'manual' }).reply(200, { data: autonomy });

		const { items } = await run(
			{
				operation: 'updateAutonomy',
				agentId: byId('agt_1'),
				defaultMode: 'manual',
				clearActionOverrides: '={{ $json.clear }}',
			},
			{ items: [{ json: { clear: 'false' } }, { json: { clear: 'maybe' } }], continueOnFail: true },
		);

		expect(items[1].error?.message).toBe(
			'Clear Action Overrides: must be true or false; the expression gave "maybe" [item 1]',
		);
	});

	it('the approvals count from an expression is sent as a number', async () => {
		api()
			.patch('/agents/agt_1/autonomy', {
				defaultMode: 'auto_after_approvals',
				autoAfterApprovalsCount: 2,
			})
			.reply(200, { data: {} });

		await run(
			{
				operation: 'updateAutonomy',
				agentId: byId('agt_1'),
				defaultMode: 'auto_after_approvals',
				autoAfterApprovalsCount: '={{ $json.approvals }}',
			},
			{ items: [{ json: { approvals: '2' } }] },
		);
	});

	const refused: Array<[string, INodeParameters, string]> = [
		['nothing to change', {}, 'Default Mode: nothing to change [item 0]'],
		[
			'a negative approvals count',
			{ defaultMode: 'auto_after_approvals', autoAfterApprovalsCount: -1 },
			'Approvals Count: "-1" must be a whole number of 0 or more [item 0]',
		],
		[
			'a fractional approvals count',
			{ defaultMode: 'auto_after_approvals', autoAfterApprovalsCount: 2.5 },
			'Approvals Count: "2.5" must be a whole number of 0 or more [item 0]',
		],
		[
			'a fractional approvals count that an override needs',
			{
				actionOverrides: overrides(['send_invoice', 'auto_after_approvals']),
				autoAfterApprovalsCount: 1.5,
			},
			'Approvals Count: "1.5" must be a whole number of 0 or more [item 0]',
		],
		[
			'an unknown default mode',
			{ defaultMode: '={{ "automatic" }}' },
			'Default Mode: "automatic" is not a mode; use auto_after_approvals, auto_instant, manual [item 0]',
		],
		[
			'a duplicate action name',
			{ actionOverrides: overrides(['send_invoice', 'manual'], ['send_invoice ', 'auto_instant']) },
			'Action Overrides: "send_invoice" is listed more than once; give each action one mode [item 0]',
		],
		[
			'an empty action name',
			{
				defaultMode: 'manual',
				actionOverrides: overrides(['send_invoice', 'manual'], [' ', 'manual']),
			},
			'Action Overrides: override 2 has no action name (such as send_invoice) [item 0]',
		],
		[
			'an unknown override mode',
			{ actionOverrides: overrides(['send_invoice', '={{ "never" }}']) },
			'Action Overrides: "never" (mode of "send_invoice") is not a mode; use auto_after_approvals, auto_instant, manual [item 0]',
		],
	];

	it.each(refused)(
		'Update Autonomy refuses %s and sends nothing',
		async (_case, params, message) => {
			const error = await updateAutonomy({
				...params,
			}).catch((e: unknown) => e);

			expect(error).toMatchObject({ message, context: { itemIndex: 0 } });
			expect((error as { description: string }).description).toContain(
				'Nothing was sent for this item',
			);
		},
	);

	it('a refused item names its own index and the other items are still sent', async () => {
		api()
			.patch('/agents/agt_1/autonomy', {
				defaultMode: 'auto_after_approvals',
				autoAfterApprovalsCount: 3,
			})
			.reply(200, { data: { defaultMode: 'auto_after_approvals', autoAfterApprovalsCount: 3 } });

		const { items } = await run(
			{
				operation: 'updateAutonomy',
				agentId: byId('agt_1'),
				defaultMode: 'auto_after_approvals',
				autoAfterApprovalsCount: '={{ $json.approvals }}',
			},
			{ items: [{ json: { approvals: 3 } }, { json: { approvals: 'two' } }], continueOnFail: true },
		);

		expect(items[0].json).toEqual({
			defaultMode: 'auto_after_approvals',
			autoAfterApprovalsCount: 3,
		});
		expect(items[1].error?.message).toBe(
			'Approvals Count: must be a number; the expression gave "two" [item 1]',
		);
	});
});

describe('Agent: description', () => {
	const properties = node.description.properties;

	it('shows the approvals count for every default mode, since an override may need it', () => {
		const count = properties.find((p) => p.name === 'autoAfterApprovalsCount');
		expect(count?.displayOptions?.show).toEqual({
			resource: ['agent'],
			operation: ['updateAutonomy'],
		});
	});

	it('hides the override rows while Clear Action Overrides is on', () => {
		const rows = properties.find((p) => p.name === 'actionOverrides');
		// hidden for the boolean true only: saved as the text "false" the rows stay read
		expect(rows?.displayOptions?.hide).toEqual({ clearActionOverrides: [true] });
		expect(rows?.displayOptions?.show).not.toHaveProperty('clearActionOverrides');
	});

	it('offers the operations sorted by name, each with a sentence-case action', () => {
		const operation = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('agent'),
		);
		const options = (operation?.options ?? []) as Array<{ name: string; action: string }>;
		expect(options.map((o) => o.name)).toEqual([
			'Get',
			'Get Autonomy',
			'Get Many',
			'Pause',
			'Resume',
			'Update',
			'Update Autonomy',
		]);
		expect(options.find((o) => o.name === 'Pause')?.action).toBe('Pause an agent');
	});
});
