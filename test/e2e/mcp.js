// Business Ops Tool nodes behind the MCP Server Trigger in real n8n, called by a real MCP client
// (@modelcontextprotocol/sdk, streamable HTTP): list the tools, call Get and Create.
'use strict';

const crypto = require('node:crypto');

const assert = require('node:assert/strict');
const h = require('./harness');

const TRIGGER = 'MCP Server Trigger';

function mcpWorkflow(ctx, mcpPath) {
	const tool = (name, parameters) =>
		h.node(
			name,
			`${h.rt.NODE_TYPES.action}Tool`,
			{ descriptionType: 'auto', ...parameters },
			{ credentials: h.credentialRef(ctx.credentials.admin) },
		);
	const nodes = [
		h.node(
			TRIGGER,
			'@n8n/n8n-nodes-langchain.mcpTrigger',
			{ path: mcpPath },
			{ typeVersion: 2, webhookId: crypto.randomUUID() },
		),
		tool('Get contact', {
			resource: 'contact',
			operation: 'get',
			contactId: {
				__rl: true,
				mode: 'id',
				value: "={{ $fromAI('contactId', 'ID of the contact', 'string') }}",
			},
		}),
		tool('Create contact', {
			resource: 'contact',
			operation: 'create',
			name: "={{ $fromAI('name', 'Full name', 'string') }}",
			additionalFields: {
				email: "={{ $fromAI('email', 'E-mail address; empty when unknown', 'string') }}",
			},
		}),
	];
	const toTrigger = { ai_tool: [[{ node: TRIGGER, type: 'ai_tool', index: 0 }]] };
	return {
		name: `e2e mcp ${Date.now()}`,
		nodes,
		connections: { 'Get contact': toTrigger, 'Create contact': toTrigger },
		settings: { executionOrder: 'v1' },
	};
}

/** The JSON an MCP tool result carries in its text content. */
function resultJson(result) {
	const text = (result.content || []).map((c) => c.text).join('');
	try {
		return JSON.parse(text);
	} catch {
		throw new Error(`the tool answered no JSON: ${text.slice(0, 300)}`);
	}
}

module.exports = {
	area: 'mcp',
	steps: [
		{
			name: 'An MCP client lists the Business Ops tools and calls Get and Create (streamable HTTP)',
			timeoutMs: 180_000,
			async run(ctx) {
				const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
				const {
					StreamableHTTPClientTransport,
				} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
				const mcpPath = `business-ops-e2e-${Date.now()}`;
				const wf = await ctx.client.createWorkflow(mcpWorkflow(ctx, mcpPath));
				await ctx.client.publishWorkflow(wf.id);
				const url = `${ctx.n8n.baseUrl}/mcp/${mcpPath}`;
				const probe = {
					method: 'DELETE',
					headers: { 'mcp-session-id': 'probe', connection: 'close' },
				};
				// publishing returns before the trigger's webhooks answer; an unknown session is the MCP server's own 404
				const served = async () =>
					!/is not registered/.test(await (await fetch(url, probe)).text());
				await h
					.waitFor(served, { timeoutMs: 30_000, what: `n8n to serve ${url}` })
					.catch(async (e) => {
						const stored = await ctx.client.rest('GET', `/workflows/${wf.id}`);
						throw new Error(
							`${e.message}; workflow active: ${stored.active}, activeVersionId: ${stored.activeVersionId}`,
						);
					});
				const client = new Client({ name: 'business-ops-e2e', version: '1.0.0' });
				try {
					await client.connect(new StreamableHTTPClientTransport(new URL(url)));
					const { tools } = await client.listTools();
					const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
					assert.deepEqual(Object.keys(byName).sort(), ['Create_contact', 'Get_contact']);
					assert.equal(byName.Get_contact.description, 'Get a contact in Business Ops');
					assert.equal(byName.Get_contact.inputSchema.properties.contactId.type, 'string');
					assert.deepEqual(Object.keys(byName.Create_contact.inputSchema.properties).sort(), [
						'email',
						'name',
					]);

					const id = await h.sandboxFirstId(ctx, 'contacts');
					const got = [].concat(
						resultJson(
							await client.callTool({ name: 'Get_contact', arguments: { contactId: id } }),
						),
					)[0];
					assert.equal(got.id, id);
					h.checkOutputSchema({ resource: 'contact', operation: 'get' }, [got]);
					const name = `MCP contact ${Date.now()}`;
					const created = [].concat(
						resultJson(
							await client.callTool({ name: 'Create_contact', arguments: { name, email: '' } }),
						),
					)[0];
					h.checkOutputSchema({ resource: 'contact', operation: 'create' }, [created]);
					const stored = await h.sandboxGet(ctx, `/contacts/${created.id}`);
					assert.equal(stored.name, name);
					assert.ok(!stored.email, `"" was sent as the e-mail: ${JSON.stringify(stored)}`);
					return `${tools.length} tools; get ${id}; created ${created.id}`;
				} finally {
					await client.close().catch(() => {});
					await ctx.client.unpublishWorkflow(wf.id).catch(() => {});
				}
			},
		},
		{
			name: 'The outputs the e2e runs saw matched their output schemas',
			async run(ctx) {
				// with every area, this lists what they ran; alone, it checks a Get and a Get Many itself
				h.expectSuccess(
					await h.runOperation(ctx, {
						resource: 'contact',
						operation: 'getAll',
						returnAll: false,
						limit: 5,
					}),
				);
				h.expectSuccess(
					await h.runOnRecord(ctx, 'contact', 'get', await h.sandboxFirstId(ctx, 'contacts')),
				);
				const unchecked = [...h.ranOperations].filter((op) => !h.checkedSchemas.has(op)).sort();
				assert.deepEqual(
					unchecked,
					[],
					'operations that ran without their output compared with the output schema',
				);
				return `all ${h.ranOperations.size} operations that ran were checked: ${[...h.checkedSchemas].sort().join(', ')}`;
			},
		},
	],
};
