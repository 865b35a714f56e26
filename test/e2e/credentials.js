// The credential test (the editor's "Retry" / save check, and on n8n 2.x the public API's test)
// against the sandbox: passes for a real key, fails with the package's own explanation for a wrong
// or malformed key (on n8n 1.123 too, where the HTTP status of a failed test request is lost).
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

/** The editor's test and (2.x; 1.x has none) the public API's; `pub` mirrors `rest` on 1.x. */
async function both(ctx, cred, data) {
	const rest = await ctx.client.testCredential(cred.id, h.rt.CREDENTIAL_TYPE, data);
	const pub = ctx.client.major >= 2 ? await ctx.client.testCredentialPublic(cred.id) : rest;
	return { rest, pub };
}

module.exports = {
	area: 'credentials',
	steps: [
		{
			name: 'credential test passes with the admin key',
			async run(ctx) {
				ctx.sandbox.control.clearRequestLog();
				const { rest, pub } = await both(
					ctx,
					ctx.credentials.admin,
					h.rt.credentialData(ctx.sandbox, ctx.sandbox.keys.admin),
				);
				assert.equal(rest.status, 'OK', `REST test: ${rest.message}`);
				assert.equal(pub.status, 'OK', `public API test: ${pub.message}`);
				const hits = ctx.sandbox.control
					.requestLog()
					.filter((r) => /\/me$/.test(r.path || r.url || ''));
				// one GET /me per test: the editor's, and on 2.x the public API's
				assert.equal(
					hits.length,
					ctx.client.major >= 2 ? 2 : 1,
					`GET /me calls on the sandbox during the tests: ${hits.length}`,
				);
				return rest.message;
			},
		},
		{
			name: 'credential test passes with a read-only key',
			async run(ctx) {
				const { rest } = await both(
					ctx,
					ctx.credentials.readOnly,
					h.rt.credentialData(ctx.sandbox, ctx.sandbox.keys.readOnly),
				);
				assert.equal(rest.status, 'OK', rest.message);
				return rest.message;
			},
		},
		{
			name: 'credential test fails clearly for a revoked/unknown key (401)',
			async run(ctx) {
				const data = h.rt.credentialData(ctx.sandbox, `svc_${'A'.repeat(32)}`);
				const cred = await ctx.client.createCredential({
					name: 'Business Ops (unknown key)',
					type: h.rt.CREDENTIAL_TYPE,
					data,
				});
				try {
					const { rest, pub } = await both(ctx, cred, data);
					assert.equal(rest.status, 'Error');
					assert.equal(pub.status, 'Error');
					assert.match(
						rest.message,
						/^The API key was not accepted \(401\)/,
						`message: ${rest.message}`,
					);
					assert.equal(pub.message, rest.message, 'the public API test explains it differently');
					assert.ok(!rest.message.includes(data.apiKey), 'the message repeats the key');
					return `"${rest.message}"`;
				} finally {
					await ctx.client.deleteCredential(cred.id).catch(() => {});
				}
			},
		},
		{
			name: 'credential test fails clearly for a malformed key',
			async run(ctx) {
				const data = h.rt.credentialData(ctx.sandbox, 'not-a-key');
				const cred = await ctx.client.createCredential({
					name: 'Business Ops (malformed key)',
					type: h.rt.CREDENTIAL_TYPE,
					data,
				});
				try {
					const { rest } = await both(ctx, cred, data);
					assert.equal(rest.status, 'Error');
					assert.match(rest.message, /svc_/, `message: ${rest.message}`);
					return `"${rest.message.slice(0, 70)}…"`;
				} finally {
					await ctx.client.deleteCredential(cred.id).catch(() => {});
				}
			},
		},
		{
			name: "credential test fails for a Base URL where something else answers (n8n's own web page)",
			async run(ctx) {
				const data = { apiKey: ctx.sandbox.keys.admin, baseUrl: `${ctx.n8n.baseUrl}/v1` };
				const cred = await ctx.client.createCredential({
					name: 'Business Ops (not the API)',
					type: h.rt.CREDENTIAL_TYPE,
					data,
				});
				try {
					const { rest, pub } = await both(ctx, cred, data);
					assert.equal(
						rest.status,
						'Error',
						`the test passed against ${data.baseUrl}: ${rest.message}`,
					);
					assert.equal(pub.status, 'Error');
					assert.match(
						rest.message,
						/did not answer like the Business Ops API|Nothing answers at this Base URL/,
						`message: ${rest.message}`,
					);
					return `"${rest.message.slice(0, 80)}…"`;
				} finally {
					await ctx.client.deleteCredential(cred.id).catch(() => {});
				}
			},
		},
	],
};
