/** Item order and the write memory of a node run. See ARCHITECTURE.md, "Item order and the write memory". */
import type {
	IDataObject,
	IExecuteData,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { recordsOf } from '../../shared/api/envelope';
import { isApiNotFound } from '../../shared/api/errors';
import { mayHaveWritten, runsAsTool } from '../../shared/api/toolErrors';
import { sendRequest } from '../../shared/api/transport';

export interface Sent {
	records: IDataObject[];
	response: IN8nHttpFullResponse;
}

/** What a repeat of a write does, declared with its operation (`writeRouting` in the resource's index.ts). */
export interface WriteRule {
	/** What running the workflow again does to this write, and the other way to send it (Stop Workflow's error). */
	again: string;
	instead?: string;
	/** Before a write whose outcome was unknown is sent again: the record that shows it was made, `absent` or `unfindable`; `ids`: each item's written id. */
	prove: (
		ctx: IExecuteSingleFunctions,
		options: IHttpRequestOptions,
		item: number,
		ids: Map<number, string>,
	) => Promise<IDataObject | 'absent' | 'unfindable'>;
	/** Its own sender, in item order under every On Error (Create or Update); `thisTry`: one object per try. */
	send?: (
		ctx: IExecuteSingleFunctions,
		options: IHttpRequestOptions,
		item: number,
		thisTry: object,
	) => Promise<Sent>;
}

/** A create: `find` lists the records that may be it (undefined: what was sent cannot find it); one that `agrees` with what was sent and no other item holds is it. */
export function creates(
	find?: (
		ctx: IExecuteSingleFunctions,
		options: IHttpRequestOptions,
		item: number,
	) => Promise<IDataObject[] | undefined>,
	instead?: string,
): WriteRule {
	return {
		again: 'a create makes a second record',
		instead,
		prove: async (ctx, options, item, ids) => {
			const found = await find?.(ctx, options, item);
			if (!found) return 'unfindable';
			const held = new Set([...ids].filter(([other]) => other !== item).map(([, id]) => id));
			const mine = found.filter(
				(record) =>
					!held.has(String(record.id ?? '')) && agrees(record, options.body as IDataObject),
			);
			// held at once, with no await between: a proof of another item beside it takes another record
			if (mine.length === 1) ids.set(item, String(mine[0].id ?? ''));
			if (mine.length <= 1) return mine[0] ?? 'absent';
			throw new NodeOperationError(
				ctx.getNode(),
				`${mine.length} records match what this item sent (${mine
					.slice(0, 10)
					.map((record) => String(record.id ?? ''))
					.join(', ')}) [item ${item}]`,
				{
					itemIndex: item,
					description: `An earlier try sent ${options.method} ${options.url} and got no answer, so one of them may be its record. Nothing was sent again. Check them in the Business Ops dashboard, then remove this item from the input or delete the extra records.`,
				},
			);
		},
	};
}

/** Text as an API may store it (the spec is silent): without format characters (Cf: zero-width, direction marks, soft hyphen), trimmed, composed (NFC; macOS and copy-paste give é decomposed), its case kept. */
export const tidy = (text: string) =>
	text
		.replace(/\p{Cf}/gu, '')
		.trim()
		.normalize('NFC');

/** A value as a create's proof compares it: text tidy, without spaces or punctuation, in lower case ("+31 20-123" and "+3120123" agree). */
const comparable = (value: unknown) =>
	typeof value === 'string'
		? tidy(value)
				.replace(/[\s\p{P}]/gu, '')
				.toLowerCase()
				.normalize('NFC')
		: JSON.stringify(value);

/** Whether every field sent that the record shows is the one sent: a record that differs in one is another's (another client's, an earlier message of the same ticket). */
const agrees = (record: IDataObject, sent: IDataObject = {}) =>
	Object.entries(sent).every(
		([name, value]) => record[name] === undefined || comparable(record[name]) === comparable(value),
	);

function shows(record: unknown, sent: unknown): boolean {
	if (Array.isArray(sent) && !(Array.isArray(record) && record.length === sent.length))
		return false;
	if (typeof sent === 'string') return typeof record === 'string' && tidy(record) === tidy(sent);
	if (!sent || typeof sent !== 'object') return record === sent;
	return (
		!!record &&
		typeof record === 'object' &&
		Object.entries(sent).every(([k, v]) => shows((record as IDataObject)[k], v))
	);
}

const read = async (
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	url: string,
	item: number,
) => await sendRequest(ctx, { ...options, method: 'GET', url, body: undefined, qs: {} }, item);

export const parentUrl = (url: string) => url.slice(0, url.lastIndexOf('/'));

/** A change to a record: read (`read` gives the record's URL from the write's), answered from it where it `shows` the change, else sent. */
export function changes({
	read: urlOf = (url: string) => url,
	shows: showsChange = (record: IDataObject, sent: unknown) => shows(record, sent ?? {}),
} = {}): WriteRule {
	return {
		again: 'the same change is made again',
		prove: async (ctx, options, item) => {
			const record = recordsOf((await read(ctx, options, urlOf(options.url), item)).body)[0];
			return record && showsChange(record, options.body) ? record : 'absent';
		},
	};
}

/** A delete: the API's own 404 answers it (a record that never existed reads the same), else it is sent. */
export function deletes(): WriteRule {
	return {
		again: 'a delete fails with 404 (not found): the record is already deleted',
		prove: async (ctx, options, item) =>
			await read(ctx, options, options.url, item).then(
				() => 'absent' as const,
				(error: unknown) => {
					if (isApiNotFound(error)) return { id: idOf(options) };
					throw error;
				},
			),
	};
}

const idOf = (options: IHttpRequestOptions) =>
	decodeURIComponent(options.url.split('?')[0].split('/').filter(Boolean).pop() ?? '');

/** One pass of Retry On Fail (or Continue's re-run) over the run's items: each item's promise, settled when it finished. */
class Try {
	readonly items = new Map<number, Promise<void>>();
	readonly notSent: number[] = [];
	inFlight = 0;
	failed?: {
		item: number;
		error: Error & { description?: string | null };
		said: string;
		rule: Pick<WriteRule, 'again' | 'instead'>;
	};
}

/** A write of this run: its answer (on its way, or failed); `unknown`: what it sent, when it failed in a way that may have written it. */
interface Remembered {
	answer: Promise<IN8nHttpFullResponse>;
	unknown?: IHttpRequestOptions;
}

/** n8n's node run, by its execute data: its current try, its write memory (`unknown`: the write may have been made) and each item's written id. */
const runs = new WeakMap<
	IExecuteData,
	{
		try: Try;
		memory: Map<string, Remembered>;
		ids: Map<number, string>;
	}
>();
/** The write memory keeps a run's first writes only: evicting the oldest would make a retry resend them all. */
const REMEMBERED = 10_000;

function runOf(ctx: IExecuteSingleFunctions) {
	let run = runs.get(ctx.getExecuteData());
	if (!run)
		runs.set(ctx.getExecuteData(), (run = { try: new Try(), memory: new Map(), ids: new Map() }));
	return run;
}

const requestKey = (options: IHttpRequestOptions, item: number) =>
	JSON.stringify([item, options.method, options.baseURL, options.url, options.qs]);

/** The 2xx answer an earlier try of this node run got for this write of this item; for one whose outcome was unknown, the record `rule` proves it made. */
export async function answeredBefore(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	item: number,
	rule: WriteRule,
): Promise<IN8nHttpFullResponse | undefined> {
	// a tool call's writes are never remembered (sendWrite)
	const earlier = runs.get(ctx.getExecuteData())?.memory.get(requestKey(options, item));
	const answer = await earlier?.answer.catch(() => undefined);
	const sent = earlier?.unknown;
	if (answer || !sent) return answer;
	const proof = await rule.prove(ctx, sent, item, runOf(ctx).ids).catch((error: Error) => {
		throw mayExist(ctx, sent, item, error);
	});
	return typeof proof === 'object' ? answerOf(proof) : undefined;
}

const answerOf = (record: IDataObject): IN8nHttpFullResponse => ({
	body: { data: record },
	headers: {},
	statusCode: 200,
	statusMessage: 'OK',
});

/** A write, sent at most once per node run (ARCHITECTURE.md, "the write memory"). Tries waiting on one write act on it once: the first installs the next attempt, the others await that. */
export async function sendWrite(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	item: number,
	rule: WriteRule,
): Promise<IN8nHttpFullResponse> {
	if (runsAsTool(ctx.getNode())) return await sendRequest(ctx, options, item);
	const run = runOf(ctx);
	const key = requestKey(options, item);
	const earlier = run.memory.get(key);
	let answer = earlier && (await earlier.answer.catch(() => undefined));
	if (!answer && earlier && run.memory.get(key) !== earlier)
		return await sendWrite(ctx, options, item, rule);
	if (!answer) {
		const entry = { unknown: earlier?.unknown } as Remembered;
		entry.answer = proveOrSend(ctx, options, item, rule, entry);
		if (run.memory.size < REMEMBERED || earlier) run.memory.set(key, entry);
		answer = await entry.answer;
	}
	run.ids.set(item, String(recordsOf(answer.body)[0]?.id ?? ''));
	return answer;
}

async function proveOrSend(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	item: number,
	rule: WriteRule,
	entry: Remembered,
): Promise<IN8nHttpFullResponse> {
	// by what that write sent: an expression ($now) may give this try another body
	const sent = entry.unknown;
	if (sent) {
		const proof = await rule.prove(ctx, sent, item, runOf(ctx).ids).catch((error: Error) => {
			// the next try proves again; until then the item says the write may have been made
			throw mayExist(ctx, sent, item, error);
		});
		if (proof === 'unfindable') throw mayExist(ctx, sent, item);
		if (proof !== 'absent') return answerOf(proof);
	}
	return await sendRequest(ctx, options, item).catch((error: Error) => {
		entry.unknown = mayHaveWritten(error) ? options : undefined;
		throw error;
	});
}

/** A write whose earlier answer never came, and which the API offers no way to find (or `checking` failed): not sent again. */
function mayExist(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	item: number,
	checking?: Error & { description?: string | null },
) {
	const sent = Object.entries((options.body as IDataObject | undefined) ?? {}).map(
		([name, value]) =>
			`${name}: ${Array.isArray(value) ? value.length : typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
	);
	const why = checking
		? `checking for it failed: ${checking.message.replace(/ \[item \d+\]$/, '')}`
		: 'the API offers no way to find it by what was sent';
	return new NodeOperationError(
		ctx.getNode(),
		`Not sent again: ${options.method} ${options.url} may have been ${checking ? 'made' : 'created'} by an earlier try, whose answer never came; ${why} [item ${item}]`,
		{
			itemIndex: item,
			description: `The API may have stored it (${sent.join(', ')}). ${checking?.description ? `${checking.description} ` : ''}Look for it in the Business Ops dashboard or with Get Many: if it is there, remove this item from the input; if not, run the workflow again. Retry On Fail does not send it again blind, so that it is never made twice.`,
		},
	);
}

const STOPS = 'with On Error set to "Stop Workflow", no later item is sent once one fails.';
const listed = (items: Array<number | string>) =>
	items.slice(0, 20).join(', ') + (items.length > 20 ? ` and ${items.length - 20} more` : '');

/** Worded once its try has no item in flight: RoutingNode throws it only after every item settled (ARCHITECTURE.md, What the package relies on). */
function describeStop(
	{ error, said, rule }: NonNullable<Try['failed']>,
	notSent: number[],
	ids: Map<number, string>,
) {
	const count = notSent.length;
	const stopped =
		count === 0
			? ''
			: `${count === 1 ? 'Item' : 'Items'} ${listed(notSent)} ${count === 1 ? 'was' : 'were'} not sent: ${STOPS}`;
	const written = [...ids].sort(([a], [b]) => a - b);
	const [one, it] =
		written.length === 1 ? [`item ${written[0][0]}`, 'it'] : ['these items', 'them'];
	const again =
		written.length === 0
			? count > 0
				? 'To try every item, set On Error to "Continue".'
				: ''
			: `Already written by this run: ${listed(written.map(([before, id]) => `item ${before}${id ? ` (${id})` : ''}`))}. Running the workflow again (a manual run, or Retry in the Executions list) is a new run: it sends ${one} again (${rule.again}), unless you remove ${it} from the input${rule.instead ?? ''}.`;
	error.description = [said, stopped, again].filter(Boolean).join(' ');
}

/** One item's write by its rule, in item order under Stop Workflow (under every On Error with its own sender); `refused`: the item's input was refused. */
export async function writeInOrder(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	rule: WriteRule,
	refused?: Error,
): Promise<Sent> {
	const item = ctx.getItemIndex();
	const stops = !ctx.continueOnFail();
	// a tool call is one item, and every call of an agent's run shares the agent's execute data
	if (runsAsTool(ctx.getNode()) || !(rule.send || stops))
		return await write(ctx, options, rule, {}, refused);
	const run = runOf(ctx);
	// n8n builds each item once per try: an item seen again begins the next try, and so does one not above
	// every item of a try with nothing in flight (n8n starts a try once the last settled)
	const last = run.try;
	if (last.items.has(item) || (last.inFlight === 0 && item <= Math.max(-1, ...last.items.keys())))
		run.try = new Try();
	const t = run.try;
	const turn = ctx.helpers.createDeferredPromise();
	t.items.set(item, turn.promise);
	t.inFlight++;
	try {
		// every item RoutingNode built has reached the hook once the event loop turns (ARCHITECTURE.md)
		await sleep(0);
		let before = item - 1;
		while (before >= 0 && !t.items.has(before)) before--;
		await t.items.get(before);
		if (stops && t.failed && t.failed.item < item) {
			t.notSent.push(item);
			throw new NodeOperationError(
				ctx.getNode(),
				`Not sent because item ${t.failed.item} failed before it [item ${item}]`,
				{
					itemIndex: item,
					description: `Item ${item} was not sent: ${STOPS}`,
				},
			);
		}
		return await write(ctx, options, rule, t, refused).catch(
			(error: NonNullable<Try['failed']>['error']) => {
				if (stops && !t.failed) t.failed = { item, error, said: error.description ?? '', rule };
				throw error;
			},
		);
	} finally {
		if (--t.inFlight === 0 && t.failed) describeStop(t.failed, t.notSent, run.ids);
		turn.resolve();
	}
}

/** The write itself: by the rule's own sender (`thisTry`: one object per try), or sent at most once per node run. */
async function write(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	rule: WriteRule,
	thisTry: object,
	refused?: Error,
): Promise<Sent> {
	if (refused) throw refused;
	const item = ctx.getItemIndex();
	if (rule.send) return await rule.send(ctx, options, item, thisTry);
	const response = await sendWrite(ctx, options, item, rule);
	if (options.method !== 'DELETE') return { records: recordsOf(response.body), response };
	const id = (response.body as { data?: IDataObject } | undefined)?.data?.id ?? idOf(options);
	return { records: [{ deleted: true, id }], response };
}
