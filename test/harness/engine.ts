/**
 * Runs this package's nodes through n8n-core's real engine: RoutingNode with an
 * ExecuteContext for the declarative node, LoadOptionsContext for list searches,
 * HookContext / WebhookContext for the trigger, and the credential test the way
 * n8n's CredentialsTester runs it. Credentials are applied the way n8n's
 * CredentialsHelper applies a credential type's `authenticate`.
 */
import {
	DirectoryLoader,
	ExecuteContext,
	HookContext,
	LoadOptionsContext,
	RoutingNode,
	WebhookContext,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsDecrypted,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IRunExecutionData,
	ITaskDataConnections,
	IVersionedNodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, Workflow, createRunExecutionData, isExpression } from 'n8n-workflow';

import { BusinessOpsApi } from '../../credentials/BusinessOpsApi.credentials';
import { harnessClock } from './clock';
import { settleRequests, track } from './inFlight';

export const CREDENTIAL_TYPE = 'businessOpsApi';
export const TEST_BASE_URL = 'https://api.business-ops.test/v1';
export const TEST_API_KEY = 'svc_' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';

export const credentialTypes: Record<string, ICredentialType> = {
	[CREDENTIAL_TYPE]: new BusinessOpsApi(),
};

/** Mirrors n8n's CredentialsHelper for the parts a node execution uses. */
class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly store: Map<string, ICredentialDataDecryptedObject>) {
		super();
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const credentialType = credentialTypes[typeName];
		const { authenticate } = credentialType;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}
		if (authenticate?.type === 'generic' && workflow && node) {
			requestOptions.headers ??= {};
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as IDataObject)) {
					const resolve = (v: string) =>
						isExpression(v)
							? String(
									workflow.expression.getSimpleParameterValue(
										node,
										v,
										'internal',
										{ $credentials: credentials },
										undefined,
										'',
									) ?? '',
								)
							: v;
					const target = requestOptions as unknown as Record<string, IDataObject>;
					target[outerKey] ??= {};
					target[outerKey][resolve(key)] = resolve(String(value));
				}
			}
		}
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store.get(nodeCredentials.id ?? '');
		if (!data) throw new Error(`No credentials stored for id ${nodeCredentials.id}`);
		return { ...data };
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by these tests');
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string) {
		return credentialTypes[type].properties;
	}
}

export interface EngineOptions {
	credentials?: ICredentialDataDecryptedObject | null;
	/** The execution's id (what the node keeps once-per-execution state by); 'test-execution' if not given. */
	executionId?: string;
	webhookBaseUrl?: string;
	/** Run as n8n's tool copy of the node (type `…Tool`), as an AI agent or MCP client calls it. */
	asTool?: boolean;
}

