import type { LineItem, Totals } from './types';

export function roundCents(amount: number): number {
	return Math.round((amount + Number.EPSILON) * 100) / 100;
}

/** VAT is computed and rounded per line, then summed: the way Dutch invoices are usually printed. */
export function computeTotals(items: readonly LineItem[]): Totals {
	let subtotal = 0;
	let vatTotal = 0;
	for (const item of items) {
		const lineSubtotal = roundCents(item.quantity * item.unitPrice);
		subtotal += lineSubtotal;
		vatTotal += roundCents((lineSubtotal * item.vatPercentage) / 100);
	}
	subtotal = roundCents(subtotal);
	vatTotal = roundCents(vatTotal);
	return { subtotal, vatTotal, total: roundCents(subtotal + vatTotal) };
}

/** OFF-2026-0007: prefix, year, 4-digit sequence (more digits once past 9999). */
export function documentNumber(prefix: string, year: number, sequence: number): string {
	return `${prefix}${year}-${String(sequence).padStart(4, '0')}`;
}
