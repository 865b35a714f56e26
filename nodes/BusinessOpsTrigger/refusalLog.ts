/**
 * The only trace a refused delivery leaves: a warning in n8n's log, at most one a minute per
 * trigger. The limiter's keys are the triggers (workflow, node, test or production URL), never
 * anything the request chooses, and at most MAX_LIMITED_TRIGGERS are kept (the oldest go first).
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { BoundedMap } from '../shared/boundedMap';

export const REFUSAL_LOG_INTERVAL_MS = 60_000;
export const MAX_LIMITED_TRIGGERS = 1000;

/** When each trigger last logged a refusal (ms since the epoch). */
const loggedAt = new BoundedMap<string, number>(MAX_LIMITED_TRIGGERS);

export function logRefusal(ctx: IWebhookFunctions, trigger: string, status: number, reason: string, nowMs: number): void {
	const last = loggedAt.get(trigger);
	if (last !== undefined && nowMs - last < REFUSAL_LOG_INTERVAL_MS) return;
	loggedAt.set(trigger, nowMs);
	ctx.logger.warn(
		`Business Ops Trigger "${ctx.getNode().name}" (workflow ${ctx.getWorkflow().id ?? 'unsaved'}) refused a delivery with HTTP ${status}: ${reason}. Further refusals of this trigger are not logged for a minute.`,
	);
}
