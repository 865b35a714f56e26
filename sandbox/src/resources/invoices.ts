import { newId } from '../ids';
import { computeTotals, documentNumber } from '../money';
import type { Route } from '../router';
import { invalidRequest } from '../errors';
import { assertStrictItems, asListed, readingsOf } from '../readings';
import { itemsSchema, list, paginationQuery, single } from '../schemas';
import { isIsoDate } from '../validation';
import { INVOICE_STATUSES, type InvoiceStatus } from '../types';
import {
	deleted,
	findOr404,
	now,
	objectBody,
	paginate,
	requireContact,
	toIsoDate,
	addDays,
} from './common';
import {
	assertDeletable,
	assertEditable,
	normalizeItems,
	refusedMove,
	type ItemInput,
} from './documents';

/**
 * Allowed status moves. The spec's rows "any → sent" and "any → paid" hold for every status
 * that is not final; paid and written_off are final. Setting the current status again is a no-op.
 */
export const INVOICE_TRANSITIONS: Record<InvoiceStatus, readonly InvoiceStatus[]> = {
	draft: ['finalized', 'sent', 'paid'],
	finalized: ['sent', 'paid'],
	sent: ['viewed', 'paid', 'overdue'],
	viewed: ['sent', 'paid', 'overdue'],
	overdue: ['sent', 'paid', 'in_collection', 'written_off'],
	in_collection: ['sent', 'paid', 'written_off'],
	paid: [],
	written_off: [],
};
const DELETABLE: readonly InvoiceStatus[] = ['draft'];
const EVENT_FOR_STATUS: Partial<Record<InvoiceStatus, 'invoice.sent' | 'invoice.paid'>> = {
	sent: 'invoice.sent',
	paid: 'invoice.paid',
};

const contentFields = {
	contactId: {
		type: 'string',
		minLength: 1,
		description: 'A contact of this organization.',
	} as const,
	items: itemsSchema,
	dueDate: {
		type: 'string',
		format: 'date',
		description:
			"ISO 8601 date; defaults to the issue date plus the organization's defaultPaymentTermsDays.",
	} as const,
};

/** Strict mode: the lines' ranges, and dueDate a bare date (the spec does not show the invoice's body fields). */
function assertStrictInput(app: object, input: InvoiceInput): void {
	assertStrictItems(app, input.items);
	if (readingsOf(app).strict && input.dueDate !== undefined && !isIsoDate(input.dueDate)) {
		throw invalidRequest('"dueDate" must be an ISO 8601 date such as "2026-12-31"', 'dueDate');
	}
}

interface InvoiceInput {
	contactId?: string;
	items?: ItemInput[];
	dueDate?: string;
	status?: InvoiceStatus;
}

