/**
 * What a refused delivery leaves behind, without costing a database write each time:
 *
 * - a count kept in this n8n process's memory, per trigger;
 * - at most once a minute per trigger, the count and the last refusal's time, status and reason
 *   written to the trigger's static data (`refusals`, returned with the workflow by n8n's public
 *   API), and only when the subscription record the request read is the current one (so that a
 *   flood during a republish never writes an old record back; see currentRecord.ts);
 * - a warning in n8n's log for the first refusal, then at most one a minute saying how many
 *   followed.
 *
 * While the editor listens for a test event, the refusal also ends the wait with an error that
 * says why (see webhook() in the node). At most MAX_TALLIES triggers are tallied (the oldest
 * go first).
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { isCurrentRecord } from './currentRecord';

export const REFUSAL_WRITE_INTERVAL_MS = 60_000;
export const MAX_TALLIES = 1000;

export interface RefusalRecord extends IDataObject {
	count: number;
	lastAt: string;
	lastStatus: number;
	lastReason: string;
}

interface Tally {
	/** Refusals not yet written to the static data. */
	pending: number;
	/** Refusals not yet named in the log. */
	unlogged: number;
	writtenAt: number;
	loggedAt: number;
}

const tallies = new Map<string, Tally>();

function tallyOf(key: string): Tally {
	let tally = tallies.get(key);
	if (!tally) {
		tally = { pending: 0, unlogged: 0, writtenAt: -Infinity, loggedAt: -Infinity };
		tallies.set(key, tally);
		if (tallies.size > MAX_TALLIES) tallies.delete(tallies.keys().next().value as string);
	}
	return tally;
}

/**
 * Counts a refusal of the trigger `key`; `record` is the subscription record the request read.
 * Answers the count as far as this process knows it (stored count plus the ones not written),
 * and whether the static data was written this time.
 */
export function recordRefusal(
	ctx: IWebhookFunctions,
	key: string,
	record: IDataObject | undefined,
	status: number,
	reason: string,
): { count: number; written: boolean } {
	const now = Date.now();
	const tally = tallyOf(key);
	tally.pending += 1;
	tally.unlogged += 1;
	const staticData = ctx.getWorkflowStaticData('node');
	const previous = staticData.refusals as Partial<RefusalRecord> | undefined;
	const count = (typeof previous?.count === 'number' ? previous.count : 0) + tally.pending;

	if (now - tally.loggedAt >= REFUSAL_WRITE_INTERVAL_MS) {
		const more = tally.unlogged > 1 ? ` (${tally.unlogged} refusals since the last line)` : '';
		ctx.logger.warn(
			`Business Ops Trigger "${ctx.getNode().name}" (workflow ${ctx.getWorkflow().id ?? 'unsaved'}) refused a delivery with HTTP ${status}: ${reason}${more}. Further refusals are logged at most once a minute.`,
		);
		tally.loggedAt = now;
		tally.unlogged = 0;
	}
	if (now - tally.writtenAt >= REFUSAL_WRITE_INTERVAL_MS && isCurrentRecord(key, record)) {
		// A new object, so that n8n sees the change and saves it with the workflow.
		staticData.refusals = {
			count,
			lastAt: new Date(now).toISOString(),
			lastStatus: status,
			lastReason: reason,
		} satisfies RefusalRecord;
		tally.writtenAt = now;
		tally.pending = 0;
		return { count, written: true };
	}
	return { count, written: false };
}
