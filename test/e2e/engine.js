// The node under n8n's own engine features in real n8n (issue 18): Retry On Fail under "Stop
// Workflow", paired items on the output (a following node uses $('Items').item), the error output
// carrying the input item, n8n's dates ($now, $today), empty values in every optional field of
// every create and update (generated over the node description n8n serves), an empty Update
// refused before sending, line items copied from a fetched quote, and the Deprecation notice (once
// per execution in the log and the custom data, never in the records).
'use strict';

const http = require('node:http');

const assert = require('node:assert/strict');
const h = require('./harness');
const walker = require('../shared/fieldWalker');

const TRIGGER = 'When clicking ‘Execute workflow’';
const NODE = 'Business Ops';

/** Runs a workflow; the node's output is checked against its output schema unless it came from the capture server (`api: false`). */
async function run(ctx, wf, { api = true } = {}) {
	const created = await ctx.client.createWorkflow(wf);
	const execution = await ctx.client.runManually(created.id, { timeoutMs: 180_000 });
	const parameters = wf.nodes.find((n) => n.name === NODE).parameters;
	const items = api ? h.nodeItems(execution, parameters) : h.rt.nodeOutput(execution, NODE) || [];
	return { execution, status: execution.status, items, error: h.nodeError(execution, NODE) };
}

/** The items of one output of a node in an execution, with their pairing. */
function outputOf(execution, nodeName, output = 0) {
	return execution?.data?.resultData?.runData?.[nodeName]?.[0]?.data?.main?.[output] || [];
}

/** Contacts in the sandbox whose name starts with `prefix` (admin key, not through n8n). */
async function contactsNamed(ctx, prefix) {
	const headers = { authorization: `Bearer ${ctx.sandbox.keys.admin}` };
	const names = [];
	for (let page = 1; page <= 200; page++) {
		const body = await (
			await fetch(`${ctx.sandbox.baseUrl}/contacts?pageSize=100&page=${page}`, { headers })
		).json();
		names.push(...body.data.map((c) => c.name).filter((n) => n.startsWith(prefix)));
		if (!body.meta.hasMore) break;
	}
	return names.sort();
}

// -- Empty values over the node description n8n serves ------------------------------------------

const EMPTY_KINDS = ['$json.missing', 'null', '""', '"  "'];

function deepMerge(into, from) {
	if (!into || typeof into !== 'object' || !from || typeof from !== 'object') return from;
	const merged = Array.isArray(from) ? [...(Array.isArray(into) ? into : [])] : { ...into };
	for (const [key, value] of Object.entries(from)) merged[key] = deepMerge(merged[key], value);
	return merged;
}

function setAt(target, path, value) {
	const parent = path.slice(0, -1).reduce((node, key) => node[key], target);
	parent[path[path.length - 1]] = value;
}

/**
 * The fields of every create and update, from the walk the unit generator uses
 * (test/shared/fieldWalker.js) over the description n8n serves. One workflow per operation, set of
 * show values (Items (JSON) needs Items Input "JSON"), form of line items and kind (optional or required): each input
 * item makes one field resolve to nothing (a missing input field, null, "" or spaces) while every
 * other field has a valid value. Returns the runs with their parameters, cases and rows.
 */
function emptyValueRuns(op) {
	const groups = new Map();
	for (const fieldCase of walker.casesOf(op)) {
		// line items (a row of a collection, or JSON) in a workflow of their own: the node refuses both forms at once
		const lineItems =
			fieldCase.path.length >= 4 || fieldCase.fieldType === 'json'
				? fieldCase.path.slice(0, 2).join('.')
				: '';
		const key = JSON.stringify([fieldCase.required, fieldCase.shows, lineItems]);
		groups.set(key, [...(groups.get(key) ?? []), fieldCase]);
	}
	return [...groups.values()].map((cases) => {
		let parameters = {};
		for (const c of cases) parameters = deepMerge(parameters, c.parameters(c.sample));
		for (const c of cases) {
			setAt(
				parameters,
				c.path,
				`={{ $json.target === ${JSON.stringify(c.title)} ? [${EMPTY_KINDS.join(', ')}][$json.kind] : ${JSON.stringify(c.sample)} }}`,
			);
		}
		const rows = cases.flatMap((c) => EMPTY_KINDS.map((_, kind) => ({ target: c.title, kind })));
		return { required: cases[0].required, parameters, cases, rows };
	});
}

