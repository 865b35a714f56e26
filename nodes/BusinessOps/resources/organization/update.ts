import type { INodeProperties } from 'n8n-workflow';

import { numberField, operationFields, textField, updateFields } from '../../shared/fields';

function textSetting(
	displayName: string,
	name: string,
	description: string,
	placeholder?: string,
): INodeProperties {
	return textField({ displayName, name, default: '', description, placeholder });
}

/** PATCH /organization: any subset of the updatable settings. */
export const organizationUpdateFields: INodeProperties[] = operationFields(
	'organization',
	'update',
	[
		updateFields([
			textField(
				{
					displayName: 'Default Currency',
					name: 'defaultCurrency',
					default: '',
					description: 'ISO 4217 currency code of new quotes and invoices',
					placeholder: 'e.g. EUR',
				},
				{ trim: true, check: 'currency' },
			),
			numberField(
				{
					displayName: 'Default Payment Terms (Days)',
					name: 'defaultPaymentTermsDays',
					default: 30,
					typeOptions: { minValue: 0, numberPrecision: 0 },
					description: 'Days after the invoice date that payment is due',
				},
				{ check: 'nonNegativeInteger' },
			),
			numberField(
				{
					displayName: 'Default VAT Percentage',
					name: 'defaultVatPercentage',
					default: 21,
					typeOptions: { minValue: 0, maxValue: 100 },
					description: 'VAT percentage used for new line items, from 0 to 100',
				},
				{ check: 'percentage' },
			),
			textSetting('IBAN', 'iban', 'Bank account printed on invoices', 'e.g. NL91ABNA0417164300'),
			textSetting('Invoice Footer', 'invoiceFooter', 'Text printed at the bottom of every invoice'),
			textSetting(
				'Invoice Number Prefix',
				'invoiceNumberPrefix',
				'Prefix of new invoice numbers',
				'e.g. INV-',
			),
			textSetting(
				'KvK Number',
				'kvkNumber',
				'Chamber of Commerce registration number',
				'e.g. 12345678',
			),
			textSetting('Legal Name', 'legalName', 'Registered name of the organization'),
			textSetting(
				'Quote Number Prefix',
				'quoteNumberPrefix',
				'Prefix of new quote numbers',
				'e.g. OFF-',
			),
			textSetting('VAT Number', 'vatNumber', 'VAT identification number', 'e.g. NL123456789B01'),
		]),
	],
);
