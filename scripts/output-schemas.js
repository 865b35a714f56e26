#!/usr/bin/env node
// The one source of the Business Ops node's output schemas: what one output item of each
// operation holds, written from the API spec (docs: ../docs/ai-agents.md). n8n serves
// `nodes/BusinessOps/__schema__/v1.0.0/<resource>/<operation>.json` to the editor's mapping
// panel before the node has run, and AI features read it.
//
//   node scripts/output-schemas.js          writes the files
//   node scripts/output-schemas.js --check  fails when a committed file differs
//
// `validate(schema, value)` is the small checker the unit test and the e2e run use on real
// outputs of the sandbox (types, required keys, enums, array items; unknown keys allowed).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const SCHEMA_DIR = path.join(__dirname, '..', 'nodes', 'BusinessOps', '__schema__', 'v1.0.0');

const str = (description) => ({ type: 'string', description });
const nullableStr = (description) => ({ type: ['string', 'null'], description });
const num = (description) => ({ type: 'number', description });
const bool = (description) => ({ type: 'boolean', description });
const time = (description) => ({ type: 'string', description: `${description} (ISO 8601)` });
const oneOf = (values, description) => ({ type: 'string', enum: values, description });
const record = (properties, required = ['id']) => ({ type: 'object', properties, required });

const stamps = {
	createdAt: time('When the record was created'),
	updatedAt: time('When the record was last changed'),
};

const lineItem = record(
	{
		name: str('What is sold'),
		quantity: num('How many'),
		unitPrice: num('Price of one, without VAT'),
		vatPercentage: num('VAT percentage, 0 to 100'),
	},
	['name', 'quantity', 'unitPrice'],
);

const documentFields = (statuses) => ({
	id: str('Identifier'),
	number: str('Document number'),
	status: oneOf(statuses, 'Status'),
	contactId: str('Identifier of the contact'),
	items: { type: 'array', items: lineItem, description: 'Line items' },
	subtotal: num('Total without VAT'),
	vatTotal: num('VAT amount'),
	total: num('Total with VAT'),
	currency: str('ISO 4217 currency code'),
	...stamps,
});

const contact = record({
	id: str('Identifier'),
	name: str('Name'),
	email: nullableStr('E-mail address'),
	phone: nullableStr('Phone number'),
	kvkNumber: nullableStr('Chamber-of-commerce number'),
	type: str('Contact type, e.g. business or individual'),
	billingCountry: nullableStr('Billing country code'),
	...stamps,
});

const quote = record({
	...documentFields(['draft', 'sent', 'approved', 'canceled']),
	validUntil: time('Valid until'),
});

const invoice = record({
	...documentFields([
		'draft',
		'finalized',
		'sent',
		'viewed',
		'paid',
		'overdue',
		'in_collection',
		'written_off',
	]),
	issueDate: time('Issue date'),
	dueDate: time('Due date'),
});

const autonomyModes = ['manual', 'auto_after_approvals', 'auto_instant'];
const autonomy = record(
	{
		agentId: str('Identifier of the agent'),
		defaultMode: oneOf(autonomyModes, 'Default mode of the agent actions'),
		autoAfterApprovalsCount: {
			type: ['number', 'null'],
			description: 'Approvals after which an action type runs automatically',
		},
		actionOverrides: {
			type: 'object',
			description: 'Mode per action name, e.g. {"send_invoice": {"mode": "manual"}}',
		},
		updatedAt: time('When the configuration was last changed'),
	},
	['defaultMode'],
);

const agent = record({
	id: str('Identifier'),
	name: str('Name'),
	agentType: oneOf(
		['QuoteAgent', 'InvoiceAgent', 'PlanningAgent', 'CustomerCareAgent'],
		'Kind of agent',
	),
	status: oneOf(['active', 'paused', 'uninstalled'], 'Status'),
	description: str('What the agent does'),
	...stamps,
});

const agentRun = record({
	id: str('Identifier'),
	agentId: str('Identifier of the agent'),
	status: oneOf(['running', 'success', 'failed'], 'Status'),
	requestId: nullableStr('Customer request that started the run'),
	summary: str('Summary'),
	error: nullableStr('Why the run failed'),
	startedAt: time('Start'),
	finishedAt: { type: ['string', 'null'], description: 'End (ISO 8601)' },
	input: { type: 'object', description: 'What the run was given' },
	output: { type: ['object', 'null'], description: 'What the run produced' },
	...stamps,
});

const request = record({
	id: str('Identifier'),
	fromEmail: str('E-mail address of the sender'),
	fromName: nullableStr('Name of the sender'),
	subject: str('Subject'),
	bodyText: str('Text of the request'),
	externalRef: nullableStr('Reference in your own system'),
	status: oneOf(['new', 'processing', 'processed', 'failed', 'archived'], 'Status'),
	output: { type: ['object', 'null'], description: 'Output of the agent run, once processed' },
	...stamps,
});

const webhookFields = {
	id: str('Identifier'),
	name: str('Name'),
	url: str('Where the deliveries go'),
	events: { type: 'array', items: { type: 'string' }, description: 'Event types' },
	active: bool('False while paused'),
	...stamps,
};
const webhook = record(webhookFields);
const createdWebhook = record({
	...webhookFields,
	signingSecret: str('Signing secret, returned only here'),
});

