/**
 * "On Error: Stop Workflow" for writes. n8n's RoutingNode starts every item's request at once, so
 * by itself a failed item does not stop the later ones: they have been sent already. Here the
 * writes (POST, PATCH, DELETE) of one node run go out one item at a time, in item order, and once
 * an item failed (at the API or in the node's own input checks) no later write is sent. The first
 * failed item's error then says which items were not sent. With "Continue" (either output) every
 * item is tried as before, and reads are never held back.
 *
 * An item that fails its input checks never reaches the routing seam, so every preSend step of
 * the node is declared wrapped (`guarded`) to report that failure here. With "Continue", the
 * failure is kept instead of thrown (later checks of that item are skipped), so that the seam
 * can answer with an error item paired with its input item (`inputCheckFailure`).
 *
 * One try of the node is one run. n8n's Retry On Fail runs the node again with the same execute
 * data, so that cannot tell the tries apart; what does is that RoutingNode builds each item's
 * request exactly once per try, starting with the Resource field's preSend (`beginItem`, the first
 * property of the node). An item that begins a second time therefore starts a new run.
 */
import type {
	IExecuteData,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runsAsTool, TOOL_NOT_SENT, toolError } from '../../shared/api/errors';

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export function isWrite(options: IHttpRequestOptions): boolean {
	return WRITE_METHODS.has((options.method ?? 'GET').toUpperCase());
}

/** What one run of the node (one set of input items) knows about its items. */
class RunOrder {
	/** Items 0..done-1 have all finished (sent and answered, or failed their checks). */
	private done = 0;
	private finished = new Set<number>();
	private waiting = new Map<number, () => void>();
	private failures = new Map<number, Error>();
	private notSent: number[] = [];
	private begun = new Set<number>();
	/** Input-check failures kept for the seam under "Continue". */
	readonly inputFailures = new Map<number, Error>();
	/** What an operation keeps for the rest of this run (runScoped). */
	readonly kept = new Map<string, unknown>();

	/**
	 * False when `itemIndex` already began in this run: then a new try has started. RoutingNode
	 * begins the items in item order, so an earlier item that has not begun never will in this try
	 * (its parameters failed, e.g. an expression error under Continue): it is finished, so that the
	 * later items do not wait for it.
	 */
	begin(itemIndex: number): boolean {
		if (this.begun.has(itemIndex)) return false;
		this.begun.add(itemIndex);
		for (let earlier = this.done; earlier < itemIndex; earlier++) if (!this.begun.has(earlier)) this.finish(earlier);
		return true;
	}
	/** The first failure's own description, before the list of items not sent was added. */
	private ownDescription?: string;

	/** Resolves once every item before `itemIndex` has finished. */
	async turn(itemIndex: number): Promise<void> {
		if (itemIndex <= this.done) return;
		await new Promise<void>((resolve) => this.waiting.set(itemIndex, resolve));
	}

	finish(itemIndex: number, error?: Error): void {
		if (error && !this.failures.has(itemIndex)) this.failures.set(itemIndex, error);
		this.finished.add(itemIndex);
		while (this.finished.has(this.done)) {
			this.done++;
			// Item `done` may go now: every item before it has finished.
			this.waiting.get(this.done)?.();
			this.waiting.delete(this.done);
		}
	}

	/** The earliest item before `itemIndex` that failed, if any. */
	failedBefore(itemIndex: number): number | undefined {
		const earlier = [...this.failures.keys()].filter((index) => index < itemIndex);
		return earlier.length ? Math.min(...earlier) : undefined;
	}

	/** Records that `itemIndex` was not sent; the first failure's error names every such item (not for a model). */
	skip(itemIndex: number, failedIndex: number, forTool: boolean): void {
		this.notSent.push(itemIndex);
		const failure = this.failures.get(failedIndex) as (Error & { description?: string | null }) | undefined;
		if (!failure || forTool) return;
		this.ownDescription ??= failure.description ?? '';
		const shown = this.notSent.slice(0, 20).join(', ') + (this.notSent.length > 20 ? ` and ${this.notSent.length - 20} more` : '');
		failure.description = `${this.ownDescription} ${notSentText(shown, this.notSent.length)}`.trim();
	}
}

function notSentText(list: string, count: number) {
	return `${count === 1 ? `Item ${list} was` : `Items ${list} were`} not sent: with On Error set to "Stop Workflow", no later item is sent once one fails. Fix this item and run the node again, or set On Error to "Continue" to try every item.`;
}

