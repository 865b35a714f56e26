// Business Ops Tool under the AI Agent (v3 and 2.2) with a scripted model (fakeOpenAi.js), in real
// n8n: the tool schema the model received, what the sandbox received, the agent's answer; the
// template in templates/; the output schemas n8n serves.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const assert = require('node:assert/strict');
const h = require('./harness');

const { startFakeOpenAi, lastToolResult } = require('./fakeOpenAi');

/** Every contact in the sandbox (earlier areas add more than one page). */
async function allContacts(ctx) {
	const contacts = [];
	for (let page = 1; page <= 50; page++) {
		const batch = await h.sandboxGet(ctx, `/contacts?pageSize=100&page=${page}`);
		contacts.push(...batch);
		if (batch.length < 100) break;
	}
	return contacts;
}

const TEMPLATE = path.join(
	__dirname,
	'..',
	'..',
	'templates',
	'answer-customer-request-with-ai-agent.json',
);
const TRIGGER = 'When clicking ‘Execute workflow’';
const AGENT = 'AI Agent';
const MODEL = 'OpenAI Chat Model';

const toolType = () => `${h.rt.NODE_TYPES.action}Tool`;
const fromAi = (key, description, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;
const locatorFromAi = (key, description) => ({
	__rl: true,
	mode: 'id',
	value: fromAi(key, description),
});

/** The OpenAI credential pointing at the fake model (1.123 also wants its domain allowance). */
async function modelCredential(ctx, baseUrl) {
	const credential = {
		name: 'Fake OpenAI (e2e)',
		type: 'openAiApi',
		data: { apiKey: 'sk-e2e-not-a-key', url: baseUrl },
	};
	if (ctx.client.major >= 2) return ctx.client.createCredential(credential);
	// 1.123's public API refuses the domain allowance its credential needs; the editor's REST API takes it
	credential.data.allowedHttpRequestDomains = 'all';
	return ctx.client.rest('POST', '/credentials', credential);
}

/** Manual Trigger → AI Agent, with the OpenAI Chat Model and the given Business Ops Tool nodes. */
function agentWorkflow(ctx, { agentVersion, prompt, tools }) {
	const connections = {
		[TRIGGER]: { main: [[{ node: AGENT, type: 'main', index: 0 }]] },
		[MODEL]: { ai_languageModel: [[{ node: AGENT, type: 'ai_languageModel', index: 0 }]] },
	};
	const nodes = [
		h.node(TRIGGER, 'n8n-nodes-base.manualTrigger', {}),
		h.node(
			AGENT,
			'@n8n/n8n-nodes-langchain.agent',
			{ promptType: 'define', text: prompt, options: { enableStreaming: false } },
			{ typeVersion: agentVersion },
		),
		h.node(
			MODEL,
			'@n8n/n8n-nodes-langchain.lmChatOpenAi',
			{ model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: {} },
			{
				typeVersion: 1.2,
				credentials: {
					openAiApi: { id: ctx.state.ai.credential.id, name: ctx.state.ai.credential.name },
				},
			},
		),
	];
	for (const tool of tools) {
		nodes.push(
			h.node(
				tool.name,
				toolType(),
				{ descriptionType: 'auto', ...tool.parameters },
				{ credentials: h.credentialRef(ctx.credentials.admin), ...tool.extra },
			),
		);
		connections[tool.name] = { ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] };
	}
	return { name: `e2e ai ${Date.now()}`, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** Runs a workflow; returns the agent's answer, the execution and the requests the model received. */
async function runAgent(ctx, workflow) {
	const wf = await ctx.client.createWorkflow(workflow);
	const execution = await ctx.client.runManually(wf.id, { timeoutMs: 180_000 }).catch((e) => {
		throw new Error(
			`running workflow ${wf.id}: ${e.message}${e.cause ? ` (${e.cause.message || e.cause})` : ''}`,
		);
	});
	const out = h.rt.nodeOutput(execution, AGENT) || [];
	if (execution.status !== 'success') {
		const err = h.rt.executionError(execution);
		throw new Error(
			`agent execution ${execution.id} ended "${execution.status}": ${JSON.stringify(err?.message || err)}`,
		);
	}
	return {
		answer: String(out[0]?.output ?? ''),
		execution,
		calls: ctx.state.ai.fake.calls.slice(),
	};
}

/** The tools the model was offered in its first request, by name. */
function offeredTools(calls) {
	assert.ok(calls.length >= 2, `the model was asked ${calls.length} time(s); a tool call needs 2`);
	const tools = Object.fromEntries(
		(calls[0].tools || []).map((t) => [t.function.name, t.function]),
	);
	return new Proxy(tools, {
		get: (all, name) => {
			if (typeof name === 'string' && !(name in all))
				throw new Error(`the model was not offered "${name}", only ${Object.keys(all).join(', ')}`);
			return all[name];
		},
	});
}

/** Two-turn script: call the one offered tool (or the named one) with `args`, then answer with what it returned. */
function callThenAnswer(args, prefix, tool = (names) => names[0]) {
	return (body, n) =>
		n === 1 ? { tool, args } : { content: `${prefix}: ${lastToolResult(body)}` };
}

/** The agent's tool: Contact → Get, the ID from the model. */
const GET_CONTACT_TOOL = {
	name: 'Get contact',
	parameters: {
		resource: 'contact',
		operation: 'get',
		contactId: locatorFromAi('contactId', 'ID of the contact'),
	},
};

module.exports = {
	area: 'ai',
	async before(ctx) {
		const fake = await startFakeOpenAi();
		ctx.state.ai = { fake, credential: await modelCredential(ctx, fake.baseUrl) };
	},
	steps: [
		{
			name: 'Agent v3 gets a contact by ID: tool schema, request, answer',
			timeoutMs: 240_000,
			async run(ctx) {
				const id = await h.sandboxFirstId(ctx, 'contacts');
				ctx.state.ai.fake.script(callThenAnswer({ contactId: id }, 'Found'));
				ctx.sandbox.control.clearRequestLog();
				const { answer, calls } = await runAgent(
					ctx,
					agentWorkflow(ctx, {
						agentVersion: 3,
						prompt: `Who is contact ${id}?`,
						tools: [
							{
								...GET_CONTACT_TOOL,
							},
						],
					}),
				);
				const tools = offeredTools(calls);
				assert.deepEqual(Object.keys(tools), ['Get_contact']);
				assert.equal(tools.Get_contact.description, 'Get a contact in Business Ops');
				assert.deepEqual(tools.Get_contact.parameters.properties.contactId, {
					type: 'string',
					description: 'ID of the contact',
				});
				assert.deepEqual(tools.Get_contact.parameters.required, ['contactId']);
				const gets = ctx.sandbox.control
					.requestLog()
					.filter((e) => e.method === 'GET' && e.path === `/v1/contacts/${id}`);
				assert.equal(
					gets.length,
					1,
					JSON.stringify(ctx.sandbox.control.requestLog().map((e) => `${e.method} ${e.path}`)),
				);
				assert.match(answer, new RegExp(`^Found: .*${id}`));
				return `tool Get_contact(contactId: string); GET ${gets[0].path}; answer ${answer.length} chars`;
			},
		},
		{
			name: 'Agent v3 creates a contact; "" for unknown optional arguments sends nothing',
			timeoutMs: 240_000,
			async run(ctx) {
				const name = `AI contact ${Date.now()}`;
				ctx.state.ai.fake.script(
					callThenAnswer({ name, email: '', phone: '', billingCountry: 'NL' }, 'Created'),
				);
				const { answer, calls } = await runAgent(
					ctx,
					agentWorkflow(ctx, {
						agentVersion: 3,
						prompt: `Create a contact named ${name} in the Netherlands.`,
						tools: [
							{
								name: 'Create contact',
								parameters: {
									resource: 'contact',
									operation: 'create',
									name: fromAi('name', 'Full name'),
									additionalFields: {
										email: fromAi('email', 'E-mail address; empty when unknown'),
										phone: fromAi('phone', 'Phone number; empty when unknown'),
										billingCountry: fromAi('billingCountry', 'Two-letter country code'),
									},
								},
							},
						],
					}),
				);
				const schema = offeredTools(calls).Create_contact.parameters;
				assert.deepEqual(Object.keys(schema.properties).sort(), [
					'billingCountry',
					'email',
					'name',
					'phone',
				]);
				const created = (await allContacts(ctx)).find((c) => c.name === name);
				assert.ok(created, `the sandbox has no contact named ${name}; answer: ${answer}`);
				assert.equal(created.billingCountry, 'NL');
				assert.ok(!created.email && !created.phone, `"" was sent: ${JSON.stringify(created)}`);
				assert.match(answer, /^Created: /);
				return `${created.id}: email ${created.email}, phone ${created.phone}, billingCountry ${created.billingCountry}`;
			},
		},
		{
			name: 'Agent 2.2 creates a quote whose line items come as one JSON string argument',
			timeoutMs: 240_000,
			async run(ctx) {
				const contactId = await h.sandboxFirstId(ctx, 'contacts');
				const items = [
					{ name: 'Consulting day', quantity: 2, unitPrice: 850 },
					{ name: 'Travel', quantity: 1, unitPrice: 120, vatPercentage: 21 },
				];
				ctx.state.ai.fake.script(
					callThenAnswer({ contactId, items: JSON.stringify(items) }, 'Quote drafted'),
				);
				const { answer, calls } = await runAgent(
					ctx,
					agentWorkflow(ctx, {
						agentVersion: 2.2,
						prompt: `Quote two consulting days and travel for ${contactId}.`,
						tools: [
							{
								name: 'Create quote',
								parameters: {
									resource: 'quote',
									operation: 'create',
									contactId: locatorFromAi('contactId', 'ID of the contact'),
									itemsInput: 'json',
									itemsJson: fromAi('items', 'JSON array of line items'),
								},
							},
						],
					}),
				);
				assert.equal(offeredTools(calls).Create_quote.parameters.properties.items.type, 'string');
				const quote = JSON.parse(lastToolResult(calls[1]).replace(/^[^[{]*/, ''));
				const record = Array.isArray(quote) ? quote[0] : quote;
				const stored = await h.sandboxGet(ctx, `/quotes/${record.id}`);
				assert.equal(stored.contactId, contactId);
				assert.deepEqual(
					stored.items.map((i) => [i.name, i.quantity, i.unitPrice]),
					items.map((i) => [i.name, i.quantity, i.unitPrice]),
				);
				assert.match(answer, new RegExp(`^Quote drafted: .*${record.id}`));
				return `${stored.id} (${stored.status}): ${stored.items.length} items, total ${stored.total}`;
			},
		},
		{
			name: 'Agent 2.2 lists customer requests with a Status filter and a Limit from the model',
			timeoutMs: 240_000,
			async run(ctx) {
				ctx.state.ai.fake.script(callThenAnswer({ status: 'new', limit: 2 }, 'Open requests'));
				ctx.sandbox.control.clearRequestLog();
				const { answer, calls } = await runAgent(
					ctx,
					agentWorkflow(ctx, {
						agentVersion: 2.2,
						prompt: 'Which new customer requests are there? Two are enough.',
						tools: [
							{
								name: 'List requests',
								parameters: {
									resource: 'request',
									operation: 'getAll',
									returnAll: false,
									limit: fromAi('limit', 'How many requests at most', 'number'),
									filters: {
										status: fromAi(
											'status',
											'Status: new, processing, processed, failed or archived',
										),
									},
								},
							},
						],
					}),
				);
				const schema = offeredTools(calls).List_requests.parameters;
				assert.equal(schema.properties.limit.type, 'number');
				assert.equal(schema.properties.status.type, 'string');
				const lists = ctx.sandbox.control
					.requestLog()
					.filter((e) => e.method === 'GET' && e.path === '/v1/requests');
				assert.ok(
					lists.length >= 1 && lists.every((e) => e.query.status === 'new'),
					JSON.stringify(lists.map((e) => e.query)),
				);
				const listed = JSON.parse(lastToolResult(calls[1]));
				assert.ok(
					Array.isArray(listed) && listed.length <= 2 && listed.every((r) => r.status === 'new'),
					lastToolResult(calls[1]).slice(0, 300),
				);
				assert.match(answer, /^Open requests: /);
				return `query ${JSON.stringify(lists[0].query)}; ${listed.length} request(s) reached the model`;
			},
		},
		{
			name: 'An unknown ID: the error reaches the model as the tool result, worded for the model, naming its argument',
			timeoutMs: 240_000,
			async run(ctx) {
				ctx.state.ai.fake.script(callThenAnswer({ contactId: 'ctc_does_not_exist' }, 'Sorry'));
				// 2.x gives a tool error to the model; 1.123 fails the workflow unless the tool continues on error
				const extra = ctx.client.major < 2 ? { onError: 'continueRegularOutput' } : {};
				const { answer, calls } = await runAgent(
					ctx,
					agentWorkflow(ctx, {
						agentVersion: 3,
						prompt: 'Who is contact ctc_does_not_exist?',
						tools: [
							{
								...GET_CONTACT_TOOL,
								extra,
							},
						],
					}),
				);
				const result = lastToolResult(calls[1]);
				assert.match(result, /not found|404/i);
				// names the argument the model sees (the $fromAI key the node reads from its own
				// parameters), in the message: Agent v3 on 2.41 hands the model the message only
				assert.match(result, /\\?"contactId\\?" argument/); // the tool result is JSON: its quotes escaped
				assert.doesNotMatch(result, /\[item \d+\]|Base URL|run the node/i);
				assert.match(answer, /^Sorry: /);
				return `the model read: ${result.slice(0, 160)}`;
			},
		},
		{
			name: 'The template templates/answer-customer-request-with-ai-agent.json imports and runs',
			template: path.basename(TEMPLATE),
			timeoutMs: 240_000,
			async run(ctx) {
				const template = JSON.parse(fs.readFileSync(TEMPLATE, 'utf8'));
				const contactId = await h.sandboxFirstId(ctx, 'contacts');
				for (const n of template.nodes) {
					assert.equal(n.credentials, undefined, `the template chooses a credential for ${n.name}`);
					if (n.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')
						n.credentials = {
							openAiApi: { id: ctx.state.ai.credential.id, name: ctx.state.ai.credential.name },
						};
					if (n.type === toolType()) n.credentials = h.credentialRef(ctx.credentials.admin);
					if (n.type === 'n8n-nodes-base.set') {
						const a = n.parameters.assignments.assignments[0];
						a.value = a.value.replace('ctc_REPLACE_ME', contactId);
					}
				}
				const items = JSON.stringify([{ name: 'Consulting day', quantity: 2, unitPrice: 850 }]);
				ctx.state.ai.fake.script((body, n) => {
					if (n === 1) return { tool: 'Get_contact', args: { contactId } };
					if (n === 2) return { tool: 'Create_quote', args: { contactId, items } };
					return { content: `Your quote: ${lastToolResult(body)}` };
				});
				const { answer, calls } = await runAgent(ctx, {
					...template,
					name: `e2e template ${Date.now()}`,
				});
				assert.deepEqual(Object.keys(offeredTools(calls)).sort(), ['Create_quote', 'Get_contact']);
				assert.match(calls[0].messages.map((m) => m.content).join('\n'), new RegExp(contactId));
				const quoteText = lastToolResult(calls[2]);
				const quote = [].concat(JSON.parse(quoteText))[0];
				assert.equal((await h.sandboxGet(ctx, `/quotes/${quote.id}`)).contactId, contactId);
				assert.match(answer, new RegExp(quote.id));
				return `${calls.length} model calls; quote ${quote.id} for ${contactId}`;
			},
		},
		{
			name: 'n8n serves the output schema of an operation to the editor',
			async run(ctx) {
				const res = await ctx.client.request(
					'GET',
					`/schemas/${h.rt.NODE_TYPES.action}/1.0.0/contact/get.json`,
				);
				const committed = JSON.parse(
					fs.readFileSync(
						path.join(
							__dirname,
							'..',
							'..',
							'nodes',
							'BusinessOps',
							'__schema__',
							'v1.0.0',
							'contact',
							'get.json',
						),
						'utf8',
					),
				);
				assert.deepEqual(res.body, committed);
				return `GET /schemas/…/1.0.0/contact/get.json: ${Object.keys(res.body.properties).length} properties`;
			},
		},
	],
};