function makeAdditionalData(options: EngineOptions): IWorkflowExecuteAdditionalData {
	const store = new Map<string, ICredentialDataDecryptedObject>();
	if (options.credentials !== null) {
		store.set('cred-1', options.credentials ?? { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL });
	}
	const webhookBaseUrl = options.webhookBaseUrl ?? 'https://n8n.example.test/';
	return {
		credentialsHelper: new TestCredentialsHelper(store),
		executionId: options.executionId ?? 'test-execution',
		restApiUrl: 'https://n8n.example.test/rest',
		instanceBaseUrl: webhookBaseUrl,
		formWaitingBaseUrl: `${webhookBaseUrl}form-waiting`,
		webhookBaseUrl: `${webhookBaseUrl}webhook`,
		webhookWaitingBaseUrl: `${webhookBaseUrl}webhook-waiting`,
		webhookTestBaseUrl: `${webhookBaseUrl}webhook-test`,
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'test-user',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** Applies what n8n's loader adds to a node type (the Request Options of declarative nodes). */
export function loadNodeType<T extends INodeType>(nodeType: T): T {
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
	return nodeType;
}

function nodeTypesFor(nodeType: INodeType): INodeTypes {
	return {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
}

export interface TestNode {
	node: INode;
	workflow: Workflow;
	additionalData: IWorkflowExecuteAdditionalData;
}

export function createTestNode(
	nodeType: INodeType | IVersionedNodeType,
	parameters: INodeParameters,
	options: EngineOptions & { staticData?: IDataObject; nodeName?: string } = {},
): TestNode {
	const type = nodeType as INodeType;
	const node: INode = {
		id: 'node-1',
		name: options.nodeName ?? type.description.defaults.name ?? type.description.displayName,
		type: `CUSTOM.${type.description.name}${options.asTool ? 'Tool' : ''}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Business Ops account' } },
	};
	const workflow = new Workflow({
		id: 'workflow-1',
		name: 'Test workflow',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: nodeTypesFor(type),
		staticData: options.staticData,
	});
	// n8n resolves node parameters against their declared defaults before running.
	node.parameters = resolveParameters(type, parameters, node);
	return { node, workflow, additionalData: makeAdditionalData(options) };
}

function resolveParameters(nodeType: INodeType, parameters: INodeParameters, node: INode) {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { NodeHelpers } = require('n8n-workflow') as typeof import('n8n-workflow');
	return (
		NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			parameters,
			true,
			false,
			node,
			nodeType.description,
		) ?? parameters
	);
}

export interface RunResult {
	items: INodeExecutionData[];
	context: ExecuteContext;
}

/**
 * RoutingNode's run of one try. Alone, it returns (or throws) only once every request it started
 * settled; given `requests`, it adds them there for its caller to await (Retry On Fail's next try
 * starts while the last try's requests may be on their way, as in n8n).
 */
export async function runRoutingNode(
	context: ExecuteContext,
	nodeType: INodeType,
	credentialsDecrypted?: ICredentialsDecrypted,
	requests?: Set<Promise<unknown>>,
) {
	const routingNode = new RoutingNode(context, nodeType, credentialsDecrypted);
	// makeRequest is what RoutingNode's build loop starts for each item (private in n8n-core's types)
	const node = routingNode as unknown as { makeRequest(...args: unknown[]): Promise<unknown> };
	const makeRequest = node.makeRequest.bind(routingNode);
	// this run's own: another run of the same test may wait on an answer this test holds back
	const mine = requests ?? new Set<Promise<unknown>>();
	node.makeRequest = (...args) => {
		const request = track(makeRequest(...args), mine);
		// an item RoutingNode left behind (a later item failed to build) rejects unawaited, as n8n logs it
		request.catch(() => {});
		return request;
	};
	try {
		return await routingNode.runNode();
	} finally {
		if (!requests) await settleRequests(mine);
	}
}

/** Runs a declarative node over the given input items, as n8n's WorkflowExecute does. */
export async function runDeclarativeNode(
	nodeType: INodeType,
	parameters: INodeParameters,
	options: EngineOptions & {
		items?: INodeExecutionData[];
		continueOnFail?: boolean;
		/** On Error; `continueOnFail: true` is "Continue" (regular output). */
		onError?: INode['onError'];
		mode?: WorkflowExecuteMode;
		credentialsDecrypted?: ICredentialsDecrypted;
		/** The execution's cancel signal (n8n aborts it when the execution is stopped). */
		abortSignal?: AbortSignal;
		/**
		 * With `asTool`: the model's arguments of each item, where n8n puts them for a tool's run (the
		 * run's `inputOverride`), so that `$fromAI` reads item i's own; without, it reads the first input item's.
		 */
		toolArguments?: IDataObject[];
	} = {},
): Promise<RunResult> {
	const { node, workflow, additionalData } = createTestNode(nodeType, parameters, options);
	if (options.continueOnFail) node.onError = 'continueRegularOutput';
	if (options.onError) node.onError = options.onError;
	const inputData: ITaskDataConnections = { main: [options.items ?? [{ json: {} }]] };
	const runExecutionData: IRunExecutionData = createRunExecutionData();
	if (options.toolArguments) {
		const inputOverride = { ai_tool: [options.toolArguments.map((json) => ({ json }))] };
		runExecutionData.resultData.runData[node.name] = [
			{ inputOverride, startTime: 0, executionTime: 0, executionIndex: 0, source: [] },
		];
	}
	const executeData: IExecuteData = { node, data: inputData, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		options.mode ?? 'manual',
		runExecutionData,
		0,
		inputData.main[0] ?? [],
		inputData,
		executeData,
		[],
		options.abortSignal,
	);
	const output = await runRoutingNode(context, nodeType, options.credentialsDecrypted);
	return { items: output?.[0] ?? [], context };
}

/**
 * Runs a declarative node with Retry On Fail as n8n's WorkflowExecute does: every try is a new
 * ExecuteContext and RoutingNode over the same execute data, until a try succeeds or `maxTries`
 * have failed. Returns each try's outcome.
 */
export async function runWithRetries(
	nodeType: INodeType,
	parameters: INodeParameters,
	options: EngineOptions & {
		items: INodeExecutionData[];
		maxTries: number;
		/** Wait Between Tries (n8n's default 1000 ms), on the harness clock. */
		waitBetweenTries?: number;
		/** On Error; under Continue, n8n runs the node again while its first output item is an error. */
		onError?: INode['onError'];
		/** What happens in the world before each try after the first (another client's change). */
		betweenTries?: () => void;
	},
): Promise<Array<{ items?: INodeExecutionData[]; error?: Error }>> {
	const { node, workflow, additionalData } = createTestNode(nodeType, parameters, options);
	if (options.onError) node.onError = options.onError;
	const continues = options.onError !== undefined && options.onError !== 'stopWorkflow';
	const inputData: ITaskDataConnections = { main: [options.items] };
	const runExecutionData: IRunExecutionData = createRunExecutionData();
	const executeData: IExecuteData = { node, data: inputData, source: null };
	const tries: Array<{ items?: INodeExecutionData[]; error?: Error }> = [];
	const requests = new Set<Promise<unknown>>();
	for (let tryIndex = 0; tryIndex < options.maxTries; tryIndex++) {
		if (tryIndex > 0 && options.waitBetweenTries)
			await harnessClock.sleep(options.waitBetweenTries);
		if (tryIndex > 0) options.betweenTries?.();
		const context = new ExecuteContext(
			workflow,
			node,
			additionalData,
			'trigger',
			runExecutionData,
			0,
			options.items,
			inputData,
			executeData,
			[],
		);
		try {
			const output = await runRoutingNode(context, nodeType, undefined, requests);
			tries.push({ items: output?.[0] ?? [] });
			if (!continues || !output?.[0]?.[0]?.json?.error) break;
		} catch (error) {
			tries.push({ error: error as Error });
		}
	}
	await settleRequests(requests);
	return tries;
}

/** Runs a credential test the way n8n's CredentialsTester does for a `test.request`. */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const credentialType = credentialTypes[CREDENTIAL_TYPE];
	const testRequest = credentialType.test!;
	const mockNodeType: INodeType = {
		description: {
			displayName: 'No Operation',
			name: 'noOp',
			group: ['organization'],
			version: 1,
			description: '',
			defaults: { name: 'No Operation' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	} as INodeType;
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: 'cred-1',
		name: 'Business Ops account',
		type: CREDENTIAL_TYPE,
		data,
	};
	let items: INodeExecutionData[];
	try {
		({ items } = await runDeclarativeNode(
			mockNodeType,
			{},
			{ credentials: null, mode: 'internal', credentialsDecrypted },
		));
	} catch (error) {
		const cause = (error as { cause?: { response?: { status: number; statusText?: string } } })
			.cause;
		if (cause?.response) {
			const rule = testRequest.rules?.find(
				(r) => r.type === 'responseCode' && r.properties.value === cause.response?.status,
			);
			if (rule) return { status: 'Error', message: rule.properties.message };
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}`,
			};
		}
		return { status: 'Error', message: String((error as Error).message) };
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		// n8n: lodash `get(response[0][0].json, key) === value`
		const found = rule.properties.key
			.split('.')
			.reduce<unknown>(
				(at: unknown, key: string) =>
					at !== null && typeof at === 'object' ? (at as IDataObject)[key] : undefined,
				items[0]?.json,
			);
		if (found === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/** Calls a `methods.listSearch` function with the node's current parameters. */
export async function runListSearch(
	nodeType: INodeType,
	methodName: string,
	parameters: INodeParameters,
	filter?: string,
	paginationToken?: string,
	options: EngineOptions = {},
): Promise<INodeListSearchResult> {
	const { node, workflow, additionalData } = createTestNode(nodeType, parameters, options);
	const context = new LoadOptionsContext(workflow, node, additionalData, '');
	const method = nodeType.methods?.listSearch?.[methodName];
	if (!method) throw new Error(`No listSearch method ${methodName}`);
	return await method.call(context, filter, paginationToken);
}

/** Calls a `methods.loadOptions` function with the node's current parameters. */
export async function runLoadOptions(
	nodeType: INodeType,
	methodName: string,
	parameters: INodeParameters,
	options: EngineOptions = {},
): Promise<INodePropertyOptions[]> {
	const { node, workflow, additionalData } = createTestNode(nodeType, parameters, options);
	const context = new LoadOptionsContext(workflow, node, additionalData, '');
	const method = nodeType.methods?.loadOptions?.[methodName];
	if (!method) throw new Error(`No loadOptions method ${methodName}`);
	return await method.call(context);
}

// ---------------------------------------------------------------------------------------------
// Triggers. The call sequences below are the ones n8n 2.41 makes (packages/cli):
// - activation (ActiveWorkflowManager.addWebhooks / WebhookTriggerRegistrar.register):
//   checkExists, then create when it answered false, both with mode 'trigger' and the
//   activation mode ('activate', 'init', 'update', ...), and a webhookData without isTest;
// - deactivation (deregisterWebhooks): delete with mode 'internal', activation 'update';
// - "listen for test event" (TestWebhooks.needsWebhook): checkExists/create with mode and
//   activation 'manual' and webhookData.isTest = true (so getNodeWebhookUrl gives the
//   /webhook-test/ URL); it ends (after the first execution, or on timeout/cancel) with
//   delete in mode 'internal', activation 'update', still with isTest = true;
// - a delivery runs webhook() in mode 'webhook' (production) or 'manual' (test URL).
// ---------------------------------------------------------------------------------------------

export const TEST_WEBHOOK_ID = 'webhook-uuid';

/** A trigger node as n8n stores it: with the webhookId its webhook URLs are built from. */
export function createTriggerNode(
	nodeType: INodeType,
	parameters: INodeParameters,
	options: EngineOptions & { staticData?: IDataObject; nodeName?: string; webhookId?: string } = {},
): TestNode {
	const testNode = createTestNode(nodeType, parameters, options);
	testNode.node.webhookId = options.webhookId ?? TEST_WEBHOOK_ID;
	return testNode;
}

export function webhookDataFor(
	testNode: TestNode,
	webhookId = testNode.node.webhookId ?? TEST_WEBHOOK_ID,
	isTest = false,
): IWebhookData {
	const { node, workflow, additionalData } = testNode;
	return {
		httpMethod: 'POST',
		node: node.name,
		path: `${webhookId}/webhook`,
		webhookDescription: { name: 'default', httpMethod: 'POST', path: 'webhook' },
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId,
		...(isTest ? { isTest: true } : {}),
	};
}

/** Calls one of the trigger's `webhookMethods.default` functions (checkExists, create, delete). */
export async function runWebhookMethod(
	nodeType: INodeType,
	testNode: TestNode,
	method: 'checkExists' | 'create' | 'delete',
	mode: WorkflowExecuteMode = 'trigger',
	activation: WorkflowActivateMode = 'activate',
	options: { isTest?: boolean } = {},
): Promise<boolean | undefined> {
	const { node, workflow, additionalData } = testNode;
	const context = new HookContext(
		workflow,
		node,
		additionalData,
		mode,
		activation,
		webhookDataFor(testNode, undefined, options.isTest ?? false),
	);
	const fn = nodeType.webhookMethods?.default?.[method];
	if (!fn) throw new Error(`No webhook method ${method}`);
	return await fn.call(context);
}

/** What n8n does on activation: checkExists, then create if that answered false. */
export async function activateTrigger(
	nodeType: INodeType,
	testNode: TestNode,
	activation: WorkflowActivateMode = 'activate',
): Promise<{ existed: boolean }> {
	const existed =
		(await runWebhookMethod(nodeType, testNode, 'checkExists', 'trigger', activation)) === true;
	if (!existed) await runWebhookMethod(nodeType, testNode, 'create', 'trigger', activation);
	return { existed };
}

/** What n8n does on deactivation. */
export async function deactivateTrigger(nodeType: INodeType, testNode: TestNode) {
	return await runWebhookMethod(nodeType, testNode, 'delete', 'internal', 'update');
}

/** What n8n does when the editor starts listening for a test event. */
export async function startTestListening(
	nodeType: INodeType,
	testNode: TestNode,
): Promise<{ existed: boolean }> {
	const opts = { isTest: true };
	const existed =
		(await runWebhookMethod(nodeType, testNode, 'checkExists', 'manual', 'manual', opts)) === true;
	if (!existed) await runWebhookMethod(nodeType, testNode, 'create', 'manual', 'manual', opts);
	return { existed };
}

/** What n8n does when test listening ends (after the first execution, a timeout or a cancel). */
export async function stopTestListening(nodeType: INodeType, testNode: TestNode) {
	return await runWebhookMethod(nodeType, testNode, 'delete', 'internal', 'update', {
		isTest: true,
	});
}

export interface FakeDelivery {
	headers: Record<string, string | string[]>;
	/** The bytes as received; leave out to simulate a request without `rawBody`. */
	rawBody?: Buffer;
	body?: unknown;
}

export interface WebhookRun {
	result: IWebhookResponseData;
	/** The status set through `res.status()`, when the node answered itself. */
	status: number | undefined;
	/** The payload passed to `res.json()` / `res.send()` / `res.end()`. */
	sent: unknown;
}

/**
 * Calls the trigger's `webhook()` with a request as n8n's webhook server hands it over
 * (lower-cased header names, `rawBody` as a Buffer, `body` parsed from it). Mode 'manual'
 * is a delivery to the test URL (webhookData.isTest), unless `isTest` says otherwise.
 */
export async function runWebhook(
	nodeType: INodeType,
	testNode: TestNode,
	delivery: FakeDelivery,
	mode: WorkflowExecuteMode = 'webhook',
	options: { isTest?: boolean } = {},
): Promise<WebhookRun> {
	const { node, workflow, additionalData } = testNode;
	let status: number | undefined;
	let sent: unknown;
	const headers = Object.fromEntries(
		Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]),
	);
	const req = {
		headers,
		rawBody: delivery.rawBody,
		body: delivery.body ?? (delivery.rawBody ? safeJson(delivery.rawBody) : {}),
		query: {},
		params: {},
		method: 'POST',
		header(name: string) {
			return headers[name.toLowerCase()];
		},
		get(name: string) {
			return headers[name.toLowerCase()];
		},
	};
	const res = {
		headersSent: false,
		status(code: number) {
			status = code;
			return res;
		},
		json(payload: unknown) {
			sent = payload;
			res.headersSent = true;
			return res;
		},
		send(payload: unknown) {
			sent = payload;
			res.headersSent = true;
			return res;
		},
		end(payload?: unknown) {
			if (payload !== undefined) sent = payload;
			res.headersSent = true;
			return res;
		},
		setHeader() {
			return res;
		},
	};
	additionalData.httpRequest = req as never;
	additionalData.httpResponse = res as never;
	const isTest = options.isTest ?? mode === 'manual';
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		mode,
		webhookDataFor(testNode, undefined, isTest),
		[],
		null,
	);
	if (!nodeType.webhook) throw new Error('Node has no webhook()');
	const result = await nodeType.webhook.call(context);
	return { result, status, sent };
}

function safeJson(raw: Buffer): unknown {
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		return {};
	}
}

/** Records what nodes log as warnings through n8n's Logger (the one contexts expose as `this.logger`). */
export function captureLogWarnings(): { warnings: string[]; restore(): void } {
	/* eslint-disable @typescript-eslint/no-require-imports */
	const { Container } = require('@n8n/di') as typeof import('@n8n/di');
	const { Logger } = require('@n8n/backend-common') as typeof import('@n8n/backend-common');
	/* eslint-enable @typescript-eslint/no-require-imports */
	const logger = Container.get(Logger);
	const warnings: string[] = [];
	const spy = jest.spyOn(logger, 'warn').mockImplementation((message: string) => {
		warnings.push(message);
	});
	return { warnings, restore: () => spy.mockRestore() };
}

/** A resource locator value in "By ID" mode, as the editor stores it. */
export function byId(value: string) {
	return { __rl: true, mode: 'id', value };
}

/** The JSON of each output item. */
export function jsonOf<T extends { json: unknown }>(items: T[]): Array<T['json']> {
	return items.map((item) => item.json);
}
