// n8n (2.x or 1.123) knows this package's node types and credential type once its Community Nodes
// installer has installed the package (the runner's setup).
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

module.exports = {
	area: 'startup',
	steps: [
		{
			name: `node type ${h.rt.NODE_TYPES.action} is loaded`,
			async run(ctx) {
				const types = await ctx.client.nodeTypes();
				const names = types.map((t) => t.name);
				const action = types.find((t) => t.name === h.rt.NODE_TYPES.action);
				assert.ok(
					action,
					`n8n does not know ${h.rt.NODE_TYPES.action}; types of the package: ${names.filter((n) => n.startsWith(`${h.rt.PACKAGE_NAME}.`)).join(', ') || 'none'}`,
				);
				assert.deepEqual(
					action.credentials.map((c) => c.name),
					[h.rt.CREDENTIAL_TYPE],
				);
				const resources = action.properties
					.find((p) => p.name === 'resource')
					.options.map((o) => o.value)
					.filter((v) => v !== h.CUSTOM_API_CALL);
				return `${resources.length} resources: ${resources.join(', ')}`;
			},
		},
		{
			name: `node type ${h.rt.NODE_TYPES.trigger} is loaded`,
			async run(ctx) {
				const types = await ctx.client.nodeTypes();
				const trigger = types.find((t) => t.name === h.rt.NODE_TYPES.trigger);
				assert.ok(trigger, `n8n does not know ${h.rt.NODE_TYPES.trigger}`);
				assert.ok(trigger.webhooks?.length, 'the trigger declares no webhook');
				return `webhooks: ${trigger.webhooks.map((w) => w.name).join(', ')}`;
			},
		},
		{
			name: `node type ${h.rt.NODE_TYPES.pollingTrigger} is loaded, with n8n's Poll Times`,
			async run(ctx) {
				const types = await ctx.client.nodeTypes();
				const poller = types.find((t) => t.name === h.rt.NODE_TYPES.pollingTrigger);
				assert.ok(poller, `n8n does not know ${h.rt.NODE_TYPES.pollingTrigger}`);
				assert.equal(poller.polling, true);
				const names = poller.properties.map((p) => p.name);
				assert.ok(names.includes('pollTimes'), `no Poll Times field: ${names.join(', ')}`);
				return `properties: ${names.join(', ')}`;
			},
		},
		{
			name: `credential type ${h.rt.CREDENTIAL_TYPE} is loaded`,
			async run(ctx) {
				const types = await ctx.client.credentialTypes();
				const cred = types.find((t) => t.name === h.rt.CREDENTIAL_TYPE);
				assert.ok(cred, `n8n does not know the credential type ${h.rt.CREDENTIAL_TYPE}`);
				const fields = cred.properties.map((p) => p.name);
				assert.ok(
					fields.includes('apiKey') && fields.includes('baseUrl'),
					`credential fields: ${fields.join(', ')}`,
				);
				return `"${cred.displayName}": ${fields.join(', ')}`;
			},
		},
	],
};
