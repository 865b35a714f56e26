// The cost of a tool call: Contact → Get run by AI Agent v3 as "Business Ops Tool" against what an
// agent builder would use instead, n8n's own HTTP Request Tool doing the same GET with the same
// credential (predefined credential type) and the same URL, in the same n8n and the same run. The
// model is the scripted fake of the e2e run (test/e2e/fakeOpenAi.js), so no model time is counted,
// and both agents see one tool with the same name and the same one argument. Two rows: the tool
// node's own executionTime in n8n's execution record, and the execution's wall time.
'use strict';

const nw = require('./lib/n8n');
const { median, min, max, fmtMs, fmtRatio } = require('./lib/stats');
const { atMost } = require('./lib/table');
const { startFakeOpenAi, lastToolResult } = require('../test/e2e/fakeOpenAi');

const TOOL = 'Get contact';
const AGENT = 'AI Agent';
const MODEL = 'OpenAI Chat Model';
const TARGET = 1.1;
const CONTACT_ID_ARG = "$fromAI('contactId', 'ID of the contact', 'string')";

/** Manual Trigger → AI Agent v3 with the scripted model and one tool node named TOOL. */
function agentWorkflow(name, tool, model) {
	return {
		...nw.workflow(name, [
			nw.manualTrigger(),
			nw.node(
				AGENT,
				'@n8n/n8n-nodes-langchain.agent',
				{ promptType: 'define', text: 'Who is the contact?', options: { enableStreaming: false } },
				{ typeVersion: 3 },
			),
			nw.node(
				MODEL,
				'@n8n/n8n-nodes-langchain.lmChatOpenAi',
				{ model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: {} },
				{
					typeVersion: 1.2,
					credentials: { openAiApi: { id: model.id, name: model.name } },
				},
			),
			tool,
		]),
		connections: {
			[nw.MANUAL]: { main: [[{ node: AGENT, type: 'main', index: 0 }]] },
			[MODEL]: { ai_languageModel: [[{ node: AGENT, type: 'ai_languageModel', index: 0 }]] },
			[TOOL]: { ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] },
		},
	};
}

async function run(ctx) {
	const { client, log, sandbox } = ctx;
	const rounds = ctx.quick ? 3 : 15;
	const key = sandbox.control.createKey({
		scopes: ['contacts.read', 'contacts.write'],
		name: 'bench-ai-tool',
	});
	const created = await fetch(`${sandbox.baseUrl}/contacts`, {
		method: 'POST',
		headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'Bench tool contact', type: 'business' }),
	}).then((r) => r.json());
	const contactId = created.data.id;
	const fake = await startFakeOpenAi();
	try {
		fake.script((body, n) =>
			n % 2 === 1
				? { tool: TOOL.replace(' ', '_'), args: { contactId } }
				: { content: `Found ${lastToolResult(body)}` },
		);
		const cred = await client.createCredential({
			name: 'bench AI tool (Business Ops)',
			type: nw.rt.CREDENTIAL_TYPE,
			data: { ...nw.rt.credentialData(sandbox, key.key), requestsPerMinute: 1_000_000 },
		});
		const credentials = nw.businessOpsCredential(cred);
		const model = await client.createCredential({
			name: 'bench fake OpenAI',
			type: 'openAiApi',
			data: { apiKey: 'sk-bench', url: fake.baseUrl },
		});
		const packageTool = nw.node(
			TOOL,
			`${nw.rt.NODE_TYPES.action}Tool`,
			{
				descriptionType: 'auto',
				resource: 'contact',
				operation: 'get',
				contactId: { __rl: true, mode: 'id', value: `={{ ${CONTACT_ID_ARG} }}` },
			},
			{ credentials },
		);
		const httpTool = nw.node(
			TOOL,
			'n8n-nodes-base.httpRequestTool',
			{
				toolDescription: 'Get a contact in Business Ops',
				method: 'GET',
				url: `=${sandbox.baseUrl}/contacts/{{ ${CONTACT_ID_ARG} }}`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: nw.rt.CREDENTIAL_TYPE,
				options: {},
			},
			{ typeVersion: 4.2, credentials },
		);
		const packageWf = await client.createWorkflow(
			agentWorkflow('bench: Get contact as Business Ops Tool', packageTool, model),
		);
		const httpWf = await client.createWorkflow(
			agentWorkflow('bench: Get contact as HTTP Request Tool', httpTool, model),
		);

		const toolRun = (workflowId, label) => async () => {
			const ex = await nw.runWorkflow(client, workflowId);
			const r = nw.nodeRun(ex, TOOL);
			const a = nw.nodeRun(ex, AGENT);
			if (ex.status !== 'success' || !r || !a)
				throw new Error(
					`the ${label} agent run ended "${ex.status}": ${r?.error || a?.error || 'the tool did not run'}`,
				);
			const answer = String(a.items[0]?.output ?? '');
			if (!answer.includes(contactId))
				throw new Error(`the ${label} agent did not get the contact back: ${answer.slice(0, 200)}`);
			return { tool: r.executionTime, agent: Date.parse(ex.stoppedAt) - Date.parse(ex.startedAt) };
		};
		const contenders = {
			package: toolRun(packageWf.id, 'Business Ops Tool'),
			http: toolRun(httpWf.id, 'HTTP Request Tool'),
		};
		for (const name of Object.keys(contenders)) await contenders[name](); // warm-up, not counted
		const results = { package: [], http: [] };
		for (let round = 0; round < rounds; round++) {
			for (const name of round % 2 ? ['http', 'package'] : ['package', 'http'])
				results[name].push(await contenders[name]());
			const [p, h] = [results.package[round], results.http[round]];
			log(
				`round ${round + 1}/${rounds}: Business Ops Tool ${fmtMs(p.tool)} (agent ${fmtMs(p.agent)}), HTTP Request Tool ${fmtMs(h.tool)} (agent ${fmtMs(h.agent)})`,
			);
		}
		for (const [figure, what] of [
			['tool', "the tool node's executionTime in n8n's execution record"],
			['agent', "the execution's wall time (startedAt to stoppedAt: agent, two model calls, tool)"],
		]) {
			const ours = results.package.map((r) => r[figure]);
			const theirs = results.http.map((r) => r[figure]);
			const ratio = median(ours.map((t, i) => t / theirs[i]));
			ctx.row({
				section: 'AI agents',
				name:
					figure === 'tool'
						? 'One tool call: Contact → Get as Business Ops Tool vs the same GET as HTTP Request Tool (tool node, AI Agent v3)'
						: 'One agent run with that tool call (scripted model): Business Ops Tool vs HTTP Request Tool',
				measured: fmtMs(median(ours)),
				baseline: `HTTP Request Tool ${fmtMs(median(theirs))}`,
				ratio,
				target: `<= ${TARGET.toFixed(2)}x`,
				verdict: atMost(ratio, TARGET),
				detail: `${rounds} rounds after a warm-up, order alternated, median of the per-round ratios; ${what}: Business Ops Tool ${fmtMs(min(ours))}–${fmtMs(max(ours))}, HTTP Request Tool ${fmtMs(min(theirs))}–${fmtMs(max(theirs))} (fastest against fastest ${fmtRatio(min(ours) / min(theirs))}); same credential, same URL, same tool name and argument`,
			});
		}
	} finally {
		await fake.close();
	}
}

module.exports = { run };
