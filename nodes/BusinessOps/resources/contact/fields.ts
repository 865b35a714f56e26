import type { INodeProperties } from 'n8n-workflow';

import { idLocator, showFor } from '../../shared/descriptions';

/** The contact picker, shown for the given contact operations. */
export function contactIdField(operations: string[]): INodeProperties {
	return {
		...idLocator({
			displayName: 'Contact',
			name: 'contactId',
			searchListMethod: 'searchContacts',
			placeholder: 'e.g. ctc_8sK2m',
		}),
		displayOptions: showFor('contact', operations),
	};
}

export const contactTypeOptions = [
	{ name: 'Business', value: 'business' },
	{ name: 'Individual', value: 'individual' },
];

/** The optional contact fields, each sent in the body only when the user adds it. */
export const optionalContactFields: INodeProperties[] = [
	{
		displayName: 'Billing Country',
		name: 'billingCountry',
		type: 'string',
		default: '',
		placeholder: 'e.g. NL',
		description: 'Two-letter country code (ISO 3166-1), e.g. NL, BE or DE',
		routing: { send: { type: 'body', property: 'billingCountry', value: '={{ String($value).trim().toUpperCase() }}' } },
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		default: '',
		placeholder: 'name@email.com',
		routing: { send: { type: 'body', property: 'email', value: '={{ String($value).trim() }}' } },
	},
	{
		displayName: 'KvK Number',
		name: 'kvkNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 12345678',
		description: 'Chamber of Commerce (Kamer van Koophandel) registration number',
		routing: { send: { type: 'body', property: 'kvkNumber' } },
	},
	{
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		placeholder: 'e.g. +31 20 123 4567',
		routing: { send: { type: 'body', property: 'phone' } },
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: contactTypeOptions,
		default: 'business',
		description: 'Whether the contact is a business or a private person',
		routing: { send: { type: 'body', property: 'type' } },
	},
];
