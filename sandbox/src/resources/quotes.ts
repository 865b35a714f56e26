import { newId } from '../ids';
import { computeTotals, documentNumber } from '../money';
import type { Route } from '../router';
import { assertStrictItems, asListed, readingsOf } from '../readings';
import { itemsSchema, list, paginationQuery, single } from '../schemas';
import type { OrgData } from '../store';
import { QUOTE_STATUSES, type Quote, type QuoteStatus } from '../types';
import {
	addDays,
	deleted,
	findOr404,
	now,
	objectBody,
	paginate,
	requireContact,
	toIsoTimestamp,
} from './common';
import {
	assertDeletable,
	assertEditable,
	normalizeItems,
	refusedMove,
	type ItemInput,
} from './documents';

/**
 * Allowed status moves; approved and canceled are final. Setting the current status again is a
 * no-op. The moves to canceled are this sandbox's permissive reading; strict mode refuses them.
 */
export const QUOTE_TRANSITIONS: Record<QuoteStatus, readonly QuoteStatus[]> = {
	draft: ['sent', 'canceled'],
	sent: ['approved', 'canceled'],
	approved: [],
	canceled: [],
};
const DELETABLE: readonly QuoteStatus[] = ['draft', 'canceled'];
const EVENT_FOR_STATUS = {
	sent: 'quote.sent',
	approved: 'quote.approved',
	canceled: 'quote.canceled',
} as const;
export const QUOTE_VALIDITY_DAYS = 30;

const contentFields = {
	contactId: {
		type: 'string',
		minLength: 1,
		description: 'A contact of this organization.',
	} as const,
	items: itemsSchema,
	validUntil: {
		type: 'string',
		format: 'date-time',
		description: `Defaults to ${QUOTE_VALIDITY_DAYS} days after creation.`,
	} as const,
};

interface QuoteInput {
	contactId?: string;
	items?: ItemInput[];
	validUntil?: string;
	status?: QuoteStatus;
}

export const quoteRoutes: Route[] = [
	{
		method: 'GET',
		path: '/quotes',
		operationId: 'listQuotes',
		summary: 'List quotes',
		tag: 'Quotes',
		scope: 'quotes.read',
		query: paginationQuery,
		response: {
			status: 200,
			description: 'A page of quotes, oldest first (see the listOrder reading).',
			schema: list('Quote'),
		},
		errors: [400],
		handler: ({ app, org, query }) => paginate(asListed(app, org.quotes.all()), query),
	},
	{
		method: 'GET',
		path: '/quotes/{id}',
		operationId: 'getQuote',
		summary: 'Get a quote',
		tag: 'Quotes',
		scope: 'quotes.read',
		response: { status: 200, description: 'The quote.', schema: single('Quote') },
		errors: [404],
		handler: ({ org, params }) => ({ data: findOr404(org.quotes, params.id, 'Quote') }),
	},
	{
		method: 'POST',
		path: '/quotes',
		operationId: 'createQuote',
		summary: 'Create a quote (as a draft)',
		tag: 'Quotes',
		scope: 'quotes.write',
		body: objectBody(contentFields, ['contactId', 'items']),
		response: { status: 201, description: 'The created draft quote.', schema: single('Quote') },
		errors: [400],
		handler: ({ app, org, body }) => {
			const input = body as QuoteInput;
			requireContact(org, input.contactId as string);
			assertStrictItems(app, input.items);
			const quote = createQuote(
				org,
				input.contactId as string,
				normalizeItems(org, input.items as ItemInput[]),
				input.validUntil,
			);
			app.emit(org, 'quote.created', quote);
			return { data: quote };
		},
	},
	{
		method: 'PATCH',
		path: '/quotes/{id}',
		operationId: 'updateQuote',
		summary: 'Update a quote: content (while draft) and/or status',
		description:
			'Status moves: draft → sent, draft → canceled, sent → approved, sent → canceled; others answer 422. ' +
			'contactId, items and validUntil can only change while the quote is a draft.',
		tag: 'Quotes',
		scope: 'quotes.write',
		body: objectBody({ ...contentFields, status: { type: 'string', enum: QUOTE_STATUSES } }),
		response: { status: 200, description: 'The updated quote.', schema: single('Quote') },
		errors: [400, 404, 422],
		handler: ({ app, org, params, body }) => {
			const quote = findOr404(org.quotes, params.id, 'Quote');
			const input = body as QuoteInput;
			if (input.contactId !== undefined) requireContact(org, input.contactId);
			assertEditable(
				'quote',
				quote.number,
				quote.status,
				(['contactId', 'items', 'validUntil'] as const).filter((f) => input[f] !== undefined),
			);
			assertStrictItems(app, input.items);
			const target =
				input.status !== undefined && input.status !== quote.status ? input.status : undefined;
			// strict mode: the spec shows no move to canceled ("Other moves: not shown")
			const allowed = readingsOf(app).strict
				? QUOTE_TRANSITIONS[quote.status].filter((status) => status !== 'canceled')
				: QUOTE_TRANSITIONS[quote.status];
			if (target && !allowed.includes(target))
				throw refusedMove('quote', quote.status, target, allowed);
			if (input.contactId !== undefined) quote.contactId = input.contactId;
			if (input.items !== undefined) {
				quote.items = normalizeItems(org, input.items);
				Object.assign(quote, computeTotals(quote.items));
			}
			if (input.validUntil !== undefined) quote.validUntil = toIsoTimestamp(input.validUntil);
			if (target) quote.status = target;
			quote.updatedAt = now();
			if (target && target !== 'draft') app.emit(org, EVENT_FOR_STATUS[target], quote);
			return { data: quote };
		},
	},
	{
		method: 'DELETE',
		path: '/quotes/{id}',
		operationId: 'deleteQuote',
		summary: 'Delete a draft or canceled quote',
		tag: 'Quotes',
		scope: 'quotes.write',
		response: {
			status: 200,
			description: 'The id of the deleted quote.',
			schema: single('Deleted'),
		},
		errors: [404, 422],
		handler: ({ org, params }) => {
			const quote = findOr404(org.quotes, params.id, 'Quote');
			assertDeletable('quote', quote.number, quote.status, DELETABLE);
			org.quotes.delete(quote.id);
			return deleted(quote.id);
		},
	},
];

/** Also used by the QuoteAgent when it processes a request. */
export function createQuote(
	org: OrgData,
	contactId: string,
	items: Quote['items'],
	validUntil?: string,
): Quote {
	const time = now();
	const year = Number(time.slice(0, 4));
	return org.quotes.add({
		id: newId('quo'),
		number: documentNumber(
			org.organization.quoteNumberPrefix,
			year,
			org.nextSequence('quote', year),
		),
		status: 'draft',
		contactId,
		items,
		validUntil:
			validUntil === undefined ? addDays(time, QUOTE_VALIDITY_DAYS) : toIsoTimestamp(validUntil),
		currency: org.organization.defaultCurrency,
		...computeTotals(items),
		createdAt: time,
		updatedAt: time,
	});
}
