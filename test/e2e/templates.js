// The workflow templates of templates/ in real n8n: each is imported through the editor's call
// (`POST /rest/workflows` with the owner's session, what Import from File + Save sends), given the
// sandbox credential (what a user does when choosing it), then published or run, with the result a
// user expects. Each step names its file in `template`: the unit test test/templates/templates.test.ts
// fails for a template no e2e step covers. (The AI agent template is the `ai` area's.)
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');
const {
	prepareTemplate,
	importWorkflow,
	templateFiles,
	readTemplate,
} = require('../../scripts/n8n/templates');

/** Imports one template with the admin credential; returns { id, wf }. */
async function importTemplate(ctx, file) {
	const { wf } = prepareTemplate(file, ctx.credentials.admin);
	const saved = await importWorkflow(ctx.client, wf);
	assert.ok(saved.id, `${file}: the import answered without a workflow id`);
	return { id: saved.id, wf };
}

/** Publishes a workflow, waits for its trigger's subscription, runs `act`, then unpublishes. */
async function whilePublished(ctx, workflowId, act) {
	const count = () => ctx.sandbox.control.webhooks().length;
	const before = count();
	await ctx.client.publishWorkflow(workflowId);
	try {
		// n8n 2.41 publishes through an outbox: the subscription appears a moment after the answer.
		await h.waitFor(() => count() === before + 1, {
			timeoutMs: 30_000,
			what: 'the trigger to subscribe',
		});
		return await act();
	} finally {
		await ctx.client.unpublishWorkflow(workflowId);
		await h.waitFor(() => count() === before, {
			timeoutMs: 30_000,
			what: 'the subscription to be deleted',
		});
	}
}

/** A step for one template: `run(ctx, file)`; `template` names the file it covers. */
function templateStep(file, name, run) {
	return {
		name: `${file.replace(/\.json$/, '')}: ${name}`,
		template: file,
		run: (ctx) => run(ctx, file),
	};
}

/** The one finished execution a published workflow made after an event. */
async function onlyExecution(ctx, workflowId) {
	const [ex] = await ctx.client.waitForExecutions(workflowId, 1, { timeoutMs: 60_000 });
	const err = h.rt.executionError(ex);
	assert.equal(
		ex.status,
		'success',
		`execution ${ex.id} ended "${ex.status}": ${err ? err.message : ''}`,
	);
	return ex;
}

