/**
 * The fields quotes and invoices share, built here once for both resources: Create's contact,
 * Items Input and Additional Fields; Update Fields; date pickers; the Status of an update.
 */
import type { INodeProperties } from 'n8n-workflow';

import { documentContactField } from './contactPicker';
import { inZone } from './dates';
import { showFor, titleOf } from './descriptions';
import { optionsField, sendingField, type Declaration } from './fields';
import { itemsFormField, itemsJsonField, sendItemsOnCreate, sendItemsOnUpdate } from './lineItems';
import { guarded } from './stopOnError';
import { dateText, isIsoDate, isValidJsDate } from './validation';

/**
 * A date picker sent as the body property of the same name, checked as an ISO date (text with or
 * without an offset, a Luxon DateTime such as `$now`, or a JS Date). `toApi` then turns it into the
 * form the API takes, given the workflow's time zone (the picker gives a local time without a zone).
 */
export function documentDateField(
	field: { displayName: string; name: string; description: string },
	toApi: (value: string, timeZone: string) => string,
): INodeProperties {
	return sendingField({ ...field, type: 'dateTime', default: '' }, (ctx, given) => {
		// a JS Date is an instant: read it in the workflow's time zone, as `$now` is
		const value = isValidJsDate(given) ? inZone(given, ctx.getTimezone()) : dateText(given);
		if (!isIsoDate(value)) {
			return { problem: `"${String(given)}" is not a date; use ISO 8601, e.g. 2026-12-31 or 2026-12-31T12:00:00Z` };
		}
		return { value: toApi(value as string, ctx.getTimezone()) };
	});
}

/**
 * Status in Update Fields: the PATCH carries content changes and/or a status (spec 4), so one
 * request can change both. The statuses of the spec are offered; an expression may give another.
 */
export function documentStatusField(resource: string, statuses: string[], own: Partial<Omit<Declaration, 'options'>> = {}): INodeProperties {
	return optionsField(
		{
			displayName: 'Status',
			name: 'status',
			options: statuses.map((value) => ({ name: titleOf(value), value })).sort((a, b) => a.name.localeCompare(b.name)),
			default: 'draft',
			description: `The new status of the ${resource}, sent in the same request as the other changes. The API refuses moves its rules do not allow, with an error naming the move.`,
			...own,
		},
		{ others: true },
	);
}

/**
 * The fields of Create shared by quotes and invoices: Contact, Items Input with the form or the
 * JSON field, and an Additional Fields collection holding the resource's own optional fields.
 */
export function documentCreateFields(resource: string, additionalFields: INodeProperties[]): INodeProperties[] {
	const show = (extra = {}) => showFor(resource, ['create'], extra);
	return [
		{ ...documentContactField(`The contact the ${resource} is for`), displayOptions: show() },
		{
			displayName: 'Items Input',
			name: 'itemsInput',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Form', value: 'form', description: 'Enter the items one by one' },
				{ name: 'JSON', value: 'json', description: 'Give a JSON array of items, e.g. from an expression' },
			],
			default: 'form',
			description: 'How to give the line items',
			displayOptions: show(),
			routing: { send: { preSend: [guarded(sendItemsOnCreate)] } },
		},
		{ ...itemsFormField('The lines, in the order they appear'), required: true, displayOptions: show({ itemsInput: ['form'] }) },
		{ ...itemsJsonField(), required: true, displayOptions: show({ itemsInput: ['json'] }) },
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: show(),
			options: additionalFields,
		},
	];
}

/**
 * Update Fields of a quote or an invoice: Contact, Items or Items (JSON), and the resource's own
 * fields (its dates and Status); only the fields the user adds are sent.
 */
export function documentUpdateFields(resource: string, ownFields: INodeProperties[]): INodeProperties {
	const contact = documentContactField(undefined, false);
	const items = itemsFormField(`Replaces all lines of the ${resource}, in the order given`);
	const itemsJson = itemsJsonField(`Replaces all lines of the ${resource}. `);
	const options = [contact, items, itemsJson, ...ownFields].sort((a, b) =>
		a.displayName.localeCompare(b.displayName),
	);
	return {
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, ['update']),
		options,
		routing: { send: { preSend: [guarded(sendItemsOnUpdate)] } },
	};
}