const deleted = record(
	{ deleted: bool('Always true'), id: str('Identifier of the deleted record') },
	['deleted', 'id'],
);

const organization = record(
	{
		legalName: str('Legal name'),
		kvkNumber: str('Chamber-of-commerce number'),
		vatNumber: str('VAT number'),
		iban: str('IBAN'),
		defaultCurrency: str('ISO 4217 currency code'),
		defaultVatPercentage: num('Default VAT percentage'),
		defaultPaymentTermsDays: num('Default payment terms in days'),
		invoiceFooter: str('Invoice footer'),
		invoiceNumberPrefix: str('Invoice number prefix'),
		quoteNumberPrefix: str('Quote number prefix'),
	},
	[],
);

const me = record(
	{
		apiKeyId: str('Identifier of the key'),
		organizationId: str('Identifier of the organization'),
		scopes: { type: 'array', items: { type: 'string' }, description: 'Scopes of the key' },
		prefix: str('Shortened display form of the key'),
	},
	['apiKeyId', 'scopes'],
);

/** `schemas[resource][operation]`: one output item (Simplify off, its default). */
const schemas = {
	agent: {
		get: agent,
		getAll: agent,
		getAutonomy: autonomy,
		pause: agent,
		resume: agent,
		update: agent,
		updateAutonomy: autonomy,
	},
	agentRun: { get: agentRun, getAll: agentRun },
	contact: {
		create: contact,
		delete: deleted,
		get: contact,
		getAll: contact,
		update: contact,
		upsert: {
			...contact,
			properties: {
				action: oneOf(
					['created', 'updated', 'unchanged'],
					'Whether Create or Update created the contact, updated the one with its e-mail, or left it unchanged (the item gave nothing but the e-mail)',
				),
				...contact.properties,
			},
			required: ['action', ...contact.required],
		},
	},
	invoice: {
		create: invoice,
		delete: deleted,
		get: invoice,
		getAll: invoice,
		markAsPaid: invoice,
		send: invoice,
		update: invoice,
		updateStatus: invoice,
	},
	me: { get: me },
	organization: { get: organization, update: organization },
	quote: {
		approve: quote,
		cancel: quote,
		create: quote,
		delete: deleted,
		get: quote,
		getAll: quote,
		send: quote,
		update: quote,
	},
	request: { create: request, get: request, getAll: request },
	webhook: {
		create: createdWebhook,
		delete: deleted,
		get: webhook,
		getAll: webhook,
		getEventTypes: record({ type: str('Event type name, e.g. invoice.paid') }, ['type']),
		sendTestEvent: record(
			{
				delivered: bool('Whether the subscription URL accepted the test event'),
				statusCode: {
					type: ['number', 'null'],
					description: 'HTTP status the subscription URL answered',
				},
				error: nullableStr('Why the delivery failed'),
				eventId: str('Identifier of the test event'),
			},
			[],
		),
		update: webhook,
	},
};

/** `[{ resource, operation, file, text }]` of every schema file. */
function schemaFiles() {
	const files = [];
	for (const [resource, operations] of Object.entries(schemas)) {
		for (const [operation, schema] of Object.entries(operations)) {
			const text = `${JSON.stringify(schema, null, '\t')}\n`;
			files.push({
				resource,
				operation,
				file: path.join(SCHEMA_DIR, resource, `${operation}.json`),
				text,
			});
		}
	}
	return files;
}

function typeOf(value) {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
	return typeof value;
}

/** The problems of `value` against `schema` (empty when it matches), each with its path. */
function validate(schema, value, at = '$') {
	const types = schema.type === undefined ? [] : [].concat(schema.type);
	const actual = typeOf(value);
	if (
		types.length &&
		!types.includes(actual) &&
		!(actual === 'integer' && types.includes('number'))
	) {
		return [`${at}: ${actual} where the schema says ${types.join(' or ')}`];
	}
	const problems = [];
	if (schema.enum && !schema.enum.includes(value))
		problems.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
	if (actual === 'object' && schema.properties) {
		for (const key of schema.required || [])
			if (!(key in value)) problems.push(`${at}: no "${key}"`);
		for (const [key, sub] of Object.entries(schema.properties)) {
			if (key in value) problems.push(...validate(sub, value[key], `${at}.${key}`));
		}
	}
	if (actual === 'array' && schema.items)
		value.forEach((v, i) => problems.push(...validate(schema.items, v, `${at}[${i}]`)));
	return problems;
}

/** Reads the committed schema of an operation (what n8n serves). */
function readSchema(resource, operation) {
	return JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, resource, `${operation}.json`), 'utf8'));
}

function main(argv) {
	const check = argv.includes('--check');
	const stale = [];
	for (const { file, text } of schemaFiles()) {
		const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
		if (current === text) continue;
		if (check) stale.push(path.relative(process.cwd(), file));
		else {
			fs.mkdirSync(path.dirname(file), { recursive: true });
			fs.writeFileSync(file, text);
		}
	}
	if (stale.length) {
		console.error(
			`output schemas out of date (run node scripts/output-schemas.js): ${stale.join(', ')}`,
		);
		process.exit(1);
	}
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { SCHEMA_DIR, schemas, schemaFiles, validate, readSchema };
