/**
 * Item order: the one rule of a node run that spans its items.
 *
 * Contract
 * - The routing seam calls `inItemOrder` once per item; nothing else calls into this module.
 * - A write (POST, PATCH, PUT, DELETE) under On Error "Stop Workflow", and every item of an
 *   operation that asks for it (`always`: Contact → Create or Update, whose items read what earlier ones
 *   wrote) under any On Error setting, is sent only once every earlier item of the run has
 *   finished: one at a time, in item order. Under "Stop Workflow" nothing is sent after an item
 *   failed, and the first failure's description names the items not sent.
 * - Reads, and writes under "Continue", are sent as n8n sends them: all at once.
 * - A run is one try of the node. n8n's Retry On Fail runs the items again over the same execute
 *   data, after the previous try ended: an item that arrives a second time, or one that arrives
 *   while nothing of the run is in flight and a later item arrived before, starts a new run.
 * - An earlier item that has not arrived when the event loop next turns is absent from this try
 *   (n8n did not build it, e.g. its expression failed, or a step before the seam threw): it holds
 *   back nothing and stops nothing, which is n8n's own behaviour. Nothing here waits on a clock,
 *   and nothing waits for an item that cannot come: the worst case is n8n's semantics, never a
 *   hang. This relies on RoutingNode running each item's preSend steps and calling the seam with
 *   no I/O in between (ARCHITECTURE.md, "What the package relies on").
 */
import type { IExecuteData, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { runsAsTool, TOOL_NOT_SENT, toolError } from '../../shared/api/toolErrors';

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** What one run (one try of the node) knows of its items. */
class Run {
	private readonly arrived = new Set<number>();
	/** Items that arrived and have not finished. */
	private inFlight = 0;
	/** Finished items: their error, or undefined (answered, or absent from this try). */
	private readonly finished = new Map<number, Error | undefined>();
	/** Items 0..done-1 have all finished. */
	private done = 0;
	private highest = -1;
	private firstFailed?: number;
	private readonly waiting = new Map<number, () => void>();
	private sweeping = false;
	private readonly notSent: number[] = [];
	private firstDescription?: string;
	/** What an operation keeps for the rest of the run (Contact → Create or Update: the contacts read once). */
	readonly memo = new Map<string, unknown>();

	/**
	 * False when a new try has begun: the item already arrived in this run, or nothing is in flight
	 * and a later item arrived before (within a try, an item finishes only after every earlier one).
	 */
	arrive(item: number): boolean {
		if (this.arrived.has(item) || (this.inFlight === 0 && item <= this.highest)) return false;
		this.arrived.add(item);
		this.inFlight++;
		this.highest = Math.max(this.highest, item);
		return true;
	}

	finish(item: number, error?: Error): void {
		if (this.arrived.has(item) && !this.finished.has(item)) this.inFlight--;
		if (!this.finished.has(item) || error) this.finished.set(item, error);
		if (error && (this.firstFailed === undefined || item < this.firstFailed)) this.firstFailed = item;
		while (this.finished.has(this.done)) this.waiting.get(++this.done)?.();
	}

	/** Resolves once every item before `item` has finished or is absent; answers the first that failed. */
	async turn(item: number): Promise<number | undefined> {
		if (this.done < item) {
			const turn = new Promise<void>((resolve) => this.waiting.set(item, resolve));
			void this.sweep();
			await turn;
			this.waiting.delete(item);
		}
		return this.firstFailed !== undefined && this.firstFailed < item ? this.firstFailed : undefined;
	}

	/** On the event loop's next turn, every item below one that arrived and has not arrived itself is absent. */
	private async sweep(): Promise<void> {
		if (this.sweeping) return;
		this.sweeping = true;
		await sleep(0);
		this.sweeping = false;
		for (let i = this.done; i < this.highest; i++) if (!this.arrived.has(i)) this.finish(i);
	}

	/** Adds `item` to the items not sent, named in the first failure's description (not for a model). */
	notSentAfter(failed: number, item: number): void {
		const failure = this.finished.get(failed) as Error & { description?: string | null };
		this.notSent.push(item);
		this.firstDescription ??= failure.description ?? '';
		const shown = this.notSent.slice(0, 20).join(', ') + (this.notSent.length > 20 ? ` and ${this.notSent.length - 20} more` : '');
		failure.description = `${this.firstDescription} ${notSentText(shown, this.notSent.length)}`.trim();
	}
}

function notSentText(list: string, count: number) {
	return `${count === 1 ? `Item ${list} was` : `Items ${list} were`} not sent: with On Error set to "Stop Workflow", no later item is sent once one fails. Fix this item and run the node again, or set On Error to "Continue" to try every item.`;
}

/** The runs in progress, by n8n's execute data of the node (shared by its items and its tries). */
const runs = new WeakMap<IExecuteData, Run>();

function runOf(ctx: IExecuteSingleFunctions, item: number): Run {
	const key = ctx.getExecuteData();
	let run = runs.get(key);
	if (!run?.arrive(item)) {
		run = new Run();
		run.arrive(item);
		runs.set(key, run);
	}
	return run;
}

/**
 * Sends one item's request by `send` in the order the contract above gives. `send` gets what the
 * run keeps for its operation (`memo`); with `always`, the items go in item order under every On
 * Error setting.
 */
export async function inItemOrder<T>(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	send: (memo: Map<string, unknown>) => Promise<T>,
	always = false,
): Promise<T> {
	const stops = !ctx.continueOnFail();
	const write = WRITES.has((options.method ?? 'GET').toUpperCase());
	if (!always && !(stops && write)) return await send(new Map());
	const item = ctx.getItemIndex();
	const run = runOf(ctx, item);
	const failed = await run.turn(item);
	if (stops && failed !== undefined) {
		run.finish(item);
		if (runsAsTool(ctx.getNode())) throw toolError(ctx.getNode(), TOOL_NOT_SENT.message, TOOL_NOT_SENT.description);
		run.notSentAfter(failed, item);
		throw new NodeOperationError(ctx.getNode(), `Not sent because item ${failed} failed before it [item ${item}]`, {
			itemIndex: item,
			description: notSentText(String(item), 1),
		});
	}
	const sent = send(run.memo);
	// recorded before the caller sees the outcome, so that the next item's turn knows it
	sent.then(
		() => run.finish(item),
		(error: Error) => run.finish(item, error),
	);
	return await sent;
}
