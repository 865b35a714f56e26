/**
 * Issue 7, bad input: every operation field that takes an ID, a number, a date, JSON or an
 * e-mail address (and, in addition, a URL) is given garbage through an expression from the
 * input item, for item 1 of 2 (item 0 is valid), with continue-on-fail. Item 1 must carry an
 * error that names the field (its label, as the user sees it) and `[item 1]`, and nothing may
 * be sent for it.
 *
 * The fields are found by walking the node's description (top-level fields, collections and
 * fixed collections, for every resource and operation), so a field added later is covered
 * as well, or the discovery test fails asking for a baseline or a garbage list.
 *
 * Requests are intercepted with nock (no network): item 0 sends exactly one request, so any
 * second request comes from the garbage of item 1.
 */
import nock from 'nock';
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { runDeclarativeNode, TEST_BASE_URL } from '../harness/engine';
import { forgetRateBudgets } from '../harness/clock';
import { node } from '../harness/actionNode';

const ORIGIN = new URL(TEST_BASE_URL).origin;

type Kind = 'id' | 'number' | 'date' | 'json' | 'email' | 'url';

/** One step of the path to a field: a plain property, a collection child or a fixed-collection row field. */
interface Step {
	name: string;
	/** How the value under this name is built: a value, an object of children, or `{ [group]: [row] }`. */
	holds: 'value' | 'collection' | 'fixedCollection';
	group?: string;
}

interface Field {
	resource: string;
	operation: string;
	steps: Step[];
	kind: Kind;
	/** The words the error must contain: the field's label (and, in a form row, its key). */
	labels: string[];
	property: INodeProperties;
	baseline: INodeParameters;
}

const RL = (value: string) => ({ __rl: true, mode: 'id', value });
const ROW = { name: 'Website', quantity: 1, unitPrice: 10, vatPercentage: 21 };
const VALID_JSON_ITEMS = '[{"name":"Website","quantity":2,"unitPrice":95,"vatPercentage":21}]';

/**
 * Valid required parameters of every operation (variants where a choice shows other fields).
 * A new operation without an entry here fails the discovery test.
 */
const BASELINES: Record<string, INodeParameters[]> = {
	'agent.get': [{ agentId: RL('agt_1') }],
	'agent.getAutonomy': [{ agentId: RL('agt_1') }],
	'agent.getAll': [{ returnAll: false, limit: 5 }],
	'agent.pause': [{ agentId: RL('agt_1') }],
	'agent.resume': [{ agentId: RL('agt_1') }],
	'agent.update': [{ agentId: RL('agt_1'), name: 'Quotes' }],
	'agent.updateAutonomy': [
		{ agentId: RL('agt_1'), defaultMode: 'auto_after_approvals', autoAfterApprovalsCount: 3 },
		{ agentId: RL('agt_1'), defaultMode: 'manual' },
	],
	'agentRun.get': [{ agentId: RL('agt_1'), runId: RL('run_1') }],
	'agentRun.getAll': [{ agentId: RL('agt_1'), returnAll: false, limit: 5 }],
	'me.get': [{}],
	'contact.create': [{ name: 'Bakkerij' }],
	'contact.delete': [{ contactId: RL('ctc_1') }],
	'contact.get': [{ contactId: RL('ctc_1') }],
	'contact.getAll': [{ returnAll: false, limit: 5 }],
	'contact.update': [{ contactId: RL('ctc_1'), updateFields: { name: 'Bakkerij' } }],
	'contact.upsert': [{ email: 'info@bakkerij.example', name: 'Bakkerij' }],
	'request.create': [{ fromEmail: 'anna@example.nl', subject: 'Quote', bodyText: 'Hello' }],
	'request.get': [{ requestId: RL('req_1') }],
	'request.getAll': [{ returnAll: false, limit: 5 }],
	'invoice.create': [
		{ contactId: RL('ctc_1'), itemsInput: 'form', items: { item: [ROW] } },
		{ contactId: RL('ctc_1'), itemsInput: 'json', itemsJson: VALID_JSON_ITEMS },
	],
	'invoice.delete': [{ invoiceId: RL('inv_1') }],
	'invoice.get': [{ invoiceId: RL('inv_1') }],
	'invoice.getAll': [{ returnAll: false, limit: 5 }],
	'invoice.markAsPaid': [{ invoiceId: RL('inv_1') }],
	'invoice.send': [{ invoiceId: RL('inv_1') }],
	'invoice.update': [{ invoiceId: RL('inv_1'), updateFields: { dueDate: '2026-12-31' } }],
	'invoice.updateStatus': [{ invoiceId: RL('inv_1'), status: 'paid' }],
	'organization.get': [{}],
	'organization.update': [{ updateFields: { legalName: 'Bakkerij' } }],
	'quote.approve': [{ quoteId: RL('quo_1') }],
	'quote.cancel': [{ quoteId: RL('quo_1') }],
	'quote.create': [
		{ contactId: RL('ctc_1'), itemsInput: 'form', items: { item: [ROW] } },
		{ contactId: RL('ctc_1'), itemsInput: 'json', itemsJson: VALID_JSON_ITEMS },
	],
	'quote.delete': [{ quoteId: RL('quo_1') }],
	'quote.get': [{ quoteId: RL('quo_1') }],
	'quote.getAll': [{ returnAll: false, limit: 5 }],
	'quote.send': [{ quoteId: RL('quo_1') }],
	'quote.update': [{ quoteId: RL('quo_1'), updateFields: { validUntil: '2026-12-31' } }],
	'webhook.create': [{ name: 'Hook', url: 'https://example.com/hook', events: ['invoice.paid'] }],
	'webhook.delete': [{ webhookId: RL('whk_1') }],
	'webhook.get': [{ webhookId: RL('whk_1') }],
	'webhook.getAll': [{ returnAll: false, limit: 5 }],
	'webhook.getEventTypes': [{}],
	'webhook.sendTestEvent': [{ webhookId: RL('whk_1'), eventType: 'invoice.paid' }],
	'webhook.update': [{ webhookId: RL('whk_1'), updateFields: { name: 'Hook' } }],
};

