/**
 * The only trace a refused delivery leaves: a warning in n8n's log, at most one a minute per
 * trigger and kind of reason, so that junk a stranger sends (missing or malformed headers) never
 * keeps the reason a genuine delivery fails (a changed key, another signed form) out of the log.
 * The limiter's keys are the triggers (workflow, node, test or production URL) and a fixed set of
 * kinds (REASON_KINDS), never anything the request chooses (reasons may name its headers), and at
 * most MAX_LIMITED_TRIGGERS triggers' worth are kept (the oldest go first).
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { BoundedMap } from '../shared/boundedMap';

export const REFUSAL_LOG_INTERVAL_MS = 60_000;
export const MAX_LIMITED_TRIGGERS = 1000;

/** The kinds of reason, each limited on its own, with the words the log line uses; the first whose pattern matches. */
const REASON_KINDS: ReadonlyArray<[kind: string, pattern: RegExp, words: string]> = [
	['search', /Auto has not yet seen/, "Auto's search of a first delivery"],
	['signature', /^signature does not match/, 'a signature that does not match'],
	['timestamp', /^(timestamp too old|timestamp in the future|malformed timestamp|missing timestamp)/, 'a timestamp outside the window'],
	['headers', /^(missing|malformed) /, 'missing or malformed headers'],
	['secret', /signing secret|signing key|API key/, 'the signing secret or key'],
	['settings', /^(Custom signature|"Timestamp Tolerance|the timestamp tolerance|unknown signature scheme)/, "the trigger's settings"],
	['body', /body/, 'the body'],
];
const OTHER: [kind: string, pattern: RegExp, words: string] = ['other', /(?:)/, 'other reasons'];

/** When each trigger last logged a refusal of each kind (ms since the epoch). */
const loggedAt = new BoundedMap<string, number>(MAX_LIMITED_TRIGGERS * (REASON_KINDS.length + 1));

export function logRefusal(ctx: IWebhookFunctions, trigger: string, status: number, reason: string, nowMs: number): void {
	const [kind, , words] = REASON_KINDS.find(([, pattern]) => pattern.test(reason)) ?? OTHER;
	const key = `${trigger}\u0000${kind}`;
	const last = loggedAt.get(key);
	if (last !== undefined && nowMs - last < REFUSAL_LOG_INTERVAL_MS) return;
	loggedAt.set(key, nowMs);
	ctx.logger.warn(
		`Business Ops Trigger "${ctx.getNode().name}" (workflow ${ctx.getWorkflow().id ?? 'unsaved'}) refused a delivery with HTTP ${status}: ${reason}. Further refusals of this trigger for ${words} are not logged for a minute.`,
	);
}