export const invoiceRoutes: Route[] = [
	{
		method: 'GET',
		path: '/invoices',
		operationId: 'listInvoices',
		summary: 'List invoices',
		tag: 'Invoices',
		scope: 'invoices.read',
		query: paginationQuery,
		response: {
			status: 200,
			description: 'A page of invoices, oldest first (see the listOrder reading).',
			schema: list('Invoice'),
		},
		errors: [400],
		handler: ({ app, org, query }) => paginate(asListed(app, org.invoices.all()), query),
	},
	{
		method: 'GET',
		path: '/invoices/{id}',
		operationId: 'getInvoice',
		summary: 'Get an invoice',
		tag: 'Invoices',
		scope: 'invoices.read',
		response: { status: 200, description: 'The invoice.', schema: single('Invoice') },
		errors: [404],
		handler: ({ org, params }) => ({ data: findOr404(org.invoices, params.id, 'Invoice') }),
	},
	{
		method: 'POST',
		path: '/invoices',
		operationId: 'createInvoice',
		summary: 'Create an invoice (as a draft)',
		tag: 'Invoices',
		scope: 'invoices.write',
		body: objectBody(contentFields, ['contactId', 'items']),
		response: { status: 201, description: 'The created draft invoice.', schema: single('Invoice') },
		errors: [400],
		handler: ({ app, org, body }) => {
			const input = body as InvoiceInput;
			requireContact(org, input.contactId as string);
			assertStrictInput(app, input);
			const time = now();
			const year = Number(time.slice(0, 4));
			const items = normalizeItems(org, input.items as ItemInput[]);
			const invoice = org.invoices.add({
				id: newId('inv'),
				number: documentNumber(
					org.organization.invoiceNumberPrefix,
					year,
					org.nextSequence('invoice', year),
				),
				status: 'draft',
				contactId: input.contactId as string,
				items,
				issueDate: toIsoDate(time),
				dueDate: input.dueDate
					? toIsoDate(input.dueDate)
					: toIsoDate(addDays(time, org.organization.defaultPaymentTermsDays)),
				currency: org.organization.defaultCurrency,
				...computeTotals(items),
				createdAt: time,
				updatedAt: time,
			});
			app.emit(org, 'invoice.created', invoice);
			return { data: invoice };
		},
	},
	{
		method: 'PATCH',
		path: '/invoices/{id}',
		operationId: 'updateInvoice',
		summary: 'Update an invoice: content (while draft) and/or status',
		description:
			'Status moves: draft → finalized|sent|paid; finalized → sent|paid; sent → viewed|paid|overdue; viewed → sent|paid|overdue; ' +
			'overdue → sent|paid|in_collection|written_off; in_collection → sent|paid|written_off; paid and written_off are final (422). ' +
			'A move to sent emits invoice.sent, to paid emits invoice.paid. contactId, items and dueDate can only change while the invoice is a draft.',
		tag: 'Invoices',
		scope: 'invoices.write',
		body: objectBody({ ...contentFields, status: { type: 'string', enum: INVOICE_STATUSES } }),
		response: { status: 200, description: 'The updated invoice.', schema: single('Invoice') },
		errors: [400, 404, 422],
		handler: ({ app, org, params, body }) => {
			const invoice = findOr404(org.invoices, params.id, 'Invoice');
			const input = body as InvoiceInput;
			if (input.contactId !== undefined) requireContact(org, input.contactId);
			assertStrictInput(app, input);
			assertEditable(
				'invoice',
				invoice.number,
				invoice.status,
				(['contactId', 'items', 'dueDate'] as const).filter((f) => input[f] !== undefined),
			);
			const target =
				input.status !== undefined && input.status !== invoice.status ? input.status : undefined;
			if (target && !INVOICE_TRANSITIONS[invoice.status].includes(target)) {
				throw refusedMove('invoice', invoice.status, target, INVOICE_TRANSITIONS[invoice.status]);
			}
			if (input.contactId !== undefined) invoice.contactId = input.contactId;
			if (input.items !== undefined) {
				invoice.items = normalizeItems(org, input.items);
				Object.assign(invoice, computeTotals(invoice.items));
			}
			if (input.dueDate !== undefined) invoice.dueDate = toIsoDate(input.dueDate);
			if (target) invoice.status = target;
			invoice.updatedAt = now();
			const event = target && EVENT_FOR_STATUS[target];
			if (event) app.emit(org, event, invoice);
			return { data: invoice };
		},
	},
	{
		method: 'DELETE',
		path: '/invoices/{id}',
		operationId: 'deleteInvoice',
		summary: 'Delete a draft invoice',
		tag: 'Invoices',
		scope: 'invoices.write',
		response: {
			status: 200,
			description: 'The id of the deleted invoice.',
			schema: single('Deleted'),
		},
		errors: [404, 422],
		handler: ({ org, params }) => {
			const invoice = findOr404(org.invoices, params.id, 'Invoice');
			assertDeletable('invoice', invoice.number, invoice.status, DELETABLE);
			org.invoices.delete(invoice.id);
			return deleted(invoice.id);
		},
	},
];