/** A value the field accepts, given to item 0. */
const VALID: Record<Kind, unknown> = {
	id: 'abc_123',
	number: 5,
	date: '2026-12-31',
	json: VALID_JSON_ITEMS,
	email: 'anna@example.nl',
	url: 'https://example.com/hook',
};

const LONG = 'x'.repeat(300);

/** Garbage for each kind; number fields also get values outside their declared range. */
const GARBAGE: Record<Kind, unknown[]> = {
	id: [
		'',
		' ',
		'.',
		'..',
		'../etc',
		'id/with/slash',
		'id?x=1',
		'id#x',
		'a b',
		'%2F',
		'ctc_1/../x',
		'ünï',
		'\u0000',
		null,
		{},
		true,
		' ctc_1',
		'ctc_1\n',
	],
	number: [
		'',
		' ',
		'abc',
		'2,5',
		'1e999',
		'NaN',
		'Infinity',
		'-1',
		'12abc',
		'0x10',
		null,
		true,
		[1],
		{},
	],
	date: [
		'',
		' ',
		'abc',
		'2026-13-45',
		'tomorrow',
		'2026-02-30',
		'31-12-2026',
		'12/31/2026',
		'2026-12-31T25:61',
		'1e999',
		'-1',
		'NaN',
		12345,
		null,
	],
	json: [
		'',
		' ',
		'{not json',
		'[1,2',
		'{"items":1}',
		'[]',
		'null',
		'1',
		'"text"',
		'[{}]',
		'[{"name":"A"}]',
		'[{"name":"A","quantity":"2,5","unitPrice":1}]',
		'[{"name":"A","quantity":1,"unitPrice":1,"extra":1}]',
		'[{"name":" ","quantity":1,"unitPrice":1}]',
		'[{"name":"A","quantity":1,"unitPrice":1,"vatPercentage":121}]',
		'[{"name":"A","quantity":1e999,"unitPrice":1}]',
		{ items: 1 },
		42,
	],
	email: [
		'',
		' ',
		'abc',
		'a@',
		'@b.nl',
		'x y@z.nl',
		'a@b',
		'a@@b.nl',
		'a@b.nl,c@d.nl',
		'a@b.c',
		'a@b.nl.',
		`${LONG}@example.nl`,
		12345,
		null,
	],
	url: [
		'',
		' ',
		'abc',
		'ftp://example.com/x',
		'javascript:alert(1)',
		'http://',
		'//example.com/hook',
		'https://exa mple.com/',
		12345,
		null,
	],
};

/**
 * Number fields where any number is valid: a line's quantity and unit price (the spec says only
 * "number"; discount and credit lines are negative). A negative value is no garbage there.
 */
const SIGNED_NUMBER_FIELDS = new Set(['quantity', 'unitPrice']);

