// Organization settings and the API key (Me) through the Business Ops node in real n8n.
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

/** Organization → Update with these fields; as h.runOperation. */
const updateOrganization = (ctx, updateFields) =>
	h.runOperation(ctx, { resource: 'organization', operation: 'update', updateFields });

module.exports = {
	area: 'organization',
	steps: [
		{
			name: 'API Key → Get shows the key scopes',
			async run(ctx) {
				ctx.requireOperation('me', 'get');
				const [me] = h.expectSuccess(
					await h.runOperation(ctx, { resource: 'me', operation: 'get' }, { key: 'readOnly' }),
				);
				assert.ok(
					Array.isArray(me.scopes) && me.scopes.includes('contacts.read'),
					JSON.stringify(me),
				);
				assert.ok(
					!JSON.stringify(me).includes(ctx.sandbox.keys.readOnly),
					'the whole key is in the output',
				);
				return `${me.prefix} ${me.scopes.length} scopes`;
			},
		},
		{
			name: 'Get and Update the organization settings',
			async run(ctx) {
				ctx.requireOperation('organization', 'get');
				ctx.requireOperation('organization', 'update');
				const [before] = h.expectSuccess(
					await h.runOperation(ctx, { resource: 'organization', operation: 'get' }),
				);
				assert.ok(before.legalName, JSON.stringify(before));
				const [after] = h.expectSuccess(
					await updateOrganization(ctx, { defaultPaymentTermsDays: 21 }),
				);
				assert.equal(after.defaultPaymentTermsDays, 21);
				return `${before.legalName}: payment terms ${before.defaultPaymentTermsDays} → ${after.defaultPaymentTermsDays} days`;
			},
		},
		{
			name: 'a contacts-only key gets 403 naming organization.read',
			async run(ctx) {
				ctx.requireOperation('organization', 'get');
				const r = await h.runOperation(
					ctx,
					{ resource: 'organization', operation: 'get' },
					{ key: 'contactsOnly' },
				);
				return h.refusal(r, /403|insufficient_scope/i, /organization\.read/);
			},
		},
		{
			name: 'an out-of-range VAT percentage is refused before or by the API (400)',
			async run(ctx) {
				ctx.requireOperation('organization', 'update');
				const r = await updateOrganization(ctx, { defaultVatPercentage: 150 });
				return h.refusal(r, /vat|percentage|100/i);
			},
		},
	],
};
