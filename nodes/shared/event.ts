import type { IDataObject } from 'n8n-workflow';

/** The item both triggers emit for one event: a workflow can switch triggers without changing its nodes. */
export interface BusinessOpsEvent extends IDataObject {
	id: string | null;
	/** The same for every repeat of one event (a webhook retry, or the same change seen again). */
	deliveryId: string | null;
	/** `quote.approved`, `invoice.paid`, … */
	type: string | null;
	/** ISO 8601. */
	timestamp: string | null;
	data: IDataObject | null;
}

/** A value of an event as text: non-empty text, or a number as its text; else null. */
export function textOf(value: unknown): string | null {
	return typeof value === 'string' && value !== ''
		? value
		: typeof value === 'number'
			? String(value)
			: null;
}
