/**
 * Which rate budget (rateBudget.ts) a request waits for: the one of its credential's API key, in
 * this process. The API limits each key, whatever the Base URL (`/v1` and the legacy `/api/v1` are
 * one key), so a budget is kept under a hash of the key alone (never the key itself).
 */
import { createHash } from 'node:crypto';
import { NodeOperationError } from 'n8n-workflow';

import { systemClock } from './clock';
import { CREDENTIAL_TYPE, type BusinessOpsContext } from './context';
import { API_WINDOW_MS, DEFAULT_REQUESTS_PER_MINUTE, IDLE_MS, RateBudget } from './rateBudget';
import { runsAsTool, TOOL_TELL_USER, toolError } from './toolErrors';

/** At most this many keys' budgets are kept; beyond it the least recently used idle one goes. */
const MAX_BUDGETS = 1000;

/** The name a key's budget is kept under: a hash, never the key itself. */
export function budgetKeyOf(apiKey: string): string {
	return createHash('sha256').update(`business-ops rate budget\n${apiKey.trim()}`).digest('hex');
}

/**
 * Every key's budget in this process, by `budgetKeyOf`. Bounded: idle budgets are forgotten, and
 * beyond MAX_BUDGETS the least recently used idle budget goes.
 */
const budgets = new Map<string, RateBudget>();
let lastSweep = 0;

/**
 * The budget of one API key, with this credential's Requests per Minute in use. The window is the
 * API's minute; a harness may pass another (the budget keeps the one it was created with).
 */
export function budgetFor(key: string, limit: number, windowMs = API_WINDOW_MS): RateBudget {
	const now = systemClock.now();
	let budget = budgets.get(key);
	// An idle budget is forgotten as if the sweep had taken it: it starts anew, with this window.
	if (budget?.isIdle(now)) budget = undefined;
	if (budget) {
		budgets.delete(key); // re-inserted below: the map's order is the order of last use
		budget.useLimit(limit);
	} else {
		budget = new RateBudget(limit, windowMs);
	}
	budgets.set(key, budget);
	if (now - lastSweep > IDLE_MS / 10 || budgets.size > MAX_BUDGETS) {
		lastSweep = now;
		for (const [k, b] of budgets) if (b !== budget && b.isIdle(now)) budgets.delete(k);
		// Still too many keys in use: the least recently used that nothing waits for goes first.
		for (const [k, b] of budgets) {
			if (budgets.size <= MAX_BUDGETS) break;
			if (b !== budget && !b.isBusy()) budgets.delete(k);
		}
	}
	return budget;
}

/** A credential number that is absent (saved before the field existed) takes its default; a wrong one fails. */
function credentialNumber(ctx: BusinessOpsContext, value: unknown, fallback: number, label: string): number {
	if (value === undefined || value === null || value === '') return fallback;
	const n = Number(value);
	if (!Number.isFinite(n) || n < 1) {
		if (runsAsTool(ctx.getNode())) {
			throw toolError(ctx.getNode(), `This tool's connection is set up wrongly (${label} must be a number of 1 or more)`, TOOL_TELL_USER);
		}
		throw new NodeOperationError(ctx.getNode(), `${label} in the Business Ops API credential must be a number of 1 or more, not "${String(value)}"`);
	}
	return n;
}

/**
 * The rate budget of the credential's API key. The API limits each key, whatever the Base URL
 * (`/v1` and the legacy `/api/v1` are one key), so the budget is kept under a hash of the key alone
 * (never the key itself): every node and trigger call made with that key in this process shares it,
 * also a credential without an id (not saved yet), and two credentials holding the same key (the
 * lower Requests per Minute wins). A saved `rateWindowSeconds` (an earlier hidden field) is ignored.
 */
export async function budgetOf(ctx: BusinessOpsContext): Promise<CredentialBudget> {
	let budget = budgetsByContext.get(ctx);
	if (!budget) {
		budget = readBudget(ctx);
		budgetsByContext.set(ctx, budget);
	}
	return await budget;
}

/** The key's budget and the credential's Requests per Minute, which each of its requests uses. */
interface CredentialBudget {
	budget: RateBudget;
	limit: number;
}

/** One credential read per n8n context (a list read sends all its pages from one). */
const budgetsByContext = new WeakMap<object, Promise<CredentialBudget>>();

async function readBudget(ctx: BusinessOpsContext): Promise<CredentialBudget> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const limit = Math.floor(credentialNumber(ctx, credentials.requestsPerMinute, DEFAULT_REQUESTS_PER_MINUTE, 'Requests per Minute'));
	return { budget: budgetFor(budgetKeyOf(String(credentials.apiKey ?? '')), limit), limit };
}
