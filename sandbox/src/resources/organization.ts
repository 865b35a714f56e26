import { invalidRequest } from '../errors';
import type { Route } from '../router';
import { single } from '../schemas';
import type { Organization } from '../types';
import { now, objectBody } from './common';

/** ISO 13616 check: move the first four characters to the end, letters to numbers, mod 97 must be 1. */
export function isValidIban(iban: string): boolean {
	if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
	const numeric = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) =>
		String(c.charCodeAt(0) - 55),
	);
	let remainder = 0;
	for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
	return remainder === 1;
}

const updatable = {
	legalName: { type: 'string', minLength: 1, maxLength: 200 },
	kvkNumber: {
		type: 'string',
		pattern: '^[0-9]{8}$',
		'x-error': 'exactly 8 digits, e.g. "12345678"',
	},
	vatNumber: {
		type: 'string',
		pattern: '^[A-Z]{2}[0-9A-Z+*.]{2,13}$',
		'x-error': 'a VAT number starting with its 2-letter country code, e.g. "NL859123456B01"',
	},
	iban: {
		type: 'string',
		pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$',
		description: 'Capitals and digits without spaces; the check digits must be right.',
		'x-error': 'a valid IBAN in capitals without spaces, e.g. "NL91ABNA0417164300"',
	},
	defaultCurrency: {
		type: 'string',
		pattern: '^[A-Z]{3}$',
		'x-error': 'an ISO 4217 currency code of 3 capital letters, e.g. "EUR"',
	},
	defaultVatPercentage: { type: 'number', minimum: 0, maximum: 100 },
	defaultPaymentTermsDays: { type: 'integer', minimum: 0, maximum: 3650 },
	invoiceFooter: { type: 'string', maxLength: 1000 },
	invoiceNumberPrefix: {
		type: 'string',
		maxLength: 20,
		pattern: '^[A-Za-z0-9/_.-]*$',
		'x-error': 'at most 20 letters, digits or / _ . -',
	},
	quoteNumberPrefix: {
		type: 'string',
		maxLength: 20,
		pattern: '^[A-Za-z0-9/_.-]*$',
		'x-error': 'at most 20 letters, digits or / _ . -',
	},
} as const;

export const organizationRoutes: Route[] = [
	{
		method: 'GET',
		path: '/me',
		operationId: 'getMe',
		summary: 'The API key in use',
		tag: 'Organization',
		scope: 'organization.read',
		response: { status: 200, description: 'The current API key.', schema: single('Me') },
		errors: [],
		handler: ({ key }) => ({
			data: {
				apiKeyId: key.id,
				organizationId: key.organizationId,
				name: key.name,
				scopes: [...key.scopes],
				prefix: key.prefix,
				createdAt: key.createdAt,
				expiresAt: key.expiresAt,
			},
		}),
	},
	{
		method: 'GET',
		path: '/organization',
		operationId: 'getOrganization',
		summary: 'Organization settings',
		tag: 'Organization',
		scope: 'organization.read',
		response: {
			status: 200,
			description: 'All settings of the organization.',
			schema: single('Organization'),
		},
		errors: [],
		handler: ({ org }) => ({ data: org.organization }),
	},
	{
		method: 'PATCH',
		path: '/organization',
		operationId: 'updateOrganization',
		summary: 'Update organization settings',
		description: 'Any subset of the updatable fields.',
		tag: 'Organization',
		scope: 'organization.write',
		body: objectBody(updatable),
		response: {
			status: 200,
			description: 'All settings after the update.',
			schema: single('Organization'),
		},
		errors: [400],
		handler: ({ org, body }) => {
			const input = body as Partial<Organization>;
			if (input.iban !== undefined && !isValidIban(input.iban)) {
				throw invalidRequest(
					`"iban" must be ${updatable.iban['x-error']}; the check digits of "${input.iban}" are wrong`,
					'iban',
				);
			}
			org.organization = { ...org.organization, ...input, updatedAt: now() };
			return { data: org.organization };
		},
	},
];