module.exports = {
	area: 'templates',
	steps: [
		{
			name: 'every node type and version of every template exists in this n8n',
			async run(ctx) {
				const versions = new Map();
				for (const t of await ctx.client.nodeTypes())
					versions.set(t.name, [...(versions.get(t.name) || []), ...[t.version].flat()]);
				const missing = [];
				for (const file of templateFiles()) {
					for (const n of readTemplate(file).nodes) {
						if (!(versions.get(n.type) || []).includes(n.typeVersion))
							missing.push(
								`${file}: "${n.name}" ${n.type} v${n.typeVersion} (n8n has ${versions.get(n.type)?.join(', ') || 'no such type'})`,
							);
					}
				}
				assert.deepEqual(missing, []);
				return `${templateFiles().length} templates`;
			},
		},
		templateStep(
			'send-quote-for-customer-request.json',
			'published, a customer request for a price gets its quote sent',
			async (ctx, file) => {
				const { id } = await importTemplate(ctx, file);
				const request = await whilePublished(ctx, id, async () => {
					const created = await h.sandboxSend(ctx, 'POST', '/requests', {
						fromEmail: `anna-${Date.now()}@example.com`,
						fromName: 'Anna de Boer',
						subject: 'Quote for a wedding cake',
						bodyText: 'What would a three-layer cake for 80 guests cost?',
						externalRef: 'template-e2e',
						processImmediately: true,
					});
					await ctx.sandbox.control.waitForDeliveries();
					await onlyExecution(ctx, id);
					return created;
				});
				const processed = await h.sandboxGet(ctx, `/requests/${request.id}`);
				const quoteId = processed.quoteId || processed.output?.quoteId;
				assert.ok(quoteId, `the request made no quote: ${JSON.stringify(processed)}`);
				const quote = await h.sandboxGet(ctx, `/quotes/${quoteId}`);
				assert.equal(quote.status, 'sent', `quote ${quote.number}`);
				return `request ${request.id} → quote ${quote.number}: ${quote.status}`;
			},
		),
		templateStep(
			'update-contact-when-invoice-paid.json',
			'published, paying an invoice updates its contact',
			async (ctx, file) => {
				const { id } = await importTemplate(ctx, file);
				const contact = await h.sandboxSend(ctx, 'POST', '/contacts', {
					name: 'Jan Jansen',
					type: 'individual',
					email: `jan-${Date.now()}@example.com`,
				});
				const invoice = await h.sandboxSend(ctx, 'POST', '/invoices', {
					contactId: contact.id,
					items: [{ name: 'Birthday cake', quantity: 1, unitPrice: 42.5, vatPercentage: 9 }],
				});
				await whilePublished(ctx, id, async () => {
					await h.sandboxSend(ctx, 'PATCH', `/invoices/${invoice.id}`, { status: 'paid' });
					await ctx.sandbox.control.waitForDeliveries();
					await onlyExecution(ctx, id);
				});
				const after = await h.sandboxGet(ctx, `/contacts/${contact.id}`);
				assert.equal(after.type, 'business', `contact ${contact.id}`);
				return `invoice ${invoice.number} paid → contact ${contact.id}: type individual → ${after.type}`;
			},
		),
		templateStep(
			'weekly-overdue-invoices.json',
			"run, one item listing exactly the API's overdue invoices",
			async (ctx, file) => {
				const { id, wf } = await importTemplate(ctx, file);
				const trigger = wf.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger');
				const ex = await ctx.client.runManually(id, { trigger: trigger.name });
				const err = h.rt.executionError(ex);
				assert.equal(ex.status, 'success', err ? err.message : ex.status);
				const out = h.rt.nodeOutput(ex, 'One list') || [];
				assert.equal(out.length, 1, `"One list" gave ${out.length} items`);
				const listed = out[0].overdueInvoices.map((i) => i.id).sort();
				const expected = (await h.sandboxAll(ctx, 'invoices'))
					.filter((i) => i.status === 'overdue')
					.map((i) => i.id)
					.sort();
				assert.ok(
					expected.length > 0,
					'the sandbox has no overdue invoice: the step would prove nothing',
				);
				assert.deepEqual(listed, expected);
				return `${listed.length} overdue invoice(s) in one list`;
			},
		),
		templateStep(
			'sync-contacts-from-a-sheet.json',
			'run twice: the rows become contacts once, then update them (one list read per run)',
			async (ctx, file) => {
				const { id } = await importTemplate(ctx, file);
				const control = ctx.sandbox.control;
				const node = 'Create or update the contact';
				const runOnce = async () => {
					control.clearRequestLog();
					const ex = await ctx.client.runManually(id);
					assert.equal(ex.status, 'success', JSON.stringify(h.rt.executionError(ex)));
					const log = control.requestLog().filter((e) => /\/contacts(\/|$)/.test(e.path));
					return {
						ex,
						reads: log.filter((e) => e.method === 'GET').length,
						writes: log.filter((e) => e.method !== 'GET').length,
					};
				};
				const first = await runOnce();
				const rows = h.rt.nodeOutput(first.ex, 'Sheet rows') || [];
				const emails = rows.map((r) => r.email).sort();
				assert.equal(emails.length, 3, `"Sheet rows" gave ${emails.length} rows`);
				const matching = async () =>
					(await h.sandboxAll(ctx, 'contacts')).filter((c) => emails.includes(c.email));
				assert.deepEqual(
					(await matching()).map((c) => c.email).sort(),
					emails,
					'the first run did not add one contact per row',
				);
				assert.deepEqual(
					(h.rt.nodeOutput(first.ex, node) || []).map((c) => c.action),
					['created', 'created', 'created'],
				);
				const total = (await h.sandboxAll(ctx, 'contacts')).length;
				const second = await runOnce();
				assert.deepEqual(
					(h.rt.nodeOutput(second.ex, node) || []).map((c) => c.action),
					['updated', 'updated', 'updated'],
				);
				assert.equal((await matching()).length, emails.length, 'the second run made duplicates');
				assert.equal(
					second.reads,
					Math.ceil(total / 100),
					`one list read per run: ${second.reads} GET requests for ${total} contacts`,
				);
				assert.equal(second.writes, emails.length);
				return `${emails.length} contacts created, then updated; second run: ${second.reads} read(s) + ${second.writes} writes`;
			},
		),
	],
};
