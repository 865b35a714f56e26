/** Where RoutingNode hands every item's request: sent in item order, unwrapped. See ARCHITECTURE.md, "The path of one request". */
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodePropertyRouting,
	NodeApiError,
	PostReceiveAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { recordsOf } from '../../shared/api/envelope';
import {
	runsAsTool,
	TOOL_TELL_USER,
	toolError,
	toolNothingToChange,
} from '../../shared/api/toolErrors';
import { BoundedMap } from '../../shared/boundedMap';
import { readList } from '../../shared/api/pages';
import { deprecationNoticeOf } from '../../shared/api/transport';
import { refusalOf } from './fields';
import { listLimit } from './getMany';
import { inItemOrder, sendWrite } from './itemOrder';
import { invalidInput } from './validation';

/** Executions that were already told about a deprecation (bounded: oldest forgotten first). */
const toldExecutions = new BoundedMap<string, true>(1000);

/** Execution custom data key of the notice (letters, digits and _ only). */
export const DEPRECATION_DATA_KEY = 'businessOpsDeprecation';

/**
 * n8n 2.41 and 1.123 drop execution hints of declarative nodes (RoutingNode's context never
 * reaches the task data), so the notice goes where the user can find it, once per execution:
 * the server log and the execution's custom data (n8n 2.x: Executions list, `$execution.customData`).
 * The records are never changed: editor and production runs give the same output.
 */
function noteDeprecation(ctx: IExecutePaginationFunctions, response: IN8nHttpFullResponse) {
	const notice = deprecationNoticeOf(response);
	const executionId = String(ctx.getExecutionId() ?? '');
	if (!notice || toldExecutions.has(executionId)) return;
	toldExecutions.set(executionId, true);
	ctx.logger.warn(`Business Ops: ${notice}`);
	try {
		ctx.customData.set(DEPRECATION_DATA_KEY, notice);
	} catch {
		// Custom data is full (n8n keeps 10 keys) or missing (n8n 1.123 gives this context none):
		// the log still says it.
	}
}

/** How an item is sent: its records and the answer they came from; `kept` is what its try keeps (see inItemOrder). */
export type ItemSender = (
	ctx: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	itemIndex: number,
	kept: Record<string, unknown>,
) => Promise<{ records: IDataObject[]; response: IN8nHttpFullResponse }>;

/** One request; a DELETE answers with what was deleted. */
const sendOne: ItemSender = async (ctx, options, itemIndex) => {
	const response = await sendWrite(ctx, options, itemIndex);
	if (options.method !== 'DELETE') return { records: recordsOf(response.body), response };
	const id =
		(response.body as { data?: IDataObject } | undefined)?.data?.id ??
		decodeURIComponent(options.url.split('?')[0].split('/').filter(Boolean).pop() ?? '');
	return { records: [{ deleted: true, id }], response };
};

/** A list, read in full or up to the item's Limit. */
const readAll: ItemSender = async (ctx, options, itemIndex) => {
	const maxResults = listLimit(ctx);
	const { records, last } = await readList(ctx, options, {
		itemIndex,
		maxResults,
		untilWhole: true,
	});
	return { records: records.slice(0, maxResults), response: last };
};

/**
 * "Custom API Call" (the entry n8n adds to the Resource and Operation lists) has no request of its
 * own in a declarative node: say where it lives. A PATCH with nothing in it would change nothing.
 */
function refuseUnsendable(
	ctx: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	itemIndex: number,
) {
	const tool = runsAsTool(ctx.getNode());
	if (
		['resource', 'operation'].some(
			(name) => ctx.getNodeParameter(name, '') === '__CUSTOM_API_CALL__',
		)
	) {
		if (tool)
			throw toolError(
				ctx.getNode(),
				'This tool is set up with "Custom API Call", which it cannot run',
				`${TOOL_TELL_USER} Nothing was sent.`,
			);
		throw new NodeOperationError(
			ctx.getNode(),
			`Custom API Call runs in the HTTP Request node [item ${itemIndex}]`,
			{
				itemIndex,
				description:
					'Add an HTTP Request node, set Authentication to "Predefined Credential Type" and Credential Type to "Business Ops API": it sends any method and path of the API with this credential\'s key. Nothing was sent from this node.',
			},
		);
	}
	if (
		options.method !== 'PATCH' ||
		Object.keys((options.body as IDataObject | undefined) ?? {}).length > 0
	)
		return;
	if (tool) throw toolNothingToChange(ctx.getNode());
	throw invalidInput(
		ctx,
		'Update Fields',
		'no field to change was added; add at least one',
		'Fields whose value is empty or resolves to nothing are not sent. ',
	);
}

/**
 * With "Continue" a failed item becomes `{ error: message }` paired with its input item. Under
 * "Continue (using error output)" it carries no error object: n8n (1.123 and 2.x) merges the paired
 * input item's fields into such an item, but replaces the fields of an item that has an error object
 * with `{ error }` alone. On the regular output n8n gives `{ error }` either way, so the error object
 * (description, HTTP code) is kept there.
 */
function errorItem(ctx: IExecutePaginationFunctions, error: Error): INodeExecutionData {
	const item: INodeExecutionData = {
		json: { error: error.message },
		pairedItem: { item: ctx.getItemIndex() },
	};
	return ctx.getNode().onError === 'continueErrorOutput'
		? item
		: { ...item, error: error as NodeApiError };
}

/** The seam's hook for `send`: one item, sent in item order (with `always`, under every On Error); under "Continue" a failure is its error item. */
function routed(send: ItemSender, always = false) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const options = requestData.options as IHttpRequestOptions;
		const itemIndex = this.getItemIndex();
		const sent = inItemOrder(
			this,
			options,
			async (kept) => {
				const refused = refusalOf(options);
				if (refused) throw refused;
				refuseUnsendable(this, options, itemIndex);
				const { records, response } = await send(this, options, itemIndex, kept);
				const pairedItem = { item: itemIndex };
				let items: INodeExecutionData[] = records.map((json) => ({ json, pairedItem }));
				// every postReceive step is a function (pinned in routingSeam.test.ts): the envelope is unwrapped here
				for (const action of requestData.postReceive.flatMap(({ actions }) => actions) as Array<
					Extract<PostReceiveAction, (...args: never[]) => unknown>
				>) {
					items = await action.call(this, items, response);
				}
				noteDeprecation(this, response);
				// Every record of input item i is paired with i, whatever a postReceive step returned.
				return items.map((item) =>
					item.pairedItem === undefined ? { ...item, pairedItem } : item,
				);
			},
			always,
		);
		return this.continueOnFail()
			? await sent.catch((error: Error) => [errorItem(this, error)])
			: await sent;
	};
}

/** `requestOperations.pagination` of the node: sends one item's request and unwraps its record. */
export const executeRoutedRequest = routed(sendOne);

/** The routing of an operation that reads a list (GET `url`): the seam reads its pages. */
export function listRouting(url: string, extra: { qs?: IDataObject } = {}): INodePropertyRouting {
	return { request: { method: 'GET', url, ...extra }, operations: { pagination: routed(readAll) } };
}

/** The routing of an operation of more than one request (Create or Update): `sender` sends each item, in item order under every On Error. */
export function senderRouting(
	request: { method: IHttpRequestMethods; url: string },
	sender: ItemSender,
): INodePropertyRouting {
	return { request, operations: { pagination: routed(sender, true) } };
}
