import nock from 'nock';

import { byId, jsonOf, runListSearch } from '../harness/engine';
import { baseApi as api, node, runOn } from '../harness/actionNode';

const run = runOn('agentRun');

const runRecord = (id: string, status = 'success') => ({
	id,
	agentId: 'agt_1',
	status,
	trigger: 'request',
	requestId: 'req_1',
	summary: 'Draft quote OFF-0007 created',
	error: null,
	startedAt: '2026-11-20T09:00:00Z',
	finishedAt: '2026-11-20T09:00:02Z',
	input: { subject: 'Offerte schilderwerk', bodyText: 'Graag een prijs voor de gevel.' },
	output: {
		action: 'quote_created',
		quoteId: 'quo_7',
		lines: [{ name: 'Gevel', data: { m2: 40 } }],
	},
});

afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('Agent Run: Get', () => {
	it('reads GET /agents/{id}/runs/{runId} and returns the run with its input and output as sent', async () => {
		const full = runRecord('run_1');
		api().get('/agents/agt_1/runs/run_1').reply(200, { data: full });

		const { items } = await run({ operation: 'get', agentId: byId('agt_1'), runId: byId('run_1') });

		expect(jsonOf(items)).toEqual([full]);
	});

	it('refuses a missing run ID before anything is sent', async () => {
		await expect(
			run({ operation: 'get', agentId: byId('agt_1'), runId: byId('') }),
		).rejects.toThrow('Run: no ID was given [item 0]');
	});
});

describe('Agent Run: Get Many', () => {
	it('Return All follows the pages of GET /agents/{id}/runs with the status filter', async () => {
		const query = { status: 'failed', pageSize: '100' };
		api()
			.get('/agents/agt_1/runs')
			.query({ ...query, page: '1' })
			.reply(200, {
				data: [runRecord('run_1', 'failed')],
				meta: { page: 1, pageSize: 100, total: 2, hasMore: true },
			});
		api()
			.get('/agents/agt_1/runs')
			.query({ ...query, page: '2' })
			.reply(200, {
				data: [runRecord('run_2', 'failed')],
				meta: { page: 2, pageSize: 100, total: 2, hasMore: false },
			});

		const { items } = await run({
			operation: 'getAll',
			agentId: byId('agt_1'),
			returnAll: true,
			filters: { status: 'failed' },
		});

		expect(jsonOf(items)).toEqual([runRecord('run_1', 'failed'), runRecord('run_2', 'failed')]);
	});

	it('Limit cuts the list and Simplify drops input and output', async () => {
		api()
			.get('/agents/agt_1/runs')
			.query({ page: '1', pageSize: '1' })
			.reply(200, {
				data: [runRecord('run_1')],
				meta: { page: 1, pageSize: 1, total: 5, hasMore: true },
			});

		const { items } = await run({
			operation: 'getAll',
			agentId: byId('agt_1'),
			returnAll: false,
			limit: 1,
			simplify: true,
		});

		expect(jsonOf(items)).toEqual([
			{
				id: 'run_1',
				agentId: 'agt_1',
				status: 'success',
				requestId: 'req_1',
				summary: 'Draft quote OFF-0007 created',
				error: null,
				startedAt: '2026-11-20T09:00:00Z',
				finishedAt: '2026-11-20T09:00:02Z',
			},
		]);
	});

	it('a key without agents.read gets the missing scope named', async () => {
		api()
			.get('/agents/agt_1/runs')
			.query(true)
			.reply(403, {
				error: {
					code: 'insufficient_scope',
					message: 'This API key lacks the scope "agents.read"',
				},
			});

		await expect(run({ operation: 'getAll', agentId: byId('agt_1') })).rejects.toMatchObject({
			httpCode: '403',
			errorResponse: { code: 'insufficient_scope', scope: 'agents.read' },
		});
	});
});

describe('Agent Run: run list search', () => {
	it('lists the runs of the agent chosen in the Agent field', async () => {
		api()
			.get('/agents/agt_2/runs')
			.query({ page: '1', pageSize: '100' })
			.reply(200, {
				data: [
					{ id: 'run_8', status: 'failed', startedAt: '2026-11-20T10:00:00Z' },
					{ id: 'run_9', status: 'success', startedAt: '2026-11-20T11:00:00Z' },
				],
				meta: { page: 1, pageSize: 100, total: 120, hasMore: true },
			});

		const result = await runListSearch(node, 'searchAgentRuns', {
			resource: 'agentRun',
			operation: 'get',
			agentId: { __rl: true, mode: 'list', value: 'agt_2' },
		});

		expect(result).toEqual({
			results: [
				{ name: 'run_8 · failed · 2026-11-20T10:00:00Z', value: 'run_8' },
				{ name: 'run_9 · success · 2026-11-20T11:00:00Z', value: 'run_9' },
			],
			paginationToken: '2',
		});
	});

	it('lists nothing, and asks nothing, while no agent is chosen', async () => {
		const result = await runListSearch(node, 'searchAgentRuns', {
			resource: 'agentRun',
			operation: 'get',
			agentId: { __rl: true, mode: 'list', value: '' },
		});

		expect(result).toEqual({ results: [] });
	});
});
