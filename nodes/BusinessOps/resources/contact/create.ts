import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE, readList } from '../../../shared/api/pages';
import { additionalFields, operationFields, optionsField, textField } from '../../shared/fields';
import { creates, tidy } from '../../shared/itemOrder';

export const emailKey = (value: unknown) =>
	typeof value === 'string' ? tidy(value).toLowerCase().normalize('NFC') : '';

/** Every contact by compared address, read whole with the item's own request options (proxy, timeout, SSL). */
export async function contactsByAddress(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	itemIndex: number,
): Promise<Map<string, IDataObject[]>> {
	const { records } = await readList(
		ctx,
		{
			...options,
			method: 'GET',
			url: '/contacts',
			body: undefined,
			qs: { pageSize: MAX_PAGE_SIZE },
		},
		{ itemIndex },
	);
	const byAddress = new Map<string, IDataObject[]>();
	for (const record of records) {
		const key = emailKey(record.email);
		const same = byAddress.get(key) ?? [];
		// A contact shown on two pages (the list moved during the read) is one contact.
		if (key !== '' && !same.some((other) => other.id === record.id))
			byAddress.set(key, [...same, record]);
	}
	return byAddress;
}

/** Contact → Create: found again by its address (none without one). */
export const contactCreated = creates(async (ctx, options, itemIndex) => {
	const { email } = options.body as IDataObject;
	if (emailKey(email) === '') return undefined;
	return (await contactsByAddress(ctx, options, itemIndex)).get(emailKey(email)) ?? [];
}, ' or send contacts through Contact → Create or Update');

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
