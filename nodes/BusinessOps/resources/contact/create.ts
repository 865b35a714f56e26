import type { INodeProperties } from 'n8n-workflow';

import { additionalFields, operationFields, optionsField, textField } from '../../shared/fields';

/** The optional fields of a contact (Create, Update, Create or Update), each sent only when the user adds it. */
export const optionalContactFields: INodeProperties[] = [
	textField(
		{
			displayName: 'Billing Country',
			name: 'billingCountry',
			default: '',
			placeholder: 'e.g. NL',
			description: 'Two-letter country code (ISO 3166-1), e.g. NL, BE or DE',
		},
		{ trim: true, upperCase: true },
	),
	textField(
		{ displayName: 'Email', name: 'email', default: '', placeholder: 'name@email.com' },
		{ trim: true, check: 'email' },
	),
	textField({
		displayName: 'KvK Number',
		name: 'kvkNumber',
		default: '',
		placeholder: 'e.g. 12345678',
		description: 'Chamber of Commerce (Kamer van Koophandel) registration number',
	}),
	textField({
		displayName: 'Phone',
		name: 'phone',
		default: '',
		placeholder: 'e.g. +31 20 123 4567',
	}),
	optionsField(
		{
			displayName: 'Type',
			name: 'type',
			// the spec names only `business` and does not show the full list, so these are suggestions;
			// an expression sends any other value as given, and the API decides
			options: [
				{
					name: 'Business',
					value: 'business',
					description: 'A business (the value the API documentation names)',
				},
				{
					name: 'Individual',
					value: 'individual',
					description: 'A private person (not in the API documentation)',
				},
			],
			default: 'business',
			description:
				'Kind of contact. The API documents only "business"; to send another value, switch to Expression and type it.',
		},
		{ others: true },
	),
];

/** POST /contacts. */
export const contactCreateFields: INodeProperties[] = operationFields('contact', 'create', [
	textField({
		displayName: 'Name',
		name: 'name',
		required: true,
		default: '',
		placeholder: 'e.g. Bakkerij de Vries B.V.',
		description: 'Name of the business or person',
	}),
	additionalFields(optionalContactFields),
]);
