/** Shared schemas: record shapes (OpenAPI components), envelopes and field rules used by several bodies. */
import {
	AGENT_STATUSES,
	AGENT_TYPES,
	AUTONOMY_MODES,
	CONTACT_TYPES,
	INVOICE_STATUSES,
	QUOTE_STATUSES,
	REQUEST_STATUSES,
	RUN_STATUSES,
} from './types';
import type { Schema } from './validation';
import { EVENT_TYPE_NAMES } from './webhooks/events';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

export function ref(name: string): Schema {
	return { $ref: `#/components/schemas/${name}` };
}

export function single(name: string): Schema {
	return { type: 'object', required: ['data'], properties: { data: ref(name) } };
}

export function list(name: string): Schema {
	return {
		type: 'object',
		required: ['data', 'meta'],
		properties: { data: { type: 'array', items: ref(name) }, meta: ref('ListMeta') },
	};
}

export const paginationQuery: Record<string, Schema> = {
	page: { type: 'integer', minimum: 1, default: 1, description: 'Page number, starting at 1.' },
	pageSize: {
		type: 'integer',
		minimum: 1,
		maximum: MAX_PAGE_SIZE,
		default: DEFAULT_PAGE_SIZE,
		description: `Items per page, at most ${MAX_PAGE_SIZE}.`,
	},
};

const id = (prefix: string, description = 'Identifier.'): Schema => ({
	type: 'string',
	description: `${description} Starts with "${prefix}_".`,
	readOnly: true,
});
const timestamp: Schema = { type: 'string', format: 'date-time', readOnly: true };
const nullableTimestamp: Schema = { type: ['string', 'null'], format: 'date-time', readOnly: true };
const money: Schema = {
	type: 'number',
	description: 'Amount in the currency, rounded to cents.',
	readOnly: true,
};