const runs = new WeakMap<IExecuteData, RunOrder>();

/** The current try's item order: shared by all its items through the node's execute data. */
function runOf(ctx: IExecuteSingleFunctions): RunOrder {
	const key = ctx.getExecuteData();
	let run = runs.get(key);
	if (!run) {
		run = new RunOrder();
		runs.set(key, run);
	}
	return run;
}

/** preSend of the Resource field, the first step of every item in every try (see above). */
export async function beginItem(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
	const key = this.getExecuteData();
	if (!runOf(this).begin(this.getItemIndex())) {
		const run = new RunOrder();
		run.begin(this.getItemIndex());
		runs.set(key, run);
	}
	return requestOptions;
}

/** The input-check failure of this item in this try, kept under "Continue". */
export function inputCheckFailure(ctx: IExecuteSingleFunctions): Error | undefined {
	return runOf(ctx).inputFailures.get(ctx.getItemIndex());
}

/**
 * A value kept for the rest of this run (one try of the node), made by the first item that asks:
 * Create or Update reads the contacts once per run, not once per item.
 */
export function runScoped<T>(ctx: IExecuteSingleFunctions, name: string, make: () => T): T {
	const { kept } = runOf(ctx);
	if (!kept.has(name)) kept.set(name, make());
	return kept.get(name) as T;
}

/**
 * Sends one item's write in item order when the node stops on error: waits for the earlier items,
 * refuses to send once one of them failed, and records this item's outcome for the later ones.
 * With `always`, the items also go one at a time in item order under "Continue" (an operation
 * whose item depends on what the earlier ones wrote: Create or Update); a failure then stops
 * nothing.
 */
export async function inItemOrder<T>(ctx: IExecuteSingleFunctions, send: () => Promise<T>, always = false): Promise<T> {
	const continues = ctx.continueOnFail();
	if (continues && !always) return await send();
	const run = runOf(ctx);
	const itemIndex = ctx.getItemIndex();
	await run.turn(itemIndex);
	const failedIndex = continues ? undefined : run.failedBefore(itemIndex);
	if (failedIndex !== undefined) {
		const forTool = runsAsTool(ctx.getNode());
		run.skip(itemIndex, failedIndex, forTool);
		run.finish(itemIndex);
		if (forTool) throw toolError(ctx.getNode(), TOOL_NOT_SENT.message, TOOL_NOT_SENT.description);
		throw new NodeOperationError(
			ctx.getNode(),
			`Not sent because item ${failedIndex} failed before it [item ${itemIndex}]`,
			{ itemIndex, description: notSentText(String(itemIndex), 1) },
		);
	}
	const sent = send();
	// Recorded before the caller sees the outcome, so the next item's turn knows it.
	sent.then(
		() => run.finish(itemIndex),
		(error: Error) => run.finish(itemIndex, error),
	);
	return await sent;
}

export type PreSend = (this: IExecuteSingleFunctions, options: IHttpRequestOptions) => Promise<IHttpRequestOptions>;

// beginItem never fails, and must run even for an item whose checks failed in an earlier try.
const guardedSteps = new WeakSet<PreSend>([beginItem]);

/**
 * A preSend step that reports its failure to the item order: under "Stop Workflow" the item counts
 * as failed (no later write is sent); under "Continue" the failure is kept for the seam and the
 * item's later steps are skipped. Every preSend of the node is declared through this (the field
 * builders in fields.ts do it for each field), and a test checks that none is missing.
 */
export function guarded(step: PreSend): PreSend {
	const wrapped: PreSend = async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const run = runOf(this);
		const itemIndex = this.getItemIndex();
		if (run.inputFailures.has(itemIndex)) return options;
		const checked = (async () => await step.call(this, options))();
		if (this.continueOnFail()) {
			return await checked.catch((error: Error) => {
				run.inputFailures.set(itemIndex, error);
				return options;
			});
		}
		checked.then(undefined, (error: Error) => run.finish(itemIndex, error));
		return await checked;
	};
	guardedSteps.add(wrapped);
	return wrapped;
}

/** True when a preSend step reports its failures to the item order (a test checks every one). */
export function isGuarded(step: unknown): boolean {
	return guardedSteps.has(step as PreSend);
}
