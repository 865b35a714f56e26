import type { INodeProperties } from 'n8n-workflow';

import { checkedField, TRIMMED_VALUE } from '../../shared/validation';

/**
 * Contact types: the spec names only `business` and does not show the full list, so these are
 * suggestions; an expression sends any other value as given, and the API decides.
 */
const contactTypeOptions = [
	{ name: 'Business', value: 'business', description: 'A business (the value the API documentation names)' },
	{ name: 'Individual', value: 'individual', description: 'A private person (not in the API documentation)' },
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
		routing: { send: { type: 'body', property: 'billingCountry', value: '={{ typeof $value === "string" ? $value.trim().toUpperCase() : $value }}' } },
	},
	checkedField(
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			default: '',
			placeholder: 'name@email.com',
			routing: { send: { type: 'body', property: 'email', value: TRIMMED_VALUE } },
		},
		'email',
	),
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
		description:
			'Kind of contact. The API documents only "business"; to send another value, switch to Expression and type it.',
		routing: { send: { type: 'body', property: 'type' } },
	},
];
