import { duplicate } from '../errors';
import { newId } from '../ids';
import { asListed, asStored } from '../readings';
import type { Route } from '../router';
import { field, list, paginationQuery, single } from '../schemas';
import { receivedRequest, type OrgData } from '../store';
import {
	REQUEST_STATUSES,
	type AgentRecord,
	type AgentRun,
	type AgentType,
	type CustomerRequest,
	type JsonObject,
} from '../types';
import type { SandboxApp } from '../app';
import { findOr404, now, objectBody, paginate } from './common';
import { createQuote } from './quotes';

/** Words that make a request a quote request (Dutch and English); otherwise customer care handles it. */
export const QUOTE_WORDS =
	/\b(offerte|offertes|prijsopgave|prijs|prijzen|kosten|quote|quotation|price|pricing|estimate)\b/i;

export function agentTypeFor(subject: string, bodyText: string): AgentType {
	return QUOTE_WORDS.test(`${subject}\n${bodyText}`) ? 'QuoteAgent' : 'CustomerCareAgent';
}

const createBody = objectBody(
	{
		fromEmail: field.email,
		fromName: { type: ['string', 'null'], maxLength: 200 },
		subject: { type: 'string', minLength: 1, maxLength: 500 },
		bodyText: { type: 'string', minLength: 1, maxLength: 50_000 },
		externalRef: {
			type: ['string', 'null'],
			minLength: 1,
			maxLength: 200,
			description: 'Unique per organization.',
		},
		processImmediately: { type: 'boolean', default: false },
	},
	['fromEmail', 'subject', 'bodyText'],
);

interface RequestInput {
	fromEmail: string;
	fromName?: string | null;
	subject: string;
	bodyText: string;
	externalRef?: string | null;
	processImmediately?: boolean;
}

/** The active (or, failing that, paused) agent of a type; uninstalled agents never process. */
function agentOfType(org: OrgData, type: AgentType): AgentRecord | undefined {
	const candidates = org.agents
		.all()
		.filter((a) => a.agentType === type && a.status !== 'uninstalled');
	return candidates.find((a) => a.status === 'active') ?? candidates[0];
}

function fail(app: SandboxApp, org: OrgData, request: CustomerRequest, reason: string): void {
	request.status = 'failed';
	request.failureReason = reason;
	request.updatedAt = now();
	app.emit(org, 'request.failed', request);
}

/**
 * Processes a request at once: QuoteAgent makes a draft quote for the sender (creating the contact
 * when the e-mail is unknown); CustomerCareAgent drafts a reply. Either way a successful run is recorded.
 */
