/**
 * Which rate budget (rateBudget.ts) a request waits for: the one of its credential's API key, in
 * this process, with the credential's Requests per Minute.
 */
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, type BusinessOpsContext } from './context';
import { budgetFor, budgetKeyOf, DEFAULT_REQUESTS_PER_MINUTE, type RateBudget } from './rateBudget';
import { runsAsTool, TOOL_TELL_USER, toolError } from './toolErrors';

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