/**
 * A local server standing in for the API: records each request body and answers with one record
 * (with `headers`); `credential` is an n8n credential (`name` and the time) that sends to it.
 */
async function captureServer(ctx, name, headers = {}) {
	const requests = [];
	const server = http.createServer((req, res) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => {
			const url = new URL(req.url, 'http://127.0.0.1');
			requests.push({
				method: req.method,
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				body: text ? JSON.parse(text) : {},
			});
			res.writeHead(req.method === 'POST' ? 201 : 200, {
				'content-type': 'application/json',
				...headers,
			});
			res.end(JSON.stringify({ data: { id: 'x_1' } }));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;
	const close = () => new Promise((resolve) => server.close(resolve));
	try {
		const cred = await ctx.client.rest('POST', '/credentials', {
			name: `${name} ${Date.now()}`,
			type: h.rt.CREDENTIAL_TYPE,
			data: { apiKey: ctx.sandbox.keys.admin, baseUrl, requestsPerMinute: 100000 },
		});
		return { requests, baseUrl, close, credential: { id: cred.id, name: cred.name } };
	} catch (e) {
		await close();
		throw e;
	}
}

const NOTHING = new Set([undefined, null, '', 'undefined', 'UNDEFINED', 'null', 'NULL']);

function emptyValuesIn(request) {
	const found = [];
	const visit = (value, where) => {
		if (NOTHING.has(value) || (typeof value === 'string' && value.trim() === ''))
			found.push(`${where}=${JSON.stringify(value)}`);
		else if (value && typeof value === 'object')
			for (const [k, v] of Object.entries(value)) visit(v, `${where}.${k}`);
	};
	visit(request.body, 'body');
	visit(request.query, 'query');
	return found;
}

module.exports = {
	area: 'engine',
	steps: [
		{
			name: "Retry On Fail under Stop Workflow: the first POST answered 503 once with the API's own body (`internal_error`: not written), 3 tries: all 3 items created exactly once",
			timeoutMs: 240_000,
			async run(ctx) {
				const prefix = `retry-${Date.now()}`;
				const rows = [0, 1, 2].map((i) => ({ name: `${prefix} ${i}` }));
				ctx.sandbox.control.failNext({
					path: '/contacts',
					method: 'POST',
					status: 503,
					code: 'internal_error',
					count: 1,
				});
				const result = await run(
					ctx,
					h.itemsWorkflow(
						'e2e engine retry',
						rows,
						{ resource: 'contact', operation: 'create', name: '={{ $json.name }}' },
						ctx.credentials.admin,
						{
							retryOnFail: true,
							maxTries: 3,
							waitBetweenTries: 100,
						},
					),
				);
				h.expectSuccess(result);
				assert.deepEqual(
					await contactsNamed(ctx, prefix),
					rows.map((r) => r.name),
				);
				assert.deepEqual(
					outputOf(result.execution, NODE).map((i) => i.pairedItem?.item),
					[0, 1, 2],
				);
				return '3 created once each after the 503';
			},
		},
		{
			// Pins what docs/n8n-features.md says: under Continue the node does not fail, and n8n (1.123
			// and 2.x) re-runs it when the first output item is an error item, so the others are sent again.
			name: 'Retry On Fail with Continue: n8n re-runs the node when the first item failed; the items the first try created are not sent again',
			timeoutMs: 240_000,
			async run(ctx) {
				const prefix = `retry-continue-${Date.now()}`;
				// Only item 0 has an e-mail (a wrong one): a repeated e-mail could be refused as a duplicate.
				const rows = [0, 1, 2].map((i) => ({
					name: `${prefix} ${i}`,
					...(i === 0 ? { email: 'not an address' } : {}),
				}));
				const result = await run(
					ctx,
					h.itemsWorkflow(
						'e2e engine retry continue',
						rows,
						h.CREATE_CONTACT,
						ctx.credentials.admin,
						{
							retryOnFail: true,
							maxTries: 2,
							waitBetweenTries: 0,
							onError: 'continueRegularOutput',
						},
					),
				);
				h.expectSuccess(result);
				const names = await contactsNamed(ctx, prefix);
				const times = (name) => names.filter((n) => n === name).length;
				assert.deepEqual(
					[times(rows[0].name), times(rows[1].name), times(rows[2].name)],
					[0, 1, 1],
					JSON.stringify(names),
				);
				return 'item 0 refused by the input check on both tries; items 1 and 2 created once, on the first try';
			},
		},
		{
			name: 'paired items: the records of each operation kind pair with their input item ($("Items").item in the next node)',
			timeoutMs: 240_000,
			async run(ctx) {
				const contactId = await h.sandboxFirstId(ctx, 'contacts');
				const quoteId = await h.sandboxFirstId(ctx, 'quotes');
				const prefix = `paired-${Date.now()}`;
				const operations = {
					'Contacts Get Many': { resource: 'contact', operation: 'getAll', limit: 3 },
					'Contact Get': { resource: 'contact', operation: 'get', contactId: h.byId(contactId) },
					'Contact Create': {
						resource: 'contact',
						operation: 'create',
						name: `={{ "${prefix} " + $json.tag }}`,
					},
					'Contact Update': {
						resource: 'contact',
						operation: 'update',
						contactId: h.byId(contactId),
						updateFields: {
							phone: '={{ $json.tag === "first" ? "+31 20 123 4567" : "+31 20 765 4321" }}',
						},
					},
					'Organization Get': { resource: 'organization', operation: 'get' },
					'Quote Get (Simplify)': {
						resource: 'quote',
						operation: 'get',
						quoteId: h.byId(quoteId),
						simplify: true,
					},
					'Event Types': { resource: 'webhook', operation: 'getEventTypes' },
					'API Key': { resource: 'me', operation: 'get' },
				};
				const rows = [{ tag: 'first' }, { tag: 'second' }];
				const nodes = [
					h.node(TRIGGER, 'n8n-nodes-base.manualTrigger', {}, { position: [0, 0] }),
					h.node(
						'Items',
						'n8n-nodes-base.code',
						{ jsCode: `return ${JSON.stringify(rows.map((json) => ({ json })))};` },
						{ typeVersion: 2, position: [220, 0] },
					),
				];
				const connections = h.chain(TRIGGER, 'Items');
				connections.Items = { main: [[]] };
				Object.entries(operations).forEach(([name, parameters], index) => {
					const check = `Check ${name}`;
					nodes.push(
						h.node(name, h.rt.NODE_TYPES.action, parameters, {
							position: [440, index * 160],
							credentials: h.credentialRef(ctx.credentials.admin),
						}),
					);
					nodes.push(
						h.node(
							check,
							'n8n-nodes-base.code',
							{
								mode: 'runOnceForEachItem',
								jsCode: "return { json: { tag: $('Items').item.json.tag } };",
							},
							{ typeVersion: 2, position: [660, index * 160] },
						),
					);
					connections.Items.main[0].push({ node: name, type: 'main', index: 0 });
					connections[name] = { main: [[{ node: check, type: 'main', index: 0 }]] };
				});
				const created = await ctx.client.createWorkflow({
					name: 'e2e engine paired items',
					nodes,
					connections,
					settings: { executionOrder: 'v1' },
				});
				const execution = await ctx.client.runManually(created.id, { timeoutMs: 180_000 });
				if (execution.status !== 'success')
					throw new Error(
						`execution ended "${execution.status}": ${JSON.stringify(execution.data?.resultData?.error?.message)}`,
					);
				const counts = [];
				for (const name of Object.keys(operations)) {
					const out = outputOf(execution, name);
					const tags = h.rt.nodeOutput(execution, `Check ${name}`) || [];
					assert.ok(out.length >= 2, `${name}: ${out.length} items`);
					assert.deepEqual(
						tags.map((t) => t.tag),
						out.map((item) => rows[item.pairedItem.item].tag),
						`${name}: a record is paired with the wrong input item`,
					);
					assert.deepEqual([...new Set(tags.map((t) => t.tag))], ['first', 'second'], name);
					counts.push(`${name} ${out.length}`);
				}
				return counts.join(', ');
			},
		},
		{
			name: 'Continue (using error output): the error items carry their input item (API error and input check)',
			timeoutMs: 180_000,
			async run(ctx) {
				const contactId = await h.sandboxFirstId(ctx, 'contacts');
				const rows = [
					{ tag: 'found', id: contactId },
					{ tag: 'missing', id: 'ctc_doesnotexist' },
					{ tag: 'bad id', id: 'not an id!' },
				];
				const wf = h.itemsWorkflow(
					'e2e engine error output',
					rows,
					{ resource: 'contact', operation: 'get', contactId: h.byId('={{ $json.id }}') },
					ctx.credentials.admin,
					{
						onError: 'continueErrorOutput',
					},
				);
				// A node on the error output reads the input item through the pairing, as users do.
				wf.nodes.push(
					h.node(
						'On Error',
						'n8n-nodes-base.code',
						{
							mode: 'runOnceForEachItem',
							jsCode: "return { json: { tag: $('Items').item.json.tag, error: $json.error } };",
						},
						{ typeVersion: 2, position: [660, 160] },
					),
				);
				wf.connections[NODE] = { main: [[], [{ node: 'On Error', type: 'main', index: 0 }]] };
				const result = await run(ctx, wf);
				const ok = outputOf(result.execution, NODE, 0);
				const failed = outputOf(result.execution, NODE, 1);
				assert.deepEqual(
					ok.map((i) => i.json.id),
					[contactId],
				);
				assert.deepEqual(
					failed.map((i) => i.pairedItem?.item),
					[1, 2],
				);
				assert.match(String(failed[0].json.error), /404|not found/i);
				assert.match(String(failed[1].json.error), /Contact: "not an id!" is not an ID/);
				const after = h.rt.nodeOutput(result.execution, 'On Error') || [];
				assert.deepEqual(
					after.map((i) => i.tag),
					['missing', 'bad id'],
					JSON.stringify(after),
				);
				// n8n merges the paired input item into an error item that has no error object.
				assert.deepEqual(
					failed.map((i) => [i.json.tag, i.json.id]),
					[
						['missing', 'ctc_doesnotexist'],
						['bad id', 'not an id!'],
					],
				);
				return 'error output: missing (404), bad id (input check), paired with their input items and carrying their fields';
			},
		},
		{
			name: "n8n's dates: Valid Until {{ $now.plus({ days: 30 }) }} and Due Date {{ $today.plus({ days: 14 }) }} are accepted and sent as the API takes them",
			timeoutMs: 180_000,
			async run(ctx) {
				const contactId = await h.sandboxFirstId(ctx, 'contacts');
				const lines = { item: [{ name: 'Design', quantity: 1, unitPrice: 100 }] };
				const quote = await run(
					ctx,
					h.itemsWorkflow(
						'e2e engine dates quote',
						[{}],
						{
							resource: 'quote',
							operation: 'create',
							contactId: h.byId(contactId),
							items: lines,
							additionalFields: { validUntil: '={{ $now.plus({ days: 30 }) }}' },
						},
						ctx.credentials.admin,
					),
				);
				h.expectSuccess(quote);
				const validUntil = String(quote.items[0].validUntil);
				assert.ok(
					Math.abs(Date.parse(validUntil) - Date.now() - 30 * 86_400_000) < 3_600_000,
					`validUntil ${validUntil}`,
				);
				const invoice = await run(
					ctx,
					h.itemsWorkflow(
						'e2e engine dates invoice',
						[{}],
						{
							resource: 'invoice',
							operation: 'create',
							contactId: h.byId(contactId),
							items: lines,
							additionalFields: { dueDate: '={{ $today.plus({ days: 14 }) }}' },
						},
						ctx.credentials.admin,
					),
				);
				h.expectSuccess(invoice);
				assert.match(String(invoice.items[0].dueDate), /^\d{4}-\d{2}-\d{2}/);
				const days =
					(Date.parse(String(invoice.items[0].dueDate).slice(0, 10)) - Date.now()) / 86_400_000;
				assert.ok(days > 12 && days < 15, `dueDate ${invoice.items[0].dueDate}`);
				return `validUntil ${validUntil}, dueDate ${invoice.items[0].dueDate}`;
			},
		},
		{
			name: 'a KvK number read as a number is sent as text; a JS Date Due Date is its date in the workflow time zone',
			timeoutMs: 180_000,
			async run(ctx) {
				const contactId = await h.sandboxFirstId(ctx, 'contacts');
				const kvk = 10_000_000 + (Date.now() % 90_000_000);
				const contact = await run(
					ctx,
					h.itemsWorkflow(
						'e2e engine number as text',
						[{ kvk }],
						{
							resource: 'contact',
							operation: 'create',
							name: `e2e engine kvk ${kvk}`,
							additionalFields: { kvkNumber: '={{ $json.kvk }}' },
						},
						ctx.credentials.admin,
					),
				);
				h.expectSuccess(contact);
				assert.equal(contact.items[0].kvkNumber, String(kvk));
				const lines = { item: [{ name: 'Design', quantity: 1, unitPrice: 100 }] };
				const invoice = await run(ctx, {
					...h.itemsWorkflow(
						'e2e engine JS Date',
						[{}],
						{
							resource: 'invoice',
							operation: 'create',
							contactId: h.byId(contactId),
							items: lines,
							additionalFields: { dueDate: '={{ new Date("2027-01-01T03:30:00Z") }}' },
						},
						ctx.credentials.admin,
					),
					settings: { executionOrder: 'v1', timezone: 'America/New_York' },
				});
				h.expectSuccess(invoice);
				// the instance runs in UTC, where it is 1 January; in the workflow's time zone it is still 31 December
				assert.equal(String(invoice.items[0].dueDate).slice(0, 10), '2026-12-31');
				return `kvkNumber "${contact.items[0].kvkNumber}", dueDate ${invoice.items[0].dueDate}`;
			},
		},
		{
			// issue 28: a spreadsheet column or a Set node gives text; a strict API refuses text where it takes a number or true/false
			name: 'text from an expression is sent as the API types it, against the strict sandbox: Payment Terms "14", VAT "9", Currency "USD ", Process Immediately "false", Webhook Active "false"',
			timeoutMs: 240_000,
			async run(ctx) {
				const before = await h.sandboxGet(ctx, '/organization');
				const webhook = await h.sandboxSend(ctx, 'POST', '/webhooks', {
					name: `e2e typing ${Date.now()}`,
					url: `http://127.0.0.1:9/typing-${Date.now()}`,
					events: ['invoice.paid'],
				});
				const row = { days: '14', vat: '9', currency: 'USD ', process: 'false', active: 'false' };
				ctx.sandbox.control.setReadings({ strict: true });
				try {
					const settings = {
						defaultPaymentTermsDays: '={{ $json.days }}',
						defaultVatPercentage: '={{ $json.vat }}',
						defaultCurrency: '={{ $json.currency }}',
					};
					h.expectSuccess(
						await run(
							ctx,
							h.itemsWorkflow(
								'e2e engine typing organization',
								[row],
								{ resource: 'organization', operation: 'update', updateFields: settings },
								ctx.credentials.admin,
							),
						),
					);
					const after = await h.sandboxGet(ctx, '/organization');
					assert.deepEqual(
						[after.defaultPaymentTermsDays, after.defaultVatPercentage, after.defaultCurrency],
						[14, 9, 'USD'],
					);
					const requestParameters = {
						resource: 'request',
						operation: 'create',
						fromEmail: 'anna@example.com',
						subject: `e2e typing ${Date.now()}`,
						bodyText: 'Please call me back about the quote',
						processImmediately: '={{ $json.process }}',
					};
					const request = await run(
						ctx,
						h.itemsWorkflow(
							'e2e engine typing request',
							[row],
							requestParameters,
							ctx.credentials.admin,
						),
					);
					h.expectSuccess(request);
					assert.equal(
						(await h.sandboxGet(ctx, `/requests/${request.items[0].id}`)).status,
						'new',
						'the request was processed',
					);
					h.expectSuccess(
						await run(
							ctx,
							h.itemsWorkflow(
								'e2e engine typing webhook',
								[row],
								{
									resource: 'webhook',
									operation: 'update',
									webhookId: h.byId(webhook.id),
									updateFields: { active: '={{ $json.active }}' },
								},
								ctx.credentials.admin,
							),
						),
					);
					assert.equal((await h.sandboxGet(ctx, `/webhooks/${webhook.id}`)).active, false);
					return 'organization 14, 9, "USD"; request left "new"; webhook paused';
				} finally {
					ctx.sandbox.control.setReadings({ strict: false });
					const { defaultPaymentTermsDays, defaultVatPercentage, defaultCurrency } = before;
					await h.sandboxSend(ctx, 'PATCH', '/organization', {
						defaultPaymentTermsDays,
						defaultVatPercentage,
						defaultCurrency,
					});
					await h.sandboxSend(ctx, 'DELETE', `/webhooks/${webhook.id}`);
				}
			},
		},
		{
			name: 'empty values: undefined, null, "" and spaces in every optional field of every create and update send nothing; in a required one, the item fails naming the field and nothing is sent (generated over the node description, by the walk of the unit generator)',
			timeoutMs: 420_000,
			async run(ctx) {
				const capture = await captureServer(ctx, 'capture');
				try {
					const writes = walker.operations(ctx.nodeType.properties).filter(walker.isWrite);
					const reached = [];
					for (const op of writes) {
						const opName = `${op.resource} ${op.operation}`;
						for (const { required, parameters, cases, rows } of emptyValueRuns(op)) {
							capture.requests.length = 0;
							const title = `e2e engine empty ${opName} ${required ? 'required' : 'optional'}`;
							const nodeOptions = required ? { onError: 'continueRegularOutput' } : {};
							// the capture server is not the API: its answers are not checked against the output schemas
							const result = await run(
								ctx,
								h.itemsWorkflow(title, rows, parameters, capture.credential, nodeOptions),
								{ api: false },
							);
							const output = h.expectSuccess(result);
							if (required) {
								assert.deepEqual(
									capture.requests,
									[],
									`${opName}: a request went out with a required field empty`,
								);
								assert.equal(output.length, rows.length, `${opName}: output items`);
								rows.forEach((row, index) => {
									const { displayName } = cases.find((c) => c.title === row.target);
									assert.ok(
										JSON.stringify(output[index]).includes(displayName),
										`${row.target} (empty kind ${row.kind}): ${JSON.stringify(output[index]).slice(0, 200)}`,
									);
								});
							} else {
								// writes go out one at a time in item order: request i is row i
								assert.equal(capture.requests.length, rows.length, `${opName}: requests`);
								rows.forEach((row, index) => {
									const request = capture.requests[index];
									const where = `${row.target} (empty kind ${row.kind})`;
									assert.deepEqual(emptyValuesIn(request), [], where);
									const { sends } = cases.find((c) => c.title === row.target);
									if (sends)
										assert.ok(
											!(
												(sends.type === 'query' ? request.query : request.body) ?? {}
											).hasOwnProperty(sends.property),
											`${where} sent ${sends.property}`,
										);
								});
							}
							reached.push(...cases);
						}
					}
					// every field the walk finds is reached, and so is every create and update
					const walked = writes.flatMap((op) => walker.casesOf(op));
					assert.deepEqual(reached.map((c) => c.title).sort(), walked.map((c) => c.title).sort());
					const perOperation = writes.map((op) => {
						const mine = reached.filter((c) =>
							c.title.startsWith(`${op.resource} ${op.operation}: `),
						);
						return `${op.resource} ${op.operation} ${mine.filter((c) => !c.required).length}+${mine.filter((c) => c.required).length}`;
					});
					assert.deepEqual(
						perOperation.filter((line) => / 0\+0$/.test(line)),
						[],
						'operations with no field reached',
					);
					const fillable = (field) => !field.noDataExpression && !field.required;
					const noOptional = writes
						.filter((op) => op.fields.some(fillable))
						.filter(
							(op) =>
								!reached.some(
									(c) => !c.required && c.title.startsWith(`${op.resource} ${op.operation}: `),
								),
						);
					assert.deepEqual(
						noOptional.map((op) => `${op.resource} ${op.operation}`),
						[],
						'operations with optional fields of which none was reached',
					);
					const titles = reached.map((c) => c.title);
					const lineItems = [
						'invoice create: Items > VAT %',
						'quote create: Items > VAT %',
						'invoice update: Update Fields > Items > VAT %',
						'invoice update: Update Fields > Items (JSON)',
						'quote update: Update Fields > Items (JSON)',
					];
					assert.deepEqual(
						lineItems.filter((t) => !titles.includes(t)),
						[],
						'line item fields not reached',
					);
					const optional = reached.filter((c) => !c.required).length;
					return `${optional} optional and ${reached.length - optional} required fields over ${writes.length} operations (optional+required): ${perOperation.join(', ')}`;
				} finally {
					await capture.close();
				}
			},
		},
		{
			name: 'Update with no fields (or only empty ones) is refused before sending: Contact, Organization, Webhook',
			timeoutMs: 180_000,
			async run(ctx) {
				const contactId = await h.sandboxFirstId(ctx, 'contacts');
				const webhookId = h.byId('whk_any');
				ctx.sandbox.control.clearRequestLog();
				const cases = [
					{
						resource: 'contact',
						operation: 'update',
						contactId: h.byId(contactId),
						updateFields: {},
					},
					{
						resource: 'organization',
						operation: 'update',
						updateFields: { legalName: '={{ $json.missing }}' },
					},
					{ resource: 'webhook', operation: 'update', webhookId, updateFields: { name: '' } },
				];
				for (const parameters of cases) {
					const result = await run(
						ctx,
						h.itemsWorkflow(
							`e2e engine empty update ${parameters.resource}`,
							[{}],
							parameters,
							ctx.credentials.admin,
						),
					);
					h.expectFailure(result, /Update Fields: no field to change was added; add at least one/);
				}
				const patches = ctx.sandbox.control
					.requestLog()
					.filter((entry) => entry.method === 'PATCH');
				assert.deepEqual(patches, [], 'a PATCH reached the API');
				return 'refused, nothing sent';
			},
		},
		{
			name: "line items copied from a fetched quote (with the API's read-only keys) create an invoice",
			timeoutMs: 180_000,
			async run(ctx) {
				const quoteId = await h.sandboxFirstId(ctx, 'quotes');
				const quote = await h.sandboxGet(ctx, `/quotes/${quoteId}`);
				const wf = {
					name: 'e2e engine items from quote',
					nodes: [
						h.node(TRIGGER, 'n8n-nodes-base.manualTrigger', {}, { position: [0, 0] }),
						h.node(
							'Get Quote',
							h.rt.NODE_TYPES.action,
							{ resource: 'quote', operation: 'get', quoteId: h.byId(quoteId) },
							{ position: [220, 0], credentials: h.credentialRef(ctx.credentials.admin) },
						),
						// A fetched line of the real API also carries its id and total.
						h.node(
							'Lines As Fetched',
							'n8n-nodes-base.code',
							{
								mode: 'runOnceForEachItem',
								jsCode:
									'return { json: { ...$json, items: $json.items.map((line, i) => ({ ...line, id: "li_" + i, total: 1 })) } };',
							},
							{ typeVersion: 2, position: [440, 0] },
						),
						h.node(
							NODE,
							h.rt.NODE_TYPES.action,
							{
								resource: 'invoice',
								operation: 'create',
								contactId: h.byId('={{ $json.contactId }}'),
								itemsInput: 'json',
								itemsJson: '={{ $json.items }}',
							},
							{ position: [660, 0], credentials: h.credentialRef(ctx.credentials.admin) },
						),
					],
					connections: h.chain(TRIGGER, 'Get Quote', 'Lines As Fetched', NODE),
					settings: { executionOrder: 'v1' },
				};
				const result = await run(ctx, wf);
				h.expectSuccess(result);
				const strip = (lines) =>
					lines.map(({ name, quantity, unitPrice, vatPercentage }) => ({
						name,
						quantity,
						unitPrice,
						vatPercentage,
					}));
				assert.deepEqual(strip(result.items[0].items), strip(quote.items));
				return `${quote.items.length} lines`;
			},
		},
		{
			name: 'a Deprecation header: told once per execution (log; custom data on 2.x), the records stay as the API sent them',
			timeoutMs: 180_000,
			async run(ctx) {
				const control = ctx.sandbox.control;
				const NOTICE =
					/Business Ops: This version of the Business Ops API is deprecated \(Deprecation: true\)/g;
				const logStart = h.logText(ctx.n8n).length;
				control.setDeprecation(true);
				let result;
				try {
					result = await run(
						ctx,
						h.itemsWorkflow(
							'e2e engine deprecation',
							[{}, {}],
							{ resource: 'contact', operation: 'getAll', limit: 3 },
							ctx.credentials.admin,
						),
					);
				} finally {
					control.setDeprecation(false);
				}
				h.expectSuccess(result);
				assert.equal(result.items.length, 6);
				assert.deepEqual(
					result.items.filter((i) => 'deprecationNotice' in i),
					[],
					'a record was changed',
				);
				const custom = result.execution.data?.resultData?.metadata?.businessOpsDeprecation;
				// n8n 1.123 gives declarative nodes no custom data; 2.x does.
				if (ctx.client.major !== 1)
					assert.match(
						String(custom),
						/deprecated \(Deprecation: true\)\. It stops working after /,
					);
				// The log is written asynchronously. A later execution against a server that answers with
				// another Deprecation value is the barrier: once its line is in the log, every line of the
				// first execution is too, and all of them are counted.
				const barrier = await captureServer(ctx, 'deprecation barrier', { deprecation: 'barrier' });
				try {
					h.expectSuccess(
						await run(
							ctx,
							h.itemsWorkflow(
								'e2e engine deprecation barrier',
								[{}],
								{ resource: 'contact', operation: 'get', contactId: h.byId('x_1') },
								barrier.credential,
							),
							{ api: false },
						),
					);
				} finally {
					await barrier.close();
				}
				const log = await h.waitFor(
					() => {
						const text = h.logText(ctx.n8n).slice(logStart);
						return /deprecated \(Deprecation: barrier\)/.test(text) ? text : null;
					},
					{
						timeoutMs: 30_000,
						intervalMs: 250,
						what: "the barrier execution's notice in the n8n log",
					},
				);
				const told = (log.match(NOTICE) || []).length;
				assert.equal(told, 1, `the log told it ${told} times for 2 requests of one execution`);
				return `told once${custom ? ', custom data too' : ''}`;
			},
		},
	],
};