export function processRequest(app: SandboxApp, org: OrgData, request: CustomerRequest): void {
	const type = agentTypeFor(request.subject, request.bodyText);
	const agent = agentOfType(org, type);
	if (!agent)
		return fail(app, org, request, `No ${type} is installed; the request was not processed`);
	request.agentId = agent.id;
	if (agent.status !== 'active') {
		return fail(
			app,
			org,
			request,
			`Agent "${agent.name}" (${type}) is ${agent.status}; the request was not processed`,
		);
	}
	request.status = 'processing';
	const startedAt = now();
	const input: JsonObject = {
		requestId: request.id,
		fromEmail: request.fromEmail,
		fromName: request.fromName,
		subject: request.subject,
		bodyText: request.bodyText,
		externalRef: request.externalRef,
	};
	let output: JsonObject;
	const existingId = org.contactsByEmail.get(request.fromEmail.toLowerCase());
	request.contactId = existingId ?? null;
	if (type === 'QuoteAgent') {
		let contactId = existingId;
		if (!contactId) {
			const contact = org.addContact({
				id: newId('ctc'),
				name: request.fromName || request.fromEmail.split('@')[0],
				email: request.fromEmail,
				phone: null,
				kvkNumber: null,
				type: 'individual',
				billingCountry: 'NL',
				createdAt: startedAt,
				updatedAt: startedAt,
			});
			contactId = contact.id;
			app.emit(org, 'contact.created', contact);
		}
		const vat = org.organization.defaultVatPercentage;
		const quote = createQuote(org, contactId, [
			{
				name: `Offerte: ${request.subject}`.slice(0, 200),
				quantity: 1,
				unitPrice: 0,
				vatPercentage: vat,
			},
		]);
		const summary = `Draft quote ${quote.number} created for ${request.fromName || request.fromEmail}`;
		output = {
			action: 'quote_created',
			quoteId: quote.id,
			quoteNumber: quote.number,
			contactId,
			contactCreated: !existingId,
			summary,
		};
		request.contactId = contactId;
		request.quoteId = quote.id;
		app.emit(org, 'quote.created', quote);
	} else {
		const greeting = request.fromName ? `Beste ${request.fromName}` : 'Beste klant';
		const summary = `Reply drafted to "${request.subject}"`;
		output = {
			action: 'reply_drafted',
			category: 'general',
			replySubject: `Re: ${request.subject}`,
			replyText: `${greeting}, bedankt voor uw bericht. Wij komen er zo snel mogelijk bij u op terug.`,
			summary,
		};
	}
	const finishedAt = now();
	const run: AgentRun = {
		id: newId('run'),
		agentId: agent.id,
		status: 'success',
		trigger: 'request',
		requestId: request.id,
		summary: output.summary as string,
		error: null,
		startedAt,
		finishedAt,
		durationMs: Date.parse(finishedAt) - Date.parse(startedAt),
		input,
		output,
		createdAt: startedAt,
		updatedAt: finishedAt,
	};
	org.runs.add(run);
	Object.assign(request, {
		status: 'processed',
		agentRunId: run.id,
		output,
		processedAt: finishedAt,
		updatedAt: finishedAt,
	});
	app.emit(org, 'request.processed', request);
}

export const requestRoutes: Route[] = [
	{
		method: 'GET',
		path: '/requests',
		operationId: 'listRequests',
		summary: 'List customer requests',
		tag: 'Requests',
		scope: 'requests.read',
		query: { ...paginationQuery, status: { type: 'string', enum: REQUEST_STATUSES } },
		response: {
			status: 200,
			description: 'A page of requests, oldest first (see the listOrder reading).',
			schema: list('Request'),
		},
		errors: [400],
		handler: ({ app, org, query }) =>
			paginate(
				asListed(app, org.requests.all()).filter((r) => !query.status || r.status === query.status),
				query,
			),
	},
	{
		method: 'POST',
		path: '/requests',
		operationId: 'createRequest',
		summary: 'Submit a customer request',
		description:
			'processImmediately true: processed at once by the QuoteAgent (when subject or text asks for a quote/offerte/price) or the CustomerCareAgent; ' +
			'a paused agent leaves the request failed. false: the request stays new. Emits request.received (then quote.created and request.processed, or request.failed).',
		tag: 'Requests',
		scope: 'requests.write',
		body: createBody,
		response: {
			status: 201,
			description: 'The created request, after processing when processImmediately was true.',
			schema: single('Request'),
		},
		errors: [400, 409],
		handler: ({ app, org, body }) => {
			const input = body as unknown as RequestInput;
			const externalRef = asStored(app, 'ref', input.externalRef) ?? null;
			if (externalRef !== null) {
				const other = org.requestsByExternalRef.get(externalRef);
				if (other)
					throw duplicate(
						`A request with externalRef "${externalRef}" already exists (${other})`,
						'externalRef',
					);
			}
			const time = now();
			const request = org.addRequest(
				receivedRequest(
					{
						id: newId('req'),
						fromEmail: input.fromEmail,
						fromName: input.fromName ?? null,
						subject: input.subject,
						bodyText: input.bodyText,
						externalRef,
					},
					time,
				),
			);
			app.emit(org, 'request.received', request);
			if (input.processImmediately) processRequest(app, org, request);
			return { data: request };
		},
	},
	{
		method: 'GET',
		path: '/requests/{id}',
		operationId: 'getRequest',
		summary: 'Get a request, with the agent-run output when there is one',
		tag: 'Requests',
		scope: 'requests.read',
		response: { status: 200, description: 'The request.', schema: single('Request') },
		errors: [404],
		handler: ({ org, params }) => ({ data: findOr404(org.requests, params.id, 'Request') }),
	},
];
