import { budgetFor, budgetKeyOf } from '../../nodes/shared/api/rateBudget';
import { forgetRateBudgets } from './clock';

/**
 * The key's budget runs on a window of `windowMs` instead of the API's minute (the same limit,
 * scaled in time), until it is forgotten: the package reads no such setting, so the harness makes
 * the key's budget before the package asks for it (the package keeps a budget's window).
 */
export function useBudgetWindow(apiKey: string, limit: number, windowMs: number): void {
	forgetRateBudgets();
	budgetFor(budgetKeyOf(apiKey), limit, windowMs);
}