/** The garbage of a field: its kind's list, and for a number field the values outside its range. */
function garbageFor(field: Field): unknown[] {
	// In an optional field, null, "" and spaces mean "not given" (test/node/emptyValues.test.ts).
	const given = (values: unknown[]) =>
		field.property.required
			? values
			: values.filter(
					(value) => value !== null && !(typeof value === 'string' && value.trim() === ''),
				);
	if (field.kind !== 'number') return given(GARBAGE[field.kind]);
	const signed = SIGNED_NUMBER_FIELDS.has(field.property.name);
	return given([
		...GARBAGE.number.filter((value) => !(signed && value === '-1')),
		...rangeGarbage(field.property),
	]);
}

/** Values just outside a number field's declared minValue / maxValue, and a fraction for whole numbers. */
function rangeGarbage(property: INodeProperties): unknown[] {
	const options = property.typeOptions ?? {};
	const extra: unknown[] = [];
	if (typeof options.minValue === 'number') extra.push(String(options.minValue - 1));
	if (typeof options.maxValue === 'number') extra.push(String(options.maxValue + 1));
	if (options.numberPrecision === 0) extra.push('1.5');
	return extra;
}

/** Plain text fields whose name says they hold an ID, a date, a number or JSON: the table must say how to test them. */
const unclassified = new Set<string>();

function kindOf(property: INodeProperties): Kind | undefined {
	if (property.type === 'resourceLocator') return 'id';
	if (property.type === 'number') return 'number';
	if (property.type === 'dateTime') return 'date';
	// Items (JSON) is a text field (a `json` field gives an AI tool an untyped argument)
	if (property.type === 'json' || (property.type === 'string' && /Json$/.test(property.name)))
		return 'json';
	if (property.type === 'string' && /e-?mail/i.test(property.name)) return 'email';
	if (property.type === 'string' && /url$/i.test(property.name)) return 'url';
	if (
		property.type === 'string' &&
		/(Id|Date|At|Until|Count|Days|Percentage|Json)$/.test(property.name)
	) {
		unclassified.add(`${property.name} (${property.type})`);
	}
	return undefined;
}

const properties = node.description.properties as INodeProperties[];

function walk(
	property: INodeProperties,
	steps: Step[],
	labels: string[],
	out: Array<Omit<Field, 'resource' | 'operation' | 'baseline'>>,
) {
	const kind = kindOf(property);
	// A top-level or collection field is named by its label; a form-row field by the form's label and its key.
	if (kind)
		out.push({
			steps,
			kind,
			labels: labels.length > 0 ? labels : [property.displayName],
			property,
		});
	if (property.type === 'collection') {
		const last = steps[steps.length - 1];
		last.holds = 'collection';
		for (const child of (property.options ?? []) as INodeProperties[]) {
			walk(child, [...steps.map((s) => ({ ...s })), { name: child.name, holds: 'value' }], [], out);
		}
	}
	if (property.type === 'fixedCollection') {
		for (const group of (property.options ?? []) as INodePropertyCollection[]) {
			for (const child of group.values) {
				const parentSteps = steps.map((s) => ({ ...s }));
				parentSteps[parentSteps.length - 1] = {
					...parentSteps[parentSteps.length - 1],
					holds: 'fixedCollection',
					group: group.name,
				};
				// In a form row the message names the form ("Items") and the key of the row field.
				walk(
					child,
					[...parentSteps, { name: child.name, holds: 'value' }],
					[property.displayName, `"${child.name}"`],
					out,
				);
			}
		}
	}
}

function discover(): { fields: Field[]; missingBaselines: string[] } {
	const fields = new Map<string, Field>();
	const missingBaselines: string[] = [];
	const resources = (properties.find((p) => p.name === 'resource')?.options ??
		[]) as INodePropertyOptions[];
	for (const resource of resources.map((r) => String(r.value))) {
		const operationProperty = properties.find(
			(p) => p.name === 'operation' && (p.displayOptions?.show?.resource ?? []).includes(resource),
		);
		for (const operation of ((operationProperty?.options ?? []) as INodePropertyOptions[]).map(
			(o) => String(o.value),
		)) {
			const variants = BASELINES[`${resource}.${operation}`];
			if (!variants) {
				missingBaselines.push(`${resource}.${operation}`);
				continue;
			}
			for (const variant of variants) {
				const values: INodeParameters = { resource, operation, ...variant };
				for (const property of properties) {
					if (['resource', 'operation', 'requestOptions'].includes(property.name)) continue;
					if (!NodeHelpers.displayParameter(values, property, { typeVersion: 1 }, node.description))
						continue;
					const found: Array<Omit<Field, 'resource' | 'operation' | 'baseline'>> = [];
					walk(property, [{ name: property.name, holds: 'value' }], [], found);
					for (const field of found) {
						const key = `${resource}.${operation}:${field.steps.map((s) => s.group ?? s.name).join('.')}`;
						if (!fields.has(key))
							fields.set(key, { ...field, resource, operation, baseline: variant });
					}
				}
			}
		}
	}
	return { fields: [...fields.values()], missingBaselines };
}

