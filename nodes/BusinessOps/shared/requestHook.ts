/** The node's request hook: where RoutingNode hands every item's request. See ARCHITECTURE.md, "The path of one request". */
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
import { deprecationNoticeOf, sendRequest } from '../../shared/api/transport';
import { refusalOf } from './fields';
import { listLimit } from './getMany';
import { creates, type Sent, writeInOrder, type WriteRule } from './itemOrder';
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

/** A list, read in full or up to the item's Limit. */
async function readWholeList(
	ctx: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	itemIndex: number,
): Promise<Sent> {
	const maxResults = listLimit(ctx);
	const { records, last } = await readList(ctx, options, {
		itemIndex,
		maxResults,
		untilWhole: true,
	});
	return { records: records.slice(0, maxResults), response: last };
}

/**
 * "Custom API Call" (the entry n8n adds to the Resource and Operation lists) has no request of its
 * own in a declarative node: say where it lives. A PATCH with nothing in it would change nothing.
 */
function unsendable(
	ctx: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	itemIndex: number,
): Error | undefined {
	const tool = runsAsTool(ctx.getNode());
	if (
		['resource', 'operation'].some(
			(name) => ctx.getNodeParameter(name, '') === '__CUSTOM_API_CALL__',
		)
	) {
		if (tool)
			return toolError(
				ctx.getNode(),
				'This tool is set up with "Custom API Call", which it cannot run',
				`${TOOL_TELL_USER} Nothing was sent.`,
			);
		return new NodeOperationError(
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
		return undefined;
	if (tool) return toolNothingToChange(ctx.getNode());
	try {
		throw invalidInput(
			ctx,
			'Update Fields',
			'no field to change was added; add at least one',
			'Fields whose value is empty or resolves to nothing are not sent. ',
		);
	} catch (error) {
		return error as Error;
	}
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

/**
 * The node's hook for every item's request (`requestOperations.pagination`): a write goes by its rule
 * through the item order, a list is read whole, a record read once; the records become its items.
 */
function routed(rule?: WriteRule, list = false) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const options = requestData.options as IHttpRequestOptions;
		const itemIndex = this.getItemIndex();
		const refused = refusalOf(options) ?? unsendable(this, options, itemIndex);
		const send = async (): Promise<Sent> => {
			// a write declared without a rule is never sent again blind (as a create)
			if (rule ?? options.method !== 'GET')
				return await writeInOrder(this, options, rule ?? creates(), refused);
			if (refused) throw refused;
			if (list) return await readWholeList(this, options, itemIndex);
			const response = await sendRequest(this, options, itemIndex);
			return { records: recordsOf(response.body), response };
		};
		const sent = send().then(async ({ records, response }) => {
			const pairedItem = { item: itemIndex };
			let items: INodeExecutionData[] = records.map((json) => ({ json, pairedItem }));
			// every postReceive step is a function (pinned in requestHook.test.ts): the envelope is unwrapped here
			for (const action of requestData.postReceive.flatMap(({ actions }) => actions) as Array<
				Extract<PostReceiveAction, (...args: never[]) => unknown>
			>) {
				items = await action.call(this, items, response);
			}
			noteDeprecation(this, response);
			// Every record of input item i is paired with i, whatever a postReceive step returned.
			return items.map((item) => (item.pairedItem === undefined ? { ...item, pairedItem } : item));
		});
		return this.continueOnFail()
			? await sent.catch((error: Error) => [errorItem(this, error)])
			: await sent;
	};
}

/** `requestOperations.pagination` of the node: reads one record. */
export const executeRoutedRequest = routed();

/** The routing of an operation that reads a list (GET `url`): the hook reads its pages. */
export function listRouting(url: string, extra: { qs?: IDataObject } = {}): INodePropertyRouting {
	return {
		request: { method: 'GET', url, ...extra },
		operations: { pagination: routed(undefined, true) },
	};
}

/** The routing of a write: its request, and what a repeat of it does (`creates`, `changes`, `deletes` in itemOrder.ts). */
export function writeRouting(
	request: { method: IHttpRequestMethods; url: string; body?: IDataObject },
	rule: WriteRule,
): INodePropertyRouting {
	return { request, operations: { pagination: routed(rule) } };
}
