import { duplicate, invalidRequest } from '../errors';
import { newId } from '../ids';
import type { Route } from '../router';
import { field, list, paginationQuery, single } from '../schemas';
import type { Schema } from '../validation';
import type { OrgData } from '../store';
import { asListed, asStored, readingsOf } from '../readings';
import { CONTACT_TYPES, type Contact } from '../types';
import { deleted, findOr404, now, nullable, objectBody, paginate } from './common';

const contactFields = {
	name: { ...field.name(200), description: 'Name of the business or person.' },
	email: { ...nullable(field.email), description: 'Unique per organization (case-insensitive).' },
	phone: nullable(field.phone),
	kvkNumber: {
		...nullable(field.kvkNumber),
		description: 'Chamber-of-commerce number, 8 digits; unique per organization.',
	},
	type: {
		type: 'string',
		minLength: 1,
		maxLength: 50,
		default: 'business',
		examples: [...CONTACT_TYPES],
		description:
			'The spec names only "business" and does not show the full list, so any value is taken (strict mode: business or individual).',
	} as Schema,
	billingCountry: { ...field.countryCode, default: 'NL' },
};

interface ContactInput {
	name?: string;
	email?: string | null;
	phone?: string | null;
	kvkNumber?: string | null;
	type?: string;
	billingCountry?: string;
}

/** Strict mode: the type must be one the sandbox knows. */
function assertKnownType(app: object, type: string | undefined): void {
	if (
		type === undefined ||
		!readingsOf(app).strict ||
		(CONTACT_TYPES as readonly string[]).includes(type)
	)
		return;
	throw invalidRequest(
		`"type" must be one of ${CONTACT_TYPES.map((t) => `"${t}"`).join(', ')}; got ${JSON.stringify(type)}`,
		'type',
	);
}

/**
 * 409 when another contact of the organization has the same e-mail (any case; unless the reading
 * `duplicateContactEmails` is on) or KvK number.
 */
function assertUnique(app: object, org: OrgData, input: ContactInput, selfId?: string): void {
	if (input.email && !readingsOf(app).duplicateContactEmails) {
		const other = org.contactsByEmail.get(input.email.toLowerCase());
		if (other && other !== selfId)
			throw duplicate(`A contact with email "${input.email}" already exists (${other})`, 'email');
	}
	if (input.kvkNumber) {
		const other = org.contactsByKvk.get(input.kvkNumber);
		if (other && other !== selfId)
			throw duplicate(
				`A contact with kvkNumber "${input.kvkNumber}" already exists (${other})`,
				'kvkNumber',
			);
	}
}

function storedForm(app: object, input: ContactInput): ContactInput {
	return {
		...input,
		name: asStored(app, 'name', input.name),
		email: asStored(app, 'email', input.email),
		phone: asStored(app, 'phone', input.phone),
	};
}

function newContact(input: ContactInput): Contact {
	const time = now();
	return {
		id: newId('ctc'),
		name: input.name as string,
		email: input.email ?? null,
		phone: input.phone ?? null,
		kvkNumber: input.kvkNumber ?? null,
		type: input.type ?? 'business',
		billingCountry: input.billingCountry ?? 'NL',
		createdAt: time,
		updatedAt: time,
	};
}

export const contactRoutes: Route[] = [
	{
		method: 'GET',
		path: '/contacts',
		operationId: 'listContacts',
		summary: 'List contacts',
		tag: 'Contacts',
		scope: 'contacts.read',
		query: paginationQuery,
		response: {
			status: 200,
			description: 'A page of contacts, oldest first (see the listOrder reading).',
			schema: list('Contact'),
		},
		errors: [400],
		handler: ({ app, org, query }) =>
			paginate(asListed(app, org.contacts.all(), ['phone', 'kvkNumber']), query),
	},
	{
		method: 'GET',
		path: '/contacts/{id}',
		operationId: 'getContact',
		summary: 'Get a contact',
		tag: 'Contacts',
		scope: 'contacts.read',
		response: { status: 200, description: 'The contact.', schema: single('Contact') },
		errors: [404],
		handler: ({ org, params }) => ({ data: findOr404(org.contacts, params.id, 'Contact') }),
	},
	{
		method: 'POST',
		path: '/contacts',
		operationId: 'createContact',
		summary: 'Create a contact',
		tag: 'Contacts',
		scope: 'contacts.write',
		body: objectBody(contactFields, ['name']),
		response: { status: 201, description: 'The created contact.', schema: single('Contact') },
		errors: [400, 409],
		handler: ({ app, org, body }) => {
			const input = storedForm(app, body as ContactInput);
			assertKnownType(app, input.type);
			if (input.email && app.createdMeanwhile.delete(input.email.toLowerCase())) {
				const theirs = newContact({ name: 'Created meanwhile', email: input.email });
				org.addContact(theirs);
				app.emit(org, 'contact.created', theirs);
			}
			assertUnique(app, org, input);
			const contact = newContact(input);
			org.addContact(contact);
			app.emit(org, 'contact.created', contact);
			return { data: contact };
		},
	},
	{
		method: 'PATCH',
		path: '/contacts/{id}',
		operationId: 'updateContact',
		summary: 'Update a contact',
		description: 'Send only the fields to change; null clears email, phone or kvkNumber.',
		tag: 'Contacts',
		scope: 'contacts.write',
		body: objectBody(contactFields),
		response: { status: 200, description: 'The updated contact.', schema: single('Contact') },
		errors: [400, 404, 409],
		handler: ({ app, org, params, body }) => {
			const contact = findOr404(org.contacts, params.id, 'Contact');
			const input = storedForm(app, body as ContactInput);
			assertKnownType(app, input.type);
			assertUnique(app, org, input, contact.id);
			org.unindexContact(contact);
			if (input.name !== undefined) contact.name = input.name;
			if (input.email !== undefined) contact.email = input.email;
			if (input.phone !== undefined) contact.phone = input.phone;
			if (input.kvkNumber !== undefined) contact.kvkNumber = input.kvkNumber;
			if (input.type !== undefined) contact.type = input.type;
			if (input.billingCountry !== undefined) contact.billingCountry = input.billingCountry;
			contact.updatedAt = now();
			org.indexContact(contact);
			return { data: contact };
		},
	},
	{
		method: 'DELETE',
		path: '/contacts/{id}',
		operationId: 'deleteContact',
		summary: 'Delete a contact (permanent)',
		description:
			'Hard delete; cannot be undone. Quotes and invoices that refer to the contact keep its id.',
		tag: 'Contacts',
		scope: 'contacts.write',
		response: {
			status: 200,
			description: 'The id of the deleted contact.',
			schema: single('Deleted'),
		},
		errors: [404],
		handler: ({ org, params }) => {
			const contact = findOr404(org.contacts, params.id, 'Contact');
			org.contacts.delete(contact.id);
			org.unindexContact(contact);
			return deleted(contact.id);
		},
	},
];
