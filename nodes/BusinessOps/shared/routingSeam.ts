/**
 * The seam between n8n's RoutingNode and the package's API client: every item's request arrives here
 * (`requestOperations.pagination`), is sent in item order and unwrapped. See ARCHITECTURE.md, "Routing seam".
 */
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
} from 'n8n-workflow';
import { ApplicationError, NodeOperationError } from 'n8n-workflow';

import { recordsOf } from '../../shared/api/envelope';
import { runsAsTool, TOOL_TELL_USER, toolError, toolNothingToChange } from '../../shared/api/toolErrors';
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

function lastPathSegment(url: string | undefined): string {
	return decodeURIComponent((url ?? '').split('?')[0].split('/').filter(Boolean).pop() ?? '');
}

/** The items of a single-record answer; a DELETE answers with what was deleted. */
function itemsOf(body: unknown, options: IHttpRequestOptions): IDataObject[] {
	if (options.method === 'DELETE') {
		const data = (body as { data?: IDataObject } | undefined)?.data;
		return [{ deleted: true, id: data?.id ?? lastPathSegment(options.url) }];
	}
	return recordsOf(body);
}

/** The value n8n gives the "Custom API Call" entry it adds to the Resource and Operation lists. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** "Custom API Call" has no request of its own in a declarative node: say where it lives. */
function refuseCustomApiCall(ctx: IExecutePaginationFunctions, itemIndex: number) {
	const chosen = ['resource', 'operation'].some((name) => ctx.getNodeParameter(name, '') === CUSTOM_API_CALL);
	if (!chosen) return;
	if (runsAsTool(ctx.getNode())) {
		throw toolError(ctx.getNode(), 'This tool is set up with "Custom API Call", which it cannot run', `${TOOL_TELL_USER} Nothing was sent.`);
	}
	throw new NodeOperationError(ctx.getNode(), `Custom API Call runs in the HTTP Request node [item ${itemIndex}]`, {
		itemIndex,
		description:
			'Add an HTTP Request node, set Authentication to "Predefined Credential Type" and Credential Type to "Business Ops API": it sends any method and path of the API with this credential\'s key. Nothing was sent from this node.',
	});
}

/** A PATCH with nothing in it would change nothing: say what to add instead of sending it. */
function refuseEmptyUpdate(ctx: IExecutePaginationFunctions, options: IHttpRequestOptions) {
	const body = options.body as IDataObject | undefined;
	if (options.method !== 'PATCH' || Object.keys(body ?? {}).length > 0) return;
	if (runsAsTool(ctx.getNode())) {
		throw toolNothingToChange(ctx.getNode());
	}
	throw invalidInput(
		ctx,
		'Update Fields',
		'no field to change was added; add at least one',
		'Fields whose value is empty or resolves to nothing are not sent. ',
	);
}

/**
 * One item of an operation that is more than one request (Contact → Create or Update); `memo` is what
 * the try keeps for it. Its items go in item order under every On Error setting.
 */
export type ItemSender = (
	ctx: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	itemIndex: number,
	memo: Map<string, unknown>,
) => Promise<{ records: IDataObject[]; response: IN8nHttpFullResponse }>;

/** How the seam sends an item: one request, a list read in full, or an ItemSender. */
type How = 'single' | 'list' | ItemSender;

async function route(
	ctx: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	how: How,
	memo: Map<string, unknown>,
): Promise<INodeExecutionData[]> {
	const options = requestData.options as IHttpRequestOptions;
	const itemIndex = ctx.getItemIndex();
	const refused = refusalOf(options);
	if (refused) throw refused;
	refuseCustomApiCall(ctx, itemIndex);
	let records: IDataObject[];
	let response: IN8nHttpFullResponse;
	if (how === 'list') {
		const maxResults = listLimit(ctx);
		({ records, last: response } = await readList(ctx, options, { itemIndex, maxResults }));
		records = records.slice(0, maxResults);
	} else if (how === 'single') {
		refuseEmptyUpdate(ctx, options);
		response = await sendWrite(ctx, options, itemIndex);
		records = itemsOf(response.body, options);
	} else {
		({ records, response } = await how(ctx, options, itemIndex, memo));
	}

	const pairedItem = { item: itemIndex };
	let items: INodeExecutionData[] = records.map((json) => ({ json, pairedItem }));
	for (const { actions } of requestData.postReceive) {
		for (const action of actions) {
			if (typeof action !== 'function') {
				throw new ApplicationError(
					'Business Ops operations declare postReceive steps as functions: the envelope is unwrapped by the routing seam',
				);
			}
			items = await action.call(ctx, items, response);
		}
	}
	noteDeprecation(ctx, response);
	// Every record of input item i is paired with i, whatever a postReceive step returned.
	return items.map((item) => (item.pairedItem === undefined ? { ...item, pairedItem } : item));
}

/**
 * With "Continue" a failed item becomes `{ error: message }` paired with its input item. Under
 * "Continue (using error output)" it carries no error object: n8n (1.123 and 2.x) merges the paired
 * input item's fields into such an item, but replaces the fields of an item that has an error object
 * with `{ error }` alone. On the regular output n8n gives `{ error }` either way, so the error object
 * (description, HTTP code) is kept there.
 */
function errorItem(ctx: IExecutePaginationFunctions, error: Error): INodeExecutionData {
	const item: INodeExecutionData = { json: { error: error.message }, pairedItem: { item: ctx.getItemIndex() } };
	return ctx.getNode().onError === 'continueErrorOutput' ? item : { ...item, error: error as NodeApiError };
}

/** One item through the seam: sent in item order; under "Continue" a failure is its error item. */
async function routed(ctx: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions, how: How) {
	const sent = inItemOrder(ctx, requestData.options as IHttpRequestOptions, async (memo) => await route(ctx, requestData, how, memo), typeof how === 'function');
	return ctx.continueOnFail() ? await sent.catch((error: Error) => [errorItem(ctx, error)]) : await sent;
}

/** `requestOperations.pagination` of the node: sends one item's request and unwraps its record. */
export async function executeRoutedRequest(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	return await routed(this, requestData, 'single');
}

/** The routing of an operation that reads a list (GET `url`): the seam reads its pages. */
export function listRouting(url: string, extra: { qs?: IDataObject } = {}): INodePropertyRouting {
	return {
		request: { method: 'GET', url, ...extra },
		operations: { pagination: async function (this: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions) {
			return await routed(this, requestData, 'list');
		} },
	};
}

/**
 * The routing of an operation whose item is sent by `sender` (see ItemSender); `request` is what
 * RoutingNode builds the item's request from (the fields fill its body).
 */
export function senderRouting(request: { method: IHttpRequestMethods; url: string }, sender: ItemSender): INodePropertyRouting {
	return {
		request,
		operations: {
			async pagination(this: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions) {
				return await routed(this, requestData, sender);
			},
		},
	};
}
