// Contacts through the Business Ops node in real n8n: Return All over more than 250 records,
// Limit, the create → get → update → delete cycle, Create or Update (matched on e-mail), and
// errors shown to the user.
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');

const TOTAL = 260;

const UPSERT = {
	resource: 'contact',
	operation: 'upsert',
	email: '={{ $json.email }}',
	name: '={{ $json.name }}',
	additionalFields: { phone: '={{ $json.phone }}' },
};

/** Contact → Get Many, Return All. */
const ALL_CONTACTS = { resource: 'contact', operation: 'getAll', returnAll: true };

/** The first contact Get Many returns, as a one-element array. */
async function firstContact(ctx) {
	return h.expectSuccess(await h.runGetMany(ctx, 'contact', 1));
}

module.exports = {
	area: 'contacts',
	steps: [
		h.returnAllStep('contact', TOTAL, 'records', (ctx, items) => {
			const pages = ctx.sandbox.control
				.requestLog()
				.filter((e) => e.method === 'GET' && /\/contacts$/.test(e.path));
			assert.ok(pages.length >= 3, `expected at least 3 page requests, saw ${pages.length}`);
			return `${items.length} records in ${pages.length} requests (pageSize ${pages.map((p) => p.query.pageSize).join('/')})`;
		}),
		{
			name: 'Return All under a tight rate limit: 429 answers are waited out, nothing is lost',
			async run(ctx) {
				ctx.requireOperation('contact', 'getAll');
				const control = ctx.sandbox.control;
				const previous = control.rateLimit();
				control.clearRequestLog();
				control.setRateLimit({ limit: 2, windowMs: 1500 });
				try {
					const r = await h.runOperation(ctx, ALL_CONTACTS);
					const items = h.expectSuccess(r);
					assert.equal(items.length, TOTAL);
					const log = control.requestLog().filter((e) => /\/contacts$/.test(e.path));
					const limited = log.filter((e) => e.status === 429).length;
					assert.ok(
						limited >= 1,
						`no request was rate limited (${log.map((e) => e.status).join(', ')})`,
					);
					return `${items.length} records; ${limited} answer(s) 429 retried`;
				} finally {
					control.setRateLimit(previous);
				}
			},
		},
		{
			name: 'Get Many with Limit 7 returns 7 records',
			async run(ctx) {
				ctx.requireOperation('contact', 'getAll');
				const items = h.expectSuccess(await h.runGetMany(ctx, 'contact', 7));
				assert.equal(items.length, 7);
			},
		},
		{
			name: 'Create or Update: creates, updates (e-mail in another case), two rows with one e-mail give one create and one update; one list read per run',
			async run(ctx) {
				ctx.requireOperation('contact', 'upsert');
				const control = ctx.sandbox.control;
				const stamp = Date.now();
				const fresh = `upsert-${stamp}@example.com`;
				const existing = (
					await h.sandboxSend(ctx, 'POST', '/contacts', {
						name: 'Bestaand',
						email: `Known-${stamp}@Example.com`,
					})
				).id;
				const total = control.seed({ resource: 'contacts', count: 1 }).total;
				control.clearRequestLog();
				const r = await h.runOnItems(
					ctx,
					[
						{ email: ` ${fresh} `, name: 'Nieuw', phone: '+31 20 555 0100' },
						{ email: `known-${stamp}@example.com`, name: 'Bestaand, bijgewerkt', phone: '' },
						{ email: fresh.toUpperCase(), name: 'Nieuw, tweede rij', phone: '+31 20 555 0199' },
					],
					UPSERT,
				);
				const items = h.expectSuccess(r);
				assert.deepEqual(
					items.map((i) => i.action),
					['created', 'updated', 'updated'],
				);
				assert.equal(items[1].id, existing);
				assert.equal(
					items[2].id,
					items[0].id,
					'the second row with the new e-mail must update the contact the first row created',
				);
				const log = control.requestLog().filter((e) => /\/contacts(\/|$)/.test(e.path));
				const reads = log.filter((e) => e.method === 'GET').length;
				const writes = log.filter((e) => e.method !== 'GET').map((e) => e.method);
				assert.equal(
					reads,
					Math.ceil((total + 1) / 100),
					`one list read per run: ${reads} GET requests for ${total + 1} contacts`,
				);
				assert.deepEqual(writes, ['POST', 'PATCH', 'PATCH']);
				const stored = await h.sandboxSend(ctx, 'GET', `/contacts/${items[0].id}`);
				assert.equal(stored.name, 'Nieuw, tweede rij');
				return `${reads} read(s) for ${total + 1} contacts, then ${writes.join(', ')}`;
			},
		},
		{
			name: 'Create or Update: a 409 on create (created meanwhile by someone else) reads again and updates that contact',
			async run(ctx) {
				ctx.requireOperation('contact', 'upsert');
				const email = `race-${Date.now()}@example.com`;
				ctx.sandbox.control.createdMeanwhile(email);
				const items = h.expectSuccess(
					await h.runOnItems(ctx, [{ email, name: 'Mijn versie' }], UPSERT),
				);
				assert.deepEqual(
					items.map((i) => [i.action, i.name]),
					[['updated', 'Mijn versie']],
				);
				const same = (await h.sandboxAll(ctx, 'contacts')).filter((c) => c.email === email);
				assert.equal(same.length, 1, `${same.length} contacts with the e-mail`);
				return `updated ${items[0].id}`;
			},
		},
		{
			name: 'Create or Update: several contacts with the e-mail (an API that allows that) fail the item naming them, nothing written; Continue goes on with the next row',
			async run(ctx) {
				ctx.requireOperation('contact', 'upsert');
				const control = ctx.sandbox.control;
				const email = `dup-${Date.now()}@example.com`;
				control.setReadings({ duplicateContactEmails: true });
				try {
					const a = (await h.sandboxSend(ctx, 'POST', '/contacts', { name: 'A', email })).id;
					const b = (
						await h.sandboxSend(ctx, 'POST', '/contacts', { name: 'B', email: email.toUpperCase() })
					).id;
					control.clearRequestLog();
					const failed = await h.runOnItems(ctx, [{ email, name: 'C' }], UPSERT);
					h.expectFailure(
						failed,
						new RegExp(
							`2 contacts have the e-mail ${email.replace(/[.]/g, '\\.')} \\(${a}, ${b}\\)`,
						),
						/\[item 0\]/,
					);
					assert.deepEqual(
						control
							.requestLog()
							.filter((e) => e.method !== 'GET')
							.map((e) => `${e.method} ${e.path}`),
						[],
					);
					const other = `solo-${Date.now()}@example.com`;
					const r = await h.runOnItems(
						ctx,
						[
							{ email, name: 'C' },
							{ email: other, name: 'D' },
						],
						UPSERT,
						{ nodeOptions: { onError: 'continueRegularOutput' } },
					);
					const items = h.expectSuccess(r);
					assert.match(String(items[0].error), /2 contacts have the e-mail/);
					assert.equal(items[1].action, 'created');
					return `refused naming ${a}, ${b}; the next row created`;
				} finally {
					control.setReadings({ duplicateContactEmails: false });
				}
			},
		},
		{
			name: 'Create, Get, Update and Delete a contact',
			async run(ctx) {
				for (const op of ['create', 'get', 'update', 'delete']) ctx.requireOperation('contact', op);
				const email = `e2e-${Date.now()}@example.com`;
				const [created] = h.expectSuccess(
					await h.runOperation(ctx, {
						resource: 'contact',
						operation: 'create',
						name: 'E2E Bakkerij B.V.',
						additionalFields: { email, billingCountry: 'nl', type: 'business' },
					}),
				);
				assert.match(created.id, /^ctc_/);
				assert.equal(created.email, email);
				assert.equal(created.billingCountry, 'NL');
				const [got] = h.expectSuccess(await h.runOnRecord(ctx, 'contact', 'get', created.id));
				assert.equal(got.id, created.id);
				const change = { updateFields: { phone: '+31 20 555 0101' } };
				const [updated] = h.expectSuccess(
					await h.runOnRecord(ctx, 'contact', 'update', created.id, change),
				);
				assert.equal(updated.phone, '+31 20 555 0101');
				assert.equal(updated.name, 'E2E Bakkerij B.V.');
				h.expectSuccess(await h.runOnRecord(ctx, 'contact', 'delete', created.id));
				const gone = await h.runOnRecord(ctx, 'contact', 'get', created.id);
				const e = h.expectFailure(gone, /404|not[ _]found/i);
				return `created ${created.id}; after delete: "${e.message}"`;
			},
		},
		{
			name: 'a duplicate e-mail shows the API message (409)',
			async run(ctx) {
				ctx.requireOperation('contact', 'create');
				const [first] = await firstContact(ctx);
				const r = await h.runOperation(ctx, {
					resource: 'contact',
					operation: 'create',
					name: 'Dubbel',
					additionalFields: { email: first.email },
				});
				return h.refusal(r, /409|duplicate/i, /already exists/i);
			},
		},
		{
			name: "a key of another organization does not see this organization's contact (404)",
			async run(ctx) {
				ctx.requireOperation('contact', 'get');
				const [mine] = await firstContact(ctx);
				const r = await h.runOperation(
					ctx,
					{ resource: 'contact', operation: 'get', contactId: h.byId(mine.id) },
					{ key: 'otherOrg' },
				);
				return h.refusal(r, /404|not[ _]found/i);
			},
		},
		{
			name: 'a read-only key gets 403 naming the missing scope contacts.write',
			async run(ctx) {
				ctx.requireOperation('contact', 'create');
				const r = await h.runOperation(
					ctx,
					{ resource: 'contact', operation: 'create', name: 'Niet toegestaan' },
					{ key: 'readOnly' },
				);
				const e = h.expectFailure(r, /403|insufficient_scope/i, /contacts\.write/);
				return `"${e.message}" / "${e.description}"`;
			},
		},
		{
			name: 'Create with a contact type the API documentation does not list (from an expression) sends it as given; a strict API refuses it and the node shows why',
			async run(ctx) {
				ctx.requireOperation('contact', 'create');
				const params = {
					resource: 'contact',
					operation: 'create',
					name: `Stichting E2E ${Date.now()}`,
					additionalFields: { type: '={{ "foundation" }}' },
				};
				const [created] = h.expectSuccess(await h.runOperation(ctx, params));
				assert.equal(created.type, 'foundation');
				ctx.sandbox.control.setReadings({ strict: true });
				try {
					const e = h.expectFailure(
						await h.runOperation(ctx, { ...params, name: `${params.name} 2` }),
						/400|invalid_request/i,
						/"type"/,
					);
					return `kept "foundation"; strict: "${e.message}"`;
				} finally {
					ctx.sandbox.control.setReadings({ strict: false });
				}
			},
		},
		{
			name: 'the ID ".." is refused before anything is sent (it would reach another address)',
			async run(ctx) {
				ctx.requireOperation('contact', 'get');
				ctx.sandbox.control.clearRequestLog();
				const e = h.expectFailure(
					await h.runOnRecord(ctx, 'contact', 'get', '..'),
					/"\.\." is not an ID/,
				);
				assert.equal(ctx.sandbox.control.requestLog().length, 0, 'a request reached the API');
				return `"${e.message}"`;
			},
		},
		{
			name: 'Get Many with a Base URL without its version segment says so (not "Check the ID")',
			async run(ctx) {
				ctx.requireOperation('contact', 'getAll');
				const data = {
					...h.rt.credentialData(ctx.sandbox, ctx.sandbox.keys.admin),
					baseUrl: ctx.sandbox.baseUrl.replace(/\/v1\/?$/, ''),
				};
				const cred = await ctx.client.createCredential({
					name: 'Business Ops (no version)',
					type: h.rt.CREDENTIAL_TYPE,
					data,
				});
				ctx.credentials.noVersion = { id: cred.id, name: cred.name };
				try {
					const r = await h.runOperation(
						ctx,
						{ resource: 'contact', operation: 'getAll', returnAll: true },
						{ key: 'noVersion' },
					);
					const e = h.expectFailure(r, /404/, /version segment/);
					assert.ok(!/Check the ID/.test(e.description), e.description);
					return `"${e.description}"`;
				} finally {
					delete ctx.credentials.noVersion;
					await ctx.client.deleteCredential(cred.id);
				}
			},
		},
	],
};