/** ISO 3166-1 alpha-2 country codes. */
export const COUNTRY_CODES = (
	'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR ' +
	'CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ' +
	'ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
	'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI ' +
	'SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

// Field rules reused by create and update bodies.
export const field = {
	email: { type: 'string', format: 'email', description: 'At most 254 characters.' } as Schema,
	kvkNumber: {
		type: 'string',
		pattern: '^[0-9]{8}$',
		'x-error': 'exactly 8 digits, e.g. "12345678"',
	} as Schema,
	countryCode: {
		type: 'string',
		enum: COUNTRY_CODES,
		'x-error': 'a two-letter ISO 3166-1 country code in capitals, e.g. "NL"',
	} as Schema,
	phone: {
		type: 'string',
		pattern: '^\\+?[0-9 ()./-]{6,30}$',
		'x-error': 'a phone number of 6 to 30 digits, spaces and + ( ) - . /, e.g. "+31 30 123 4567"',
	} as Schema,
	vatPercentage: { type: 'number', minimum: 0, maximum: 100 } as Schema,
	name: (max: number): Schema => ({ type: 'string', minLength: 1, maxLength: max }),
};

export const lineItemSchema: Schema = {
	type: 'object',
	additionalProperties: false,
	required: ['name', 'quantity', 'unitPrice'],
	properties: {
		name: { type: 'string', minLength: 1, maxLength: 200, description: 'What is sold.' },
		quantity: {
			type: 'number',
			description: 'Any number; a negative one makes a credit line (strict mode: more than 0).',
		},
		unitPrice: {
			type: 'number',
			description:
				'Price per unit, excluding VAT; a negative one makes a discount line (strict mode: 0 or more).',
		},
		vatPercentage: {
			...field.vatPercentage,
			description: "VAT rate of the line; defaults to the organization's defaultVatPercentage.",
		},
	},
};

export const itemsSchema: Schema = {
	type: 'array',
	minItems: 1,
	maxItems: 200,
	items: lineItemSchema,
};

const autonomyMode: Schema = { type: 'string', enum: AUTONOMY_MODES };

const agentSchema = {
	type: 'object',
	required: ['id', 'name', 'agentType', 'status', 'description', 'createdAt', 'updatedAt'],
	properties: {
		id: id('agt'),
		name: { type: 'string' },
		agentType: { type: 'string', enum: AGENT_TYPES },
		status: { type: 'string', enum: AGENT_STATUSES },
		description: { type: 'string' },
		createdAt: timestamp,
		updatedAt: timestamp,
	},
} satisfies Schema;

const agentRunSchema = {
	type: 'object',
	description: 'A run as listed (without input and output).',
	required: [
		'id',
		'agentId',
		'status',
		'trigger',
		'requestId',
		'summary',
		'error',
		'startedAt',
		'finishedAt',
		'durationMs',
		'createdAt',
		'updatedAt',
	],
	properties: {
		id: id('run'),
		agentId: { type: 'string' },
		status: { type: 'string', enum: RUN_STATUSES },
		trigger: { type: 'string', enum: ['request', 'schedule', 'manual'] },
		requestId: { type: ['string', 'null'] },
		summary: { type: 'string' },
		error: { type: ['string', 'null'] },
		startedAt: timestamp,
		finishedAt: nullableTimestamp,
		durationMs: { type: ['integer', 'null'] },
		createdAt: timestamp,
		updatedAt: timestamp,
	},
} satisfies Schema;

export const componentSchemas: Record<string, Schema> = {
	Error: {
		type: 'object',
		required: ['error'],
		properties: {
			error: {
				type: 'object',
				required: ['code', 'message'],
				properties: {
					code: {
						type: 'string',
						enum: [
							'invalid_request',
							'invalid_json',
							'unauthorized',
							'insufficient_scope',
							'not_found',
							'method_not_allowed',
							'duplicate_resource',
							'invalid_state',
							'rate_limited',
							'internal_error',
						],
					},
					message: { type: 'string' },
					field: {
						type: 'string',
						description:
							'invalid_request and duplicate_resource: path of the offending field, e.g. "items[2].quantity".',
					},
					scope: { type: 'string', description: 'insufficient_scope: the missing scope.' },
				},
			},
		},
	},
	ListMeta: {
		type: 'object',
		required: ['page', 'pageSize', 'total', 'hasMore'],
		properties: {
			page: { type: 'integer' },
			pageSize: { type: 'integer' },
			total: { type: 'integer', description: 'Number of items over all pages.' },
			hasMore: { type: 'boolean', description: 'True when a next page has items.' },
		},
	},
	Deleted: {
		type: 'object',
		required: ['id', 'deleted'],
		properties: { id: { type: 'string' }, deleted: { type: 'boolean', const: true } },
	},
	Me: {
		type: 'object',
		required: ['apiKeyId', 'organizationId', 'scopes', 'prefix'],
		properties: {
			apiKeyId: id('key', 'Identifier of the key.'),
			organizationId: id('org'),
			name: { type: 'string', description: 'Name given to the key.' },
			scopes: { type: 'array', items: { type: 'string' } },
			prefix: {
				type: 'string',
				description: 'Display form: "svc_" + 4 characters + "…".',
				examples: ['svc_AbCd…'],
			},
			createdAt: timestamp,
			expiresAt: nullableTimestamp,
		},
	},
	Organization: {
		type: 'object',
		required: [
			'id',
			'legalName',
			'kvkNumber',
			'vatNumber',
			'iban',
			'defaultCurrency',
			'defaultVatPercentage',
			'defaultPaymentTermsDays',
			'invoiceFooter',
			'invoiceNumberPrefix',
			'quoteNumberPrefix',
			'createdAt',
			'updatedAt',
		],
		properties: {
			id: id('org'),
			legalName: { type: 'string' },
			kvkNumber: { type: 'string', description: 'Chamber-of-commerce (KvK) number, 8 digits.' },
			vatNumber: { type: 'string', examples: ['NL859123456B01'] },
			iban: { type: 'string', examples: ['NL91ABNA0417164300'] },
			defaultCurrency: { type: 'string', description: 'ISO 4217 code.' },
			defaultVatPercentage: { type: 'number', minimum: 0, maximum: 100 },
			defaultPaymentTermsDays: { type: 'integer', minimum: 0 },
			invoiceFooter: { type: 'string' },
			invoiceNumberPrefix: { type: 'string' },
			quoteNumberPrefix: { type: 'string' },
			createdAt: timestamp,
			updatedAt: timestamp,
		},
	},
	Contact: {
		type: 'object',
		required: [
			'id',
			'name',
			'email',
			'phone',
			'kvkNumber',
			'type',
			'billingCountry',
			'createdAt',
			'updatedAt',
		],
		properties: {
			id: id('ctc'),
			name: { type: 'string' },
			email: { type: ['string', 'null'], format: 'email' },
			phone: { type: ['string', 'null'] },
			kvkNumber: { type: ['string', 'null'], description: '8 digits.' },
			type: { type: 'string', examples: [...CONTACT_TYPES] },
			billingCountry: { type: 'string', description: 'ISO 3166-1 alpha-2 code.' },
			createdAt: timestamp,
			updatedAt: timestamp,
		},
	},
	LineItem: {
		type: 'object',
		required: ['name', 'quantity', 'unitPrice', 'vatPercentage'],
		properties: {
			name: { type: 'string' },
			quantity: { type: 'number' },
			unitPrice: { type: 'number' },
			vatPercentage: { type: 'number' },
		},
	},
	Quote: {
		type: 'object',
		required: [
			'id',
			'number',
			'status',
			'contactId',
			'items',
			'validUntil',
			'currency',
			'subtotal',
			'vatTotal',
			'total',
			'createdAt',
			'updatedAt',
		],
		properties: {
			id: id('quo'),
			number: {
				type: 'string',
				description: '<quoteNumberPrefix><year>-<4-digit sequence>.',
				examples: ['OFF-2026-0001'],
				readOnly: true,
			},
			status: { type: 'string', enum: QUOTE_STATUSES },
			contactId: { type: 'string' },
			items: { type: 'array', items: ref('LineItem') },
			validUntil: timestamp,
			currency: { type: 'string', readOnly: true },
			subtotal: money,
			vatTotal: money,
			total: money,
			createdAt: timestamp,
			updatedAt: timestamp,
		},
	},
	Invoice: {
		type: 'object',
		required: [
			'id',
			'number',
			'status',
			'contactId',
			'items',
			'issueDate',
			'dueDate',
			'currency',
			'subtotal',
			'vatTotal',
			'total',
			'createdAt',
			'updatedAt',
		],
		properties: {
			id: id('inv'),
			number: {
				type: 'string',
				description: '<invoiceNumberPrefix><year>-<4-digit sequence>.',
				examples: ['INV-2026-0001'],
				readOnly: true,
			},
			status: { type: 'string', enum: INVOICE_STATUSES },
			contactId: { type: 'string' },
			items: { type: 'array', items: ref('LineItem') },
			issueDate: { type: 'string', format: 'date', readOnly: true },
			dueDate: { type: 'string', format: 'date' },
			currency: { type: 'string', readOnly: true },
			subtotal: money,
			vatTotal: money,
			total: money,
			createdAt: timestamp,
			updatedAt: timestamp,
		},
	},
	Agent: agentSchema,
	AgentDetail: {
		...agentSchema,
		description: 'An agent plus counts.',
		required: ['id', 'name', 'agentType', 'status', 'counts'],
		properties: {
			...agentSchema.properties,
			counts: {
				type: 'object',
				required: ['runs', 'connectors', 'examples'],
				properties: {
					runs: { type: 'integer' },
					connectors: { type: 'integer' },
					examples: { type: 'integer' },
				},
			},
		},
	},
	Autonomy: {
		type: 'object',
		required: ['agentId', 'defaultMode', 'autoAfterApprovalsCount', 'actionOverrides', 'updatedAt'],
		properties: {
			agentId: { type: 'string' },
			defaultMode: autonomyMode,
			autoAfterApprovalsCount: { type: ['integer', 'null'], minimum: 0 },
			actionOverrides: {
				type: 'object',
				additionalProperties: {
					type: 'object',
					required: ['mode'],
					properties: { mode: autonomyMode },
				},
				examples: [{ send_invoice: { mode: 'manual' } }],
			},
			updatedAt: timestamp,
		},
	},
	AgentRun: agentRunSchema,
	AgentRunDetail: {
		...agentRunSchema,
		description: 'A run with its input and output JSON.',
		required: ['id', 'agentId', 'status', 'input', 'output'],
		properties: {
			...agentRunSchema.properties,
			input: { type: 'object' },
			output: { type: ['object', 'null'] },
		},
	},
	Request: {
		type: 'object',
		required: [
			'id',
			'fromEmail',
			'fromName',
			'subject',
			'bodyText',
			'externalRef',
			'status',
			'agentId',
			'agentRunId',
			'contactId',
			'quoteId',
			'output',
			'failureReason',
			'processedAt',
			'createdAt',
			'updatedAt',
		],
		properties: {
			id: id('req'),
			fromEmail: { type: 'string', format: 'email' },
			fromName: { type: ['string', 'null'] },
			subject: { type: 'string' },
			bodyText: { type: 'string' },
			externalRef: { type: ['string', 'null'] },
			status: { type: 'string', enum: REQUEST_STATUSES },
			agentId: {
				type: ['string', 'null'],
				description: 'The agent that handled (or should have handled) the request.',
			},
			agentRunId: { type: ['string', 'null'] },
			contactId: { type: ['string', 'null'] },
			quoteId: { type: ['string', 'null'] },
			output: {
				type: ['object', 'null'],
				description: 'Output JSON of the agent run, when one exists.',
			},
			failureReason: { type: ['string', 'null'] },
			processedAt: nullableTimestamp,
			createdAt: timestamp,
			updatedAt: timestamp,
		},
	},
	Webhook: {
		type: 'object',
		required: ['id', 'name', 'url', 'events', 'active', 'createdAt', 'updatedAt'],
		properties: {
			id: id('whk'),
			name: { type: 'string' },
			url: { type: 'string', format: 'uri' },
			events: { type: 'array', items: { type: 'string', enum: EVENT_TYPE_NAMES } },
			active: { type: 'boolean' },
			createdAt: timestamp,
			updatedAt: timestamp,
		},
	},
	WebhookCreated: {
		type: 'object',
		description:
			'The subscription as created, with its signing secret: the only time the secret is shown.',
		required: ['id', 'name', 'url', 'events', 'active', 'signingSecret', 'createdAt', 'updatedAt'],
		properties: {
			id: id('whk'),
			name: { type: 'string' },
			url: { type: 'string', format: 'uri' },
			events: { type: 'array', items: { type: 'string', enum: EVENT_TYPE_NAMES } },
			active: { type: 'boolean' },
			signingSecret: { type: 'string', description: '"whsec_" + base64 of 24 random bytes.' },
			createdAt: timestamp,
			updatedAt: timestamp,
		},
	},
	EventType: {
		type: 'object',
		required: ['type', 'description'],
		properties: {
			type: { type: 'string', enum: EVENT_TYPE_NAMES },
			description: { type: 'string' },
		},
	},
	TestDelivery: {
		type: 'object',
		required: ['delivered', 'statusCode', 'eventId'],
		properties: {
			delivered: { type: 'boolean', description: 'True when the first attempt got a 2xx answer.' },
			statusCode: {
				type: ['integer', 'null'],
				description: 'Null when no answer came (network error or timeout).',
			},
			error: { type: ['string', 'null'] },
			eventId: { type: 'string' },
		},
	},
};
