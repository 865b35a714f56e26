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
import { runsAsTool, toolCustomApiCall, toolNothingToChange } from '../../shared/api/toolErrors';
import { BoundedMap } from '../../shared/boundedMap';
import { readList } from '../../shared/api/pages';
import { sendRequest } from '../../shared/api/transport';
import { refusalOf } from './fields';
import { listLimit } from './getMany';
import { creates, type Sent, writeInOrder, type WriteRule } from './itemOrder';
import { invalidInput } from './validation';

const toldExecutions = new BoundedMap<string, true>(1000);

/** Execution custom data key of the notice (letters, digits and _ only). */
export const DEPRECATION_DATA_KEY = 'businessOpsDeprecation';

/**
 * A `Deprecation` (and `Sunset`) answer header, told once per execution, to the server log and the execution's custom data: n8n drops execution hints of
 * declarative nodes (ARCHITECTURE.md, What the package relies on). The records are never changed.
 */
function noteDeprecation(ctx: IExecutePaginationFunctions, { headers }: IN8nHttpFullResponse) {
	const executionId = String(ctx.getExecutionId() ?? '');
	if (toldExecutions.has(executionId)) return;
	toldExecutions.set(executionId, true);
	const notice = `This version of the Business Ops API is deprecated (Deprecation: ${String(headers.deprecation)}).${headers.sunset ? ` It stops working after ${String(headers.sunset)}.` : ''} Move the credential's Base URL to the newer version when it is available.`;
	ctx.logger.warn(`Business Ops: ${notice}`);
	try {
		ctx.customData.set(DEPRECATION_DATA_KEY, notice);
	} catch {
		// Custom data is full (n8n keeps 10 keys) or missing (n8n 1.123 gives this context none):
		// the log still says it.
	}
}

/** "Custom API Call": the entry n8n adds to the Resource and Operation lists. */
const isCustomApiCall = (ctx: IExecutePaginationFunctions) =>
	['resource', 'operation'].some(
		(name) => ctx.getNodeParameter(name, '') === '__CUSTOM_API_CALL__',
	);

/** A declarative node has no request of its own for "Custom API Call": say where it lives. */
function customApiCall(ctx: IExecutePaginationFunctions, itemIndex: number): Error {
	if (runsAsTool(ctx.getNode())) return toolCustomApiCall(ctx.getNode());
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

/** A PATCH with nothing in it would change nothing. */
const isEmptyUpdate = (options: IHttpRequestOptions) =>
	options.method === 'PATCH' && Object.keys(options.body ?? {}).length === 0;

function nothingToChange(ctx: IExecutePaginationFunctions): Error {
	if (runsAsTool(ctx.getNode())) return toolNothingToChange(ctx.getNode());
	return invalidInput(
		ctx,
		'Update Fields',
		'no field to change was added; add at least one',
		'Fields whose value is empty or resolves to nothing are not sent. ',
	);
}

/** The hook RoutingNode calls for every item's request (`requestOperations.pagination`). */
function routed(rule?: WriteRule, list = false) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const options = requestData.options as IHttpRequestOptions;
		const itemIndex = this.getItemIndex();
		const pairedItem = { item: itemIndex };
		const refused =
			refusalOf(options) ??
			(isCustomApiCall(this) ? customApiCall(this, itemIndex) : undefined) ??
			(isEmptyUpdate(options) ? nothingToChange(this) : undefined);
		const itemsOf = async (): Promise<INodeExecutionData[]> => {
			let sent: Sent;
			// a write declared without a rule is never sent again blind (as a create)
			if (rule ?? (options.method ?? 'GET') !== 'GET')
				sent = await writeInOrder(this, options, rule ?? creates(), refused);
			else if (refused) throw refused;
			else if (list) {
				const maxResults = listLimit(this);
				const read = await readList(this, options, { itemIndex, maxResults, untilWhole: true });
				sent = { records: read.records.slice(0, maxResults), response: read.last };
			} else {
				const response = await sendRequest(this, options, itemIndex);
				sent = { records: recordsOf(response.body), response };
			}
			let items: INodeExecutionData[] = sent.records.map((json) => ({ json, pairedItem }));
			// every postReceive step is a function (pinned in requestHook.test.ts): the envelope is unwrapped here
			for (const action of requestData.postReceive.flatMap(({ actions }) => actions) as Array<
				Extract<PostReceiveAction, (...args: never[]) => unknown>
			>) {
				items = await action.call(this, items, sent.response);
			}
			if (sent.response.headers?.deprecation !== undefined) noteDeprecation(this, sent.response);
			// Every record of input item i is paired with i, whatever a postReceive step returned.
			return items.map((item) => (item.pairedItem === undefined ? { ...item, pairedItem } : item));
		};
		if (!this.continueOnFail()) return await itemsOf();
		return await itemsOf().catch((error: Error) => {
			// on the error output without the error object, or n8n would not merge the input item's fields into it
			const kept =
				this.getNode().onError === 'continueErrorOutput' ? {} : { error: error as NodeApiError };
			return [{ json: { error: error.message }, pairedItem, ...kept }];
		});
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
