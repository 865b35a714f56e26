// The cost of a tool call: Contact → Get run by AI Agent v3 as "Business Ops Tool" (the model is
// the scripted fake of the e2e run, test/e2e/fakeOpenAi.js, so no model time is counted) against
// the same operation as a plain Business Ops node, in the same n8n and the same run. Both figures
// are the node's own executionTime in n8n's execution record; the agent's whole time is a detail.
'use strict';

const nw = require('./lib/n8n');
const { median, min, max, fmtMs } = require('./lib/stats');
const { atMost } = require('./lib/table');
const { startFakeOpenAi, lastToolResult } = require('../test/e2e/fakeOpenAi');

const TOOL = 'Get contact';
const AGENT = 'AI Agent';

async function run(ctx) {
	const { client, log } = ctx;
	const { sandbox } = ctx;
	const rounds = ctx.quick ? 2 : 7;
	const key = sandbox.control.createKey({ scopes: ['contacts.read', 'contacts.write'], name: 'bench-ai-tool' });
	const created = await fetch(`${sandbox.baseUrl}/contacts`, {
		method: 'POST',
		headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'Bench tool contact', type: 'business' }),
	}).then((r) => r.json());
	const contactId = created.data.id;
	const fake = await startFakeOpenAi();
	try {
		fake.script((body, n) => (n % 2 === 1 ? { tool: TOOL.replace(' ', '_'), args: { contactId } } : { content: `Found ${lastToolResult(body)}` }));
		const cred = await client.createCredential({
			name: 'bench AI tool (Business Ops)',
			type: nw.rt.CREDENTIAL_TYPE,
			data: { ...nw.rt.credentialData(sandbox, key.key), requestsPerMinute: 1_000_000 },
		});
		const model = await client.createCredential({ name: 'bench fake OpenAI', type: 'openAiApi', data: { apiKey: 'sk-bench', url: fake.baseUrl } });
		const getContact = { resource: 'contact', operation: 'get', contactId: { __rl: true, mode: 'id', value: contactId } };
		const plainWf = await client.createWorkflow(
			nw.workflow('bench: Get contact as a node', [
				nw.manualTrigger(),
				nw.node('Business Ops', nw.rt.NODE_TYPES.action, getContact, { credentials: nw.businessOpsCredential(cred) }),
			]),
		);
		const toolParams = { ...getContact, descriptionType: 'auto', contactId: { ...getContact.contactId, value: "={{ $fromAI('contactId', 'ID of the contact', 'string') }}" } };
		const agentWf = await client.createWorkflow({
			...nw.workflow('bench: Get contact as an AI tool', [
				nw.manualTrigger(),
				nw.node(AGENT, '@n8n/n8n-nodes-langchain.agent', { promptType: 'define', text: `Who is ${contactId}?`, options: { enableStreaming: false } }, { typeVersion: 3 }),
				nw.node('OpenAI Chat Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', { model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: {} }, {
					typeVersion: 1.2,
					credentials: { openAiApi: { id: model.id, name: model.name } },
				}),
				nw.node(TOOL, `${nw.rt.NODE_TYPES.action}Tool`, toolParams, { credentials: nw.businessOpsCredential(cred) }),
			]),
			connections: {
				[nw.MANUAL]: { main: [[{ node: AGENT, type: 'main', index: 0 }]] },
				'OpenAI Chat Model': { ai_languageModel: [[{ node: AGENT, type: 'ai_languageModel', index: 0 }]] },
				[TOOL]: { ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] },
			},
		});

		const contenders = {
			node: async () => {
				const ex = await nw.runWorkflow(client, plainWf.id);
				const r = nw.nodeRun(ex, 'Business Ops');
				if (ex.status !== 'success' || r?.items[0]?.id !== contactId) throw new Error(`plain Get ended "${ex.status}": ${r?.error || ''}`);
				return { ms: r.executionTime };
			},
			tool: async () => {
				const ex = await nw.runWorkflow(client, agentWf.id);
				const r = nw.nodeRun(ex, TOOL);
				const a = nw.nodeRun(ex, AGENT);
				if (ex.status !== 'success' || !r || !a) throw new Error(`the agent run ended "${ex.status}": ${r?.error || a?.error || 'the tool did not run'}`);
				return { ms: r.executionTime, agentMs: a.executionTime };
			},
		};
		for (const name of Object.keys(contenders)) await contenders[name](); // warm-up, not counted
		const results = { node: [], tool: [], agent: [] };
		for (let round = 0; round < rounds; round++) {
			for (const name of round % 2 ? ['tool', 'node'] : ['node', 'tool']) {
				const r = await contenders[name]();
				results[name].push(r.ms);
				if (name === 'tool') results.agent.push(r.agentMs);
			}
			log(`round ${round + 1}/${rounds}: node ${fmtMs(results.node[round])}, tool ${fmtMs(results.tool[round])}`);
		}
		const ratio = median(results.tool.map((t, i) => t / results.node[i]));
		ctx.row({
			section: 'AI agents',
			name: 'One tool call (Contact → Get as Business Ops Tool under AI Agent v3) vs the same Get as a node',
			measured: fmtMs(median(results.tool)),
			baseline: `node ${fmtMs(median(results.node))}`,
			ratio,
			target: '<= 2x',
			verdict: atMost(ratio, 2),
			detail: `${rounds} rounds after a warm-up, order alternated; executionTime of the tool node (${fmtMs(min(results.tool))}–${fmtMs(max(results.tool))}) and of the plain node (${fmtMs(min(results.node))}–${fmtMs(max(results.node))}); the whole agent with a scripted model took ${fmtMs(median(results.agent))}`,
		});
	} finally {
		await fake.close();
	}
}

module.exports = { run };
