// Calls the Business Ops node does not cover: n8n adds "Custom API Call" to the node's resource and
// operation lists (as for its own nodes), pointing to the HTTP Request node, which offers
// "Business Ops API" as a predefined credential type and applies its base URL and key.
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

const HTTP = 'HTTP Request';

/** Manual Trigger → HTTP Request with the predefined credential type Business Ops API. */
function httpRequestWorkflow(ctx, url) {
	return {
		name: `e2e HTTP Request with Business Ops API ${Date.now()}`,
		nodes: [
			h.node('When clicking ‘Execute workflow’', 'n8n-nodes-base.manualTrigger', {}),
			h.node(
				HTTP,
				'n8n-nodes-base.httpRequest',
				{
					method: 'GET',
					url,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: h.rt.CREDENTIAL_TYPE,
					options: {},
				},
				{
					typeVersion: 4.2,
					position: [220, 0],
					credentials: h.credentialRef(ctx.credentials.admin),
				},
			),
		],
		connections: h.chain('When clicking ‘Execute workflow’', HTTP),
	};
}

module.exports = {
	area: 'customApi',
	steps: [
		{
			name: 'n8n offers "Custom API Call" in the resource list and every operation list of the node',
			async run(ctx) {
				const props = ctx.nodeType.properties;
				const resource = props.find((p) => p.name === 'resource');
				assert.equal(
					resource.options.at(-1).value,
					h.CUSTOM_API_CALL,
					`last resource: ${JSON.stringify(resource.options.at(-1))}`,
				);
				const operations = props.filter((p) => p.name === 'operation');
				const without = operations.filter(
					(p) => !p.options.some((o) => o.value === h.CUSTOM_API_CALL),
				);
				assert.deepEqual(
					without.map((p) => p.displayOptions?.show?.resource),
					[],
					'operation lists without Custom API Call',
				);
				const cred = (await ctx.client.credentialTypes()).find(
					(t) => t.name === h.rt.CREDENTIAL_TYPE,
				);
				assert.ok(
					cred.authenticate !== undefined,
					'the credential type n8n serves has no `authenticate` (the HTTP Request node would not offer it)',
				);
				assert.equal(cred.httpRequestNode?.name, 'Business Ops');
				return `resource list ends in "${resource.options.at(-1).name}"; ${operations.length} operation lists too; credential: authenticate, httpRequestNode (${cred.httpRequestNode.docsUrl})`;
			},
		},
		{
			name: 'an HTTP Request node with the predefined credential type "Business Ops API" calls the API with the key',
			async run(ctx) {
				const me = await h.sandboxGet(ctx, '/me');
				ctx.sandbox.control.clearRequestLog();
				const wf = await ctx.client.createWorkflow(
					httpRequestWorkflow(ctx, `${ctx.sandbox.baseUrl}/organization`),
				);
				const ex = await ctx.client.runManually(wf.id);
				const err = h.nodeError(ex, HTTP);
				assert.equal(ex.status, 'success', err ? `${err.message} | ${err.description}` : ex.status);
				const [out] = h.rt.nodeOutput(ex, HTTP);
				assert.ok(out?.data?.id, `HTTP Request output: ${JSON.stringify(out).slice(0, 200)}`);
				const calls = ctx.sandbox.control
					.requestLog()
					.filter((r) => r.method === 'GET' && /\/organization$/.test(r.path));
				assert.equal(calls.length, 1, `GET /organization calls: ${calls.length}`);
				assert.equal(calls[0].status, 200);
				assert.equal(
					calls[0].keyId,
					me.apiKeyId,
					'the request did not carry the admin key of the credential',
				);
				return `GET /organization → 200 with key ${me.apiKeyId}; organization ${out.data.id}`;
			},
		},
	],
};
