/**
 * "On Error: Stop Workflow" for writes. n8n's RoutingNode starts every item's request at once, so
 * by itself a failed item does not stop the later ones: they have been sent already. Here the
 * writes (POST, PATCH, DELETE) of one node run go out one item at a time, in item order, and once
 * an item failed (at the API or in the node's own input checks) no later write is sent. The first
 * failed item's error then says which items were not sent. With "Continue" (either output) every
 * item is tried as before, and reads are never held back.
 *
 * An item that fails its input checks never reaches the routing seam, so every preSend step of
 * the node is wrapped once (`guardInputChecks`) to report that failure here.
 */
import type {
	IExecuteData,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

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

	/** Records that `itemIndex` was not sent; the first failure's error names every such item. */
	skip(itemIndex: number, failedIndex: number): void {
		this.notSent.push(itemIndex);
		const failure = this.failures.get(failedIndex) as (Error & { description?: string | null }) | undefined;
		if (!failure) return;
		this.ownDescription ??= failure.description ?? '';
		const shown = this.notSent.slice(0, 20).join(', ') + (this.notSent.length > 20 ? ` and ${this.notSent.length - 20} more` : '');
		failure.description = `${this.ownDescription} ${notSentText(shown, this.notSent.length)}`.trim();
	}
}

function notSentText(list: string, count: number) {
	return `${count === 1 ? `Item ${list} was` : `Items ${list} were`} not sent: with On Error set to "Stop Workflow", no later item is sent once one fails. Fix this item and run the node again, or set On Error to "Continue" to try every item.`;
}

const runs = new WeakMap<IExecuteData, RunOrder>();

/** One node run's item order: shared by all its items through the run's execute data. */
function runOf(ctx: IExecuteSingleFunctions): RunOrder {
	const key = ctx.getExecuteData();
	let run = runs.get(key);
	if (!run) {
		run = new RunOrder();
		runs.set(key, run);
	}
	return run;
}

/**
 * Sends one item's write in item order when the node stops on error: waits for the earlier items,
 * refuses to send once one of them failed, and records this item's outcome for the later ones.
 */
export async function inItemOrder<T>(ctx: IExecuteSingleFunctions, send: () => Promise<T>): Promise<T> {
	if (ctx.continueOnFail()) return await send();
	const run = runOf(ctx);
	const itemIndex = ctx.getItemIndex();
	await run.turn(itemIndex);
	const failedIndex = run.failedBefore(itemIndex);
	if (failedIndex !== undefined) {
		run.skip(itemIndex, failedIndex);
		run.finish(itemIndex);
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

type PreSend = (this: IExecuteSingleFunctions, options: IHttpRequestOptions) => Promise<IHttpRequestOptions>;

const guarded = new WeakSet<PreSend>();

function guard(step: PreSend): PreSend {
	if (guarded.has(step)) return step;
	const wrapped: PreSend = async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const checked = (async () => await step.call(this, options))();
		checked.then(undefined, (error: Error) => runOf(this).finish(this.getItemIndex(), error));
		return await checked;
	};
	guarded.add(wrapped);
	return wrapped;
}

/** True when a preSend step reports its failures to the item order (a test checks every one). */
export function isGuarded(step: unknown): boolean {
	return guarded.has(step as PreSend);
}

/** Wraps every preSend step found in the node's properties (at any depth) once. */
export function guardInputChecks(properties: INodeProperties[]): INodeProperties[] {
	const visit = (value: unknown): void => {
		if (!value || typeof value !== 'object') return;
		if (Array.isArray(value)) return value.forEach(visit);
		const record = value as Record<string, unknown>;
		const send = (record.routing as { send?: { preSend?: PreSend[] } } | undefined)?.send;
		if (send?.preSend) send.preSend = send.preSend.map(guard);
		for (const [key, child] of Object.entries(record)) if (key !== 'routing') visit(child);
	};
	visit(properties);
	return properties;
}