const { fields, missingBaselines } = discover();

function describeField(field: Field): string {
	const path = field.steps.map((s) => (s.group ? `${s.name}.${s.group}` : s.name)).join('.');
	return `${field.resource}.${field.operation} ${path} (${field.kind})`;
}

/** The baseline with the field set to `value` (an expression, here). */
function parametersWith(field: Field, value: unknown): INodeParameters {
	const parameters: INodeParameters = {
		resource: field.resource,
		operation: field.operation,
		...structuredClone(field.baseline),
	};
	const leaf = field.kind === 'id' ? RL(value as string) : value;
	let target: IDataObject = parameters as IDataObject;
	for (const [index, step] of field.steps.entries()) {
		const isLast = index === field.steps.length - 1;
		if (isLast) {
			target[step.name] = leaf as IDataObject;
		} else if (step.holds === 'collection') {
			const current = target[step.name];
			target[step.name] =
				current && typeof current === 'object' && !Array.isArray(current)
					? { ...(current as IDataObject) }
					: {};
			target = target[step.name] as IDataObject;
		} else if (step.holds === 'fixedCollection') {
			const row: IDataObject = { ...ROW };
			target[step.name] = { [step.group as string]: [row] };
			target = row;
		}
	}
	return parameters;
}

interface Sent {
	method: string;
	path: string;
	body: unknown;
}
let sent: Sent[] = [];

function interceptAll() {
	const reply = (method: string) =>
		function (this: unknown, uri: string, body: unknown) {
			// A list read that a write to the same list follows is that write's look-up (Create or
			// Update matches on e-mail), not what the fields send: it is left out.
			const last = sent[sent.length - 1];
			if (
				method !== 'GET' &&
				last?.method === 'GET' &&
				/[?&]page=/.test(last.path) &&
				uri.startsWith(last.path.split('?')[0])
			)
				sent.pop();
			sent.push({ method, path: uri, body });
			if (method === 'DELETE') return [200, { data: { id: 'abc_123', deleted: true } }];
			return [
				200,
				{ data: { id: 'abc_123' }, meta: { page: 1, pageSize: 5, total: 1, hasMore: false } },
			];
		};
	const scope = nock(ORIGIN).persist();
	for (const method of ['get', 'post', 'patch', 'delete'] as const) {
		scope[method](/.*/).reply(reply(method.toUpperCase()) as never);
	}
}

beforeEach(() => {
	sent = [];
	forgetRateBudgets();
	interceptAll();
});

describe('discovery', () => {
	test('every operation has a baseline, and the walk finds the fields the issue names', () => {
		expect(missingBaselines).toEqual([]);
		expect([...unclassified]).toEqual([]);
		const names = new Set(fields.map(describeField));
		// a sample of what must be found; the walk finds more
		for (const expected of [
			'contact.get contactId (id)',
			'quote.create contactId (id)',
			'quote.update updateFields.contactId (id)',
			'agentRun.get runId (id)',
			'webhook.sendTestEvent webhookId (id)',
			'contact.getAll limit (number)',
			'agent.updateAutonomy autoAfterApprovalsCount (number)',
			'organization.update updateFields.defaultPaymentTermsDays (number)',
			'organization.update updateFields.defaultVatPercentage (number)',
			'quote.create items.item.quantity (number)',
			'invoice.update updateFields.items.item.unitPrice (number)',
			'quote.create items.item.vatPercentage (number)',
			'quote.create additionalFields.validUntil (date)',
			'invoice.update updateFields.dueDate (date)',
			'invoice.create itemsJson (json)',
			'quote.update updateFields.itemsJson (json)',
			'contact.create additionalFields.email (email)',
			'contact.update updateFields.email (email)',
			'request.create fromEmail (email)',
			'webhook.create url (url)',
		]) {
			expect(names).toContain(expected);
		}
		expect(fields.length).toBeGreaterThanOrEqual(60);
	});

	test('the baseline of every field is accepted and sends exactly one request', async () => {
		const problems: string[] = [];
		for (const field of fields) {
			sent = [];
			const { items } = await runDeclarativeNode(node, parametersWith(field, VALID[field.kind]), {
				continueOnFail: true,
			});
			if (items.length !== 1 || items[0].error || sent.length !== 1) {
				problems.push(
					`${describeField(field)}: ${items[0]?.error?.message ?? `${sent.length} requests`}`,
				);
			}
		}
		expect(problems).toEqual([]);
	});
});

