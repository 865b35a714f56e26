import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { checkedField, type FieldRule } from '../../shared/validation';

function textSetting(displayName: string, name: string, description: string, placeholder?: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		description,
		placeholder,
		routing: { send: { type: 'body', property: name } },
	};
}

function numberSetting(
	field: { displayName: string; name: string; default: number },
	description: string,
	typeOptions: INodeProperties['typeOptions'],
	rule: FieldRule,
): INodeProperties {
	return checkedField(
		{ ...field, type: 'number', typeOptions, description, routing: { send: { type: 'body', property: field.name } } },
		rule,
	);
}

export const organizationUpdateDescription: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('organization', ['update']),
		options: [
			checkedField(
				textSetting('Default Currency', 'defaultCurrency', 'ISO 4217 currency code of new quotes and invoices', 'e.g. EUR'),
				'currency',
			),
			numberSetting(
				{ displayName: 'Default Payment Terms (Days)', name: 'defaultPaymentTermsDays', default: 30 },
				'Days after the invoice date that payment is due',
				{ minValue: 0, numberPrecision: 0 },
				'nonNegativeInteger',
			),
			numberSetting(
				{ displayName: 'Default VAT Percentage', name: 'defaultVatPercentage', default: 21 },
				'VAT percentage used for new line items, from 0 to 100',
				{ minValue: 0, maxValue: 100 },
				'percentage',
			),
			textSetting('IBAN', 'iban', 'Bank account printed on invoices', 'e.g. NL91ABNA0417164300'),
			textSetting('Invoice Footer', 'invoiceFooter', 'Text printed at the bottom of every invoice'),
			textSetting('Invoice Number Prefix', 'invoiceNumberPrefix', 'Prefix of new invoice numbers', 'e.g. INV-'),
			textSetting('KvK Number', 'kvkNumber', 'Chamber of Commerce registration number', 'e.g. 12345678'),
			textSetting('Legal Name', 'legalName', 'Registered name of the organization'),
			textSetting('Quote Number Prefix', 'quoteNumberPrefix', 'Prefix of new quote numbers', 'e.g. OFF-'),
			textSetting('VAT Number', 'vatNumber', 'VAT identification number', 'e.g. NL123456789B01'),
		],
	},
];
