// The example workflows of demo/workflows (what `npm run demo` imports) import into real n8n;
// the manual ones run, the trigger ones publish (one subscription each) and unpublish cleanly.
'use strict';

const { assert, rt, waitFor, sleep, sandboxGet, sandboxFirstId } = require('./harness');
const { loadDemoWorkflows } = require('../../scripts/n8n/demo-workflows');

function workflows(ctx) {
	return loadDemoWorkflows(ctx.credentials.admin);
}

module.exports = {
	area: 'demo',
	steps: [
		{
			name: 'the example workflows import',
			async run(ctx) {
				const known = new Set((await ctx.client.nodeTypes()).map((t) => t.name));
				const list = workflows(ctx);
				assert.ok(list.length >= 1, 'demo/workflows has no workflow');
				const names = [];
				for (const { file, wf } of list) {
					for (const n of wf.nodes) {
						if (n.type === rt.NODE_TYPES.trigger && !known.has(n.type)) continue; // trigger not built yet
						assert.ok(known.has(n.type), `${file}: unknown node type ${n.type}`);
					}
					if (wf.nodes.every((n) => known.has(n.type))) {
						const created = await ctx.client.createWorkflow(wf);
						ctx.state[`demo:${file}`] = created.id;
						names.push(wf.name);
					}
				}
				return names.map((n) => `"${n}"`).join(', ');
			},
		},
		{
			name: 'the manual example workflows run successfully',
			async run(ctx) {
				const done = [];
				for (const { file, wf, isManual } of workflows(ctx)) {
					if (!isManual) continue;
					const id = ctx.state[`demo:${file}`];
					assert.ok(id, `${file} was not imported`);
					const ex = await ctx.client.runManually(id);
					const err = rt.executionError(ex);
					assert.equal(ex.status, 'success', `${file}: ${err ? err.message : ex.status}`);
					const last = wf.nodes[wf.nodes.length - 1].name;
					done.push(`${wf.name}: ${(rt.nodeOutput(ex, last) || []).length} items`);
				}
				return done.join('; ');
			},
		},
		{
			name: 'the trigger example workflows publish (one subscription each) and unpublish',
			async run(ctx) {
				const done = [];
				for (const { file, wf, isTrigger } of workflows(ctx)) {
					if (!isTrigger) continue;
					const id = ctx.state[`demo:${file}`];
					assert.ok(id, `${file} was not imported`);
					const count = () => ctx.sandbox.control.webhooks().length;
					const before = count();
					await ctx.client.publishWorkflow(id);
					// Publishing goes through n8n's outbox: the subscription appears a moment later.
					await waitFor(() => count() > before, { timeoutMs: 30_000, what: `${file}: a subscription` });
					await sleep(1000);
					assert.equal(count(), before + 1, `${file}: ${count() - before} subscriptions after publishing`);
					await ctx.client.unpublishWorkflow(id);
					await waitFor(() => count() === before, { timeoutMs: 30_000, what: `${file}: the subscription to be deleted` });
					done.push(wf.name);
				}
				return done.join('; ');
			},
		},
		{
			name: '"quote.created → quote sent" sends the quote of the event',
			async run(ctx) {
				const id = ctx.state['demo:1-quote-created-send-quote.json'];
				assert.ok(id, 'the example was not imported');
				const quote = await apiCall(ctx, 'POST', '/quotes', {
					contactId: await sandboxFirstId(ctx, 'contacts'),
					items: [{ name: 'Appeltaart', quantity: 2, unitPrice: 18.5, vatPercentage: 9 }],
				});
				assert.equal(quote.status, 'draft');
				await publishAndEmit(ctx, id, 'quote.created', quote);
				const ex = (await ctx.client.waitForExecutions(id, 1, { timeoutMs: 30_000 }))[0];
				assert.equal(ex.status, 'success', JSON.stringify(rt.executionError(ex)));
				const after = await sandboxGet(ctx, `/quotes/${quote.id}`);
				assert.equal(after.status, 'sent');
				return `${quote.id}: draft → ${after.status}`;
			},
		},
		{
			name: '"invoice.paid → contact updated" updates the contact of the invoice',
			async run(ctx) {
				const id = ctx.state['demo:2-invoice-paid-update-contact.json'];
				assert.ok(id, 'the example was not imported');
				const contact = await apiCall(ctx, 'POST', '/contacts', { name: 'Jan Jansen', type: 'individual', email: `jan-${Date.now()}@example.com` });
				const invoice = await apiCall(ctx, 'POST', '/invoices', {
					contactId: contact.id,
					items: [{ name: 'Verjaardagstaart', quantity: 1, unitPrice: 42.5, vatPercentage: 9 }],
				});
				await publishAndEmit(ctx, id, 'invoice.paid', { ...invoice, status: 'paid' });
				const ex = (await ctx.client.waitForExecutions(id, 1, { timeoutMs: 30_000 }))[0];
				assert.equal(ex.status, 'success', JSON.stringify(rt.executionError(ex)));
				const after = await sandboxGet(ctx, `/contacts/${contact.id}`);
				assert.equal(after.type, 'business');
				return `${contact.id}: type individual → ${after.type}`;
			},
		},
	],
};

/** A call on the sandbox API with the admin key; returns `data`. */
async function apiCall(ctx, method, pathname, body) {
	const res = await fetch(`${ctx.sandbox.baseUrl}${pathname}`, {
		method,
		headers: { authorization: `Bearer ${ctx.sandbox.keys.admin}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const json = await res.json();
	assert.ok(res.ok, `${method} ${pathname}: ${res.status} ${JSON.stringify(json)}`);
	return json.data;
}

/** Publishes a workflow, waits for its subscription, emits one event and waits for the delivery. */
async function publishAndEmit(ctx, workflowId, type, data) {
	const count = () => ctx.sandbox.control.webhooks().length;
	const before = count();
	await ctx.client.publishWorkflow(workflowId);
	try {
		await waitFor(() => count() > before, { timeoutMs: 30_000, what: 'the subscription' });
		ctx.sandbox.control.emit({ type, data });
		await ctx.sandbox.control.waitForDeliveries();
	} finally {
		await ctx.client.unpublishWorkflow(workflowId);
		await waitFor(() => count() === before, { timeoutMs: 30_000, what: 'the subscription to be deleted' }).catch(() => {});
	}
}
