/** Item order and the write memory of a node run. See ARCHITECTURE.md, "Item order and the write memory". */
import type {
	IExecuteData,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { recordsOf } from '../../shared/api/envelope';
import { runsAsTool } from '../../shared/api/toolErrors';
import { sendRequest } from '../../shared/api/transport';

const isWrite = (options: IHttpRequestOptions) =>
	['POST', 'PATCH', 'PUT', 'DELETE'].includes(options.method ?? 'GET');

/** One try of Retry On Fail: each item's promise (settled when it finished); `kept` is what an ordered operation keeps for the try. */
class Try {
	readonly items = new Map<number, Promise<void>>();
	readonly notSent: number[] = [];
	readonly kept: Record<string, unknown> = {};
	inFlight = 0;
	highest = -1;
	failed?: { item: number; error: Error & { description?: string | null }; said: string[] };
}

/** n8n's node run, by its execute data (the same object for every try, new for a new run index); `written`: each item's written id, across tries. */
const runs = new WeakMap<
	IExecuteData,
	{ try: Try; answered: Map<string, IN8nHttpFullResponse>; written: Map<number, string> }
>();
/** The write memory keeps a run's first answers only: evicting the oldest would make a retry resend them all. */
const REMEMBERED = 10_000;

function runOf(ctx: IExecuteSingleFunctions) {
	let run = runs.get(ctx.getExecuteData());
	if (!run)
		runs.set(
			ctx.getExecuteData(),
			(run = { try: new Try(), answered: new Map(), written: new Map() }),
		);
	return run;
}

const keyOf = (options: IHttpRequestOptions, item: number) =>
	JSON.stringify([item, options.method, options.baseURL, options.url, options.qs, options.body]);

/** The 2xx answer an earlier try of this node run got for this write of this item, if remembered. */
export function answeredBefore(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	item: number,
): IN8nHttpFullResponse | undefined {
	return runsAsTool(ctx.getNode())
		? undefined
		: runs.get(ctx.getExecuteData())?.answered.get(keyOf(options, item));
}

/** A write's 2xx answer from an earlier try of this node run, else the write sent and its answer kept. */
export async function sendWrite(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	item: number,
): Promise<IN8nHttpFullResponse> {
	if (!isWrite(options) || runsAsTool(ctx.getNode())) return await sendRequest(ctx, options, item);
	const run = runOf(ctx);
	const key = keyOf(options, item);
	const response = run.answered.get(key) ?? (await sendRequest(ctx, options, item));
	if (run.answered.size < REMEMBERED) run.answered.set(key, response);
	run.written.set(item, String(recordsOf(response.body)[0]?.id ?? ''));
	return response;
}

const listed = (items: string[]) =>
	items.slice(0, 20).join(', ') + (items.length > 20 ? ` and ${items.length - 20} more` : '');

/** What this run wrote in any of its tries, and what running the workflow again does to it, by the operation's kind of write. */
function writtenBefore(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	done: Map<number, string>,
) {
	const written = [...done].sort(([a], [b]) => a - b);
	if (written.length === 0)
		return 'Fix this item and run the workflow again, or set On Error to "Continue" to try every item.';
	const operation = ctx.getNodeParameter('operation', '');
	const contacts = operation === 'create' && ctx.getNodeParameter('resource', '') === 'contact';
	const again =
		operation === 'upsert'
			? 'Create or Update updates the same contacts again'
			: options.method === 'DELETE'
				? 'a delete fails with 404 (not found): the record is already deleted'
				: operation === 'create'
					? 'a create makes a second record'
					: 'the same change is made again';
	const [one, it] =
		written.length === 1 ? [`item ${written[0][0]}`, 'it'] : ['these items', 'them'];
	return `Already written by this run: ${listed(written.map(([before, id]) => `item ${before}${id ? ` (${id})` : ''}`))}. Running the workflow again (a manual run, or Retry in the Executions list) is a new run: it sends ${one} again (${again}), unless you remove ${it} from the input${contacts ? ' or send contacts through Contact → Create or Update' : ''}.`;
}

/** The first failure's description: why, what was not sent after it, what was written before it. */
function describe({ failed, notSent }: Try) {
	const count = notSent.length;
	const stopped =
		count === 0
			? ''
			: `${count === 1 ? 'Item' : 'Items'} ${listed(notSent.map(String))} ${count === 1 ? 'was' : 'were'} not sent: with On Error set to "Stop Workflow", no later item is sent once one fails.`;
	if (failed)
		failed.error.description = [failed.said[0], stopped, failed.said[1]].filter(Boolean).join(' ');
}

/** Sends the item by `send`: under Stop Workflow a write (with `always` anything, under any On Error) once the try's earlier items finished, none after a failure. */
export async function inItemOrder<T>(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	send: (kept: Record<string, unknown>) => Promise<T>,
	always = false,
): Promise<T> {
	const stops = !ctx.continueOnFail();
	// a tool call is one item, and every call of an agent's run shares the agent's execute data
	if (runsAsTool(ctx.getNode()) || !(always || (stops && isWrite(options)))) return await send({});
	const item = ctx.getItemIndex();
	const run = runOf(ctx);
	// an item that arrives while nothing is in flight, not above every item that arrived, begins a new try
	// (n8n starts a try only once the last one settled; within a try, item i finishes after every earlier one)
	if (run.try.inFlight === 0 && item <= run.try.highest) run.try = new Try();
	const t = run.try;
	let finish!: () => void;
	t.items.set(item, new Promise<void>((resolve) => (finish = resolve)));
	t.inFlight++;
	t.highest = Math.max(t.highest, item);
	try {
		// once the event loop turns, every item n8n built has arrived: an earlier one missing is absent
		await sleep(0);
		for (let before = item - 1; before >= 0; before--) {
			if (t.items.has(before)) {
				await t.items.get(before);
				break;
			}
		}
		if (stops && t.failed && t.failed.item < item) {
			t.notSent.push(item);
			describe(t);
			throw new NodeOperationError(
				ctx.getNode(),
				`Not sent because item ${t.failed.item} failed before it [item ${item}]`,
				{
					itemIndex: item,
					description: `Item ${item} was not sent: with On Error set to "Stop Workflow", no later item is sent once one fails.`,
				},
			);
		}
		return await send(t.kept).catch((error: NonNullable<Try['failed']>['error']) => {
			if (stops && !t.failed) {
				t.failed = {
					item,
					error,
					said: [error.description ?? '', writtenBefore(ctx, options, run.written)],
				};
				describe(t);
			}
			throw error;
		});
	} finally {
		t.inFlight--;
		finish();
	}
}
