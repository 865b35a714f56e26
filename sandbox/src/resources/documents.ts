/** What quotes and invoices share: line items, totals, content locking and status moves. */
import { invalidState, type ApiError } from '../errors';
import type { OrgData } from '../store';
import type { LineItem } from '../types';

export interface ItemInput {
	name: string;
	quantity: number;
	unitPrice: number;
	vatPercentage?: number;
}

/** A line without vatPercentage gets the organization's defaultVatPercentage. */
export function normalizeItems(org: OrgData, items: ItemInput[]): LineItem[] {
	return items.map((i) => ({
		name: i.name,
		quantity: i.quantity,
		unitPrice: i.unitPrice,
		vatPercentage: i.vatPercentage ?? org.organization.defaultVatPercentage,
	}));
}

const quoted = (values: readonly string[]): string => values.map((v) => `"${v}"`).join(', ');

export function refusedMove(
	kind: 'quote' | 'invoice',
	from: string,
	to: string,
	allowed: readonly string[],
): ApiError {
	const rest =
		allowed.length > 0
			? `allowed from "${from}": ${quoted(allowed)}`
			: `"${from}" is a final status`;
	return invalidState(`Cannot change ${kind} status from "${from}" to "${to}"; ${rest}`);
}

/** Content (lines, contact, dates) may only change while the document is a draft. */
export function assertEditable(
	kind: 'quote' | 'invoice',
	number: string,
	status: string,
	changed: string[],
): void {
	if (changed.length > 0 && status !== 'draft') {
		throw invalidState(
			`Cannot change ${changed.join(', ')} of ${kind} ${number}: its status is "${status}"; content can only change while the ${kind} is "draft"`,
		);
	}
}

export function assertDeletable(
	kind: 'quote' | 'invoice',
	number: string,
	status: string,
	deletable: readonly string[],
): void {
	if (!deletable.includes(status)) {
		throw invalidState(
			`Cannot delete ${kind} ${number}: its status is "${status}"; only ${quoted(deletable).replace(/, (?=[^,]*$)/, ' or ')} ${kind}s can be deleted`,
		);
	}
}