interface Outcome {
	value: unknown;
	problem?: string;
}

/** Runs item 0 (valid) and item 1 (garbage) and says what went wrong for item 1, if anything. */
async function tryGarbage(field: Field, value: unknown): Promise<Outcome> {
	sent = [];
	const parameters = parametersWith(field, '={{ $json.v }}');
	let items;
	try {
		({ items } = await runDeclarativeNode(node, parameters, {
			continueOnFail: true,
			items: [
				{ json: { v: VALID[field.kind] } as IDataObject },
				{ json: { v: value } as IDataObject },
			],
		}));
	} catch (error) {
		return {
			value,
			problem: `the run threw despite continue-on-fail: ${(error as Error).message}`,
		};
	}
	const [first, second] = items;
	if (!first || first.error)
		return { value, problem: `item 0 (valid) failed: ${first?.error?.message}` };
	const requestsForItem1 = sent.length - 1;
	if (!second?.error) {
		return {
			value,
			problem: `accepted and sent (${requestsForItem1} request(s), e.g. ${JSON.stringify(sent[1] ?? null)})`,
		};
	}
	const message = second.error.message;
	const problems: string[] = [];
	if (requestsForItem1 > 0) problems.push(`sent ${requestsForItem1} request(s) before failing`);
	if (!message.includes('[item 1]')) problems.push('no "[item 1]"');
	const missing = field.labels.filter((label) => !message.includes(label));
	if (missing.length > 0) problems.push(`does not name ${missing.join(', ')}`);
	return problems.length > 0
		? { value, problem: `${problems.join('; ')}: "${message}"` }
		: { value };
}

/**
 * All garbage values of a field in one run: item 0 valid, item k the k-th garbage value. Each
 * item must fail with "[item k]" and the field's name, and only item 0 may send. Returns the
 * values that need a closer look (run again alone as item 1 of 2 for an exact report).
 */
async function tryAll(
	field: Field,
	values: unknown[],
): Promise<{ suspects: unknown[]; problems: string[] }> {
	sent = [];
	let items;
	try {
		({ items } = await runDeclarativeNode(node, parametersWith(field, '={{ $json.v }}'), {
			continueOnFail: true,
			items: [VALID[field.kind], ...values].map((v) => ({ json: { v } as IDataObject })),
		}));
	} catch (error) {
		return {
			suspects: values,
			problems: [`the run threw despite continue-on-fail: ${(error as Error).message}`],
		};
	}
	if (items.length !== values.length + 1 || items[0].error)
		return { suspects: values, problems: [] };
	const suspects: unknown[] = [];
	let accepted = 0;
	for (const [i, value] of values.entries()) {
		const error = items[i + 1].error;
		if (!error) accepted++;
		const named =
			error &&
			error.message.includes(`[item ${i + 1}]`) &&
			field.labels.every((label) => error.message.includes(label));
		if (!named) suspects.push(value);
	}
	// requests beyond item 0's and the accepted items' were sent by items that then failed
	if (sent.length - 1 - accepted > 0) return { suspects: values, problems: [] };
	return { suspects, problems: [] };
}

const cases = fields.map((field) => [describeField(field), field] as const);

describe('garbage in an ID, number, date, JSON, e-mail or URL field: clear message, item 1, nothing sent', () => {
	test.each(cases)('%s', async (_name, field) => {
		const values = garbageFor(field);
		const findings: string[] = [];
		// as in the issue: item 1 of 2, item 0 valid, for the first garbage value; then all of them at once
		const { suspects, problems } = await tryAll(field, values);
		findings.push(...problems);
		for (const value of new Set([values[0], ...suspects])) {
			const outcome = await tryGarbage(field, value);
			if (outcome.problem) findings.push(`${JSON.stringify(value)} → ${outcome.problem}`);
		}
		expect(findings).toEqual([]);
	});
});
