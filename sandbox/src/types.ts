/** Records as the API shows them. Internal-only fields live in the *Record types. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Organization {
	id: string;
	legalName: string;
	kvkNumber: string;
	vatNumber: string;
	iban: string;
	defaultCurrency: string;
	defaultVatPercentage: number;
	defaultPaymentTermsDays: number;
	invoiceFooter: string;
	invoiceNumberPrefix: string;
	quoteNumberPrefix: string;
	createdAt: string;
	updatedAt: string;
}

export const CONTACT_TYPES = ['business', 'individual'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

export interface Contact {
	id: string;
	name: string;
	email: string | null;
	phone: string | null;
	kvkNumber: string | null;
	/** One of CONTACT_TYPES, or any other text the API was given (the spec does not show the full list). */
	type: ContactType | (string & {});
	billingCountry: string;
	createdAt: string;
	updatedAt: string;
}

export interface LineItem {
	name: string;
	quantity: number;
	unitPrice: number;
	vatPercentage: number;
}

export interface Totals {
	subtotal: number;
	vatTotal: number;
	total: number;
}

export const QUOTE_STATUSES = ['draft', 'sent', 'approved', 'canceled'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export interface Quote extends Totals {
	id: string;
	number: string;
	status: QuoteStatus;
	contactId: string;
	items: LineItem[];
	validUntil: string;
	currency: string;
	createdAt: string;
	updatedAt: string;
}

export const INVOICE_STATUSES = [
	'draft',
	'finalized',
	'sent',
	'viewed',
	'paid',
	'overdue',
	'in_collection',
	'written_off',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface Invoice extends Totals {
	id: string;
	number: string;
	status: InvoiceStatus;
	contactId: string;
	items: LineItem[];
	issueDate: string;
	dueDate: string;
	currency: string;
	createdAt: string;
	updatedAt: string;
}

export const AGENT_STATUSES = ['active', 'paused', 'uninstalled'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];
export const AGENT_TYPES = [
	'QuoteAgent',
	'InvoiceAgent',
	'PlanningAgent',
	'CustomerCareAgent',
] as const;
export type AgentType = (typeof AGENT_TYPES)[number];
export const AUTONOMY_MODES = ['manual', 'auto_after_approvals', 'auto_instant'] as const;
export type AutonomyMode = (typeof AUTONOMY_MODES)[number];

export interface Autonomy {
	agentId: string;
	defaultMode: AutonomyMode;
	autoAfterApprovalsCount: number | null;
	actionOverrides: Record<string, { mode: AutonomyMode }>;
	updatedAt: string;
}

export interface Agent {
	id: string;
	name: string;
	agentType: AgentType;
	status: AgentStatus;
	description: string;
	createdAt: string;
	updatedAt: string;
}

export interface AgentRecord extends Agent {
	connectors: number;
	examples: number;
	autonomy: Autonomy;
}

export const RUN_STATUSES = ['running', 'success', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface AgentRun {
	id: string;
	agentId: string;
	status: RunStatus;
	trigger: 'request' | 'schedule' | 'manual';
	requestId: string | null;
	summary: string;
	error: string | null;
	startedAt: string;
	finishedAt: string | null;
	durationMs: number | null;
	input: JsonObject;
	output: JsonObject | null;
	createdAt: string;
	updatedAt: string;
}

export const REQUEST_STATUSES = ['new', 'processing', 'processed', 'failed', 'archived'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export interface CustomerRequest {
	id: string;
	fromEmail: string;
	fromName: string | null;
	subject: string;
	bodyText: string;
	externalRef: string | null;
	status: RequestStatus;
	agentId: string | null;
	agentRunId: string | null;
	contactId: string | null;
	quoteId: string | null;
	output: JsonObject | null;
	failureReason: string | null;
	processedAt: string | null;
	createdAt: string;
	updatedAt: string;
}

export interface Webhook {
	id: string;
	name: string;
	url: string;
	events: string[];
	active: boolean;
	createdAt: string;
	updatedAt: string;
}

export interface WebhookRecord extends Webhook {
	organizationId: string;
	signingSecret: string;
}
