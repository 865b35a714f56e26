/**
 * Every error the trigger's lifecycle throws, through n8n-core's hook contexts. n8n shows an
 * activation error by its message alone (n8n 2.41's publication status keeps the message and drops
 * the description; n8n 1.x keeps the message as the workflow's activation error), so each message
 * must say what is wrong and what to do, short enough to read.
 */
import nock from 'nock';
import type { IDataObject, IHookFunctions, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import { apiRequest } from '../../nodes/shared/api/transport';
import { forgetRateBudgets, realClock } from '../harness/clock';
import {
	createTriggerNode,
	runWebhookMethod,
	TEST_API_KEY,
	TEST_BASE_URL,
	type EngineOptions,
} from '../harness/engine';
import { API } from '../harness/actionNode';
import { trigger, WEBHOOK_URL as PROD_URL, SIGNING as SECRET, EVENTS } from './liveSubscription';

/** Long enough for the longest fix after the API's message, short enough to read in a toast. */
const MAX_MESSAGE_LENGTH = 420;

afterEach(() => {
	realClock();
	forgetRateBudgets();
	nock.cleanAll();
});

const stored = (): IDataObject => ({
	'node:Business Ops Trigger': {
		subscriptions: {
			production: {
				id: 'whk_1',
				url: PROD_URL,
				events: EVENTS,
				sealedSecret: sealSecret(SECRET, TEST_API_KEY, 'whk_1'),
			},
		},
	},
});
const noneLeftBehind = () =>
	nock(API)
		.get('/v1/webhooks')
		.query(true)
		.reply(200, { data: [], meta: { hasMore: false } });

function triggerNode(
	parameters: INodeParameters = {},
	staticData?: IDataObject,
	options: EngineOptions = {},
) {
	return createTriggerNode(trigger, { events: EVENTS, ...parameters }, { staticData, ...options });
}

/** The error an activation step threw (checkExists or create, as n8n runs them on publish). */
async function thrownBy(step: Promise<unknown>): Promise<Error & { description?: string }> {
	const outcome = await step.then(
		() => undefined,
		(error: unknown) => error as Error,
	);
	if (!outcome) throw new Error('the activation step did not fail');
	return outcome;
}

/** What every activation error must be: its fix in the message, readable, nothing secret. */
function expectSelfSufficient(error: Error, what: RegExp, fix: RegExp) {
	expect(error.message).toMatch(what);
	expect(error.message).toMatch(fix);
	expect(error.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
	expect(error.message).not.toContain(TEST_API_KEY);
	expect(error.message).not.toContain(SECRET.slice('whsec_'.length));
}

const PUBLISH_AGAIN = /then publish the workflow again/;

/**
 * Each API call of the lifecycle, set up so that the trigger reaches it: the calls before it answer
 * as they would, the call itself gets the failure. `run` is the activation step n8n runs.
 */
const CALLS: Array<{
	call: string;
	reach: (fail: (scope: nock.Interceptor) => void) => Promise<Error>;
}> = [
	{
		call: 'GET /webhooks/{id} (is it still there?)',
		reach: async (fail) => {
			fail(nock(API).get('/v1/webhooks/whk_1'));
			return await thrownBy(runWebhookMethod(trigger, triggerNode({}, stored()), 'checkExists'));
		},
	},
	{
		call: 'PATCH /webhooks/{id} (update in place)',
		reach: async (fail) => {
			nock(API)
				.get('/v1/webhooks/whk_1')
				.reply(200, { data: { id: 'whk_1', url: PROD_URL, events: EVENTS, active: false } });
			fail(nock(API).patch('/v1/webhooks/whk_1'));
			return await thrownBy(runWebhookMethod(trigger, triggerNode({}, stored()), 'checkExists'));
		},
	},
	{
		call: 'DELETE /webhooks/{id} (the old one, before a new one)',
		reach: async (fail) => {
			fail(nock(API).delete('/v1/webhooks/whk_1'));
			return await thrownBy(runWebhookMethod(trigger, triggerNode({}, stored()), 'create'));
		},
	},
	{
		call: 'GET /webhooks (left behind at this URL?)',
		reach: async (fail) => {
			fail(nock(API).get('/v1/webhooks').query(true));
			return await thrownBy(runWebhookMethod(trigger, triggerNode(), 'create'));
		},
	},
	{
		call: 'POST /webhooks (subscribe)',
		reach: async (fail) => {
			noneLeftBehind();
			fail(nock(API).post('/v1/webhooks'));
			// after a 409 it looks for ours left behind at this URL once more: none there
			noneLeftBehind();
			return await thrownBy(runWebhookMethod(trigger, triggerNode(), 'create'));
		},
	},
];

/** Each failure the API (or the network) can give, the fix its message must name, and whether it applies to a call. */
const FAILURES: Array<{
	failure: string;
	answer: (scope: nock.Interceptor, call: string) => void;
	fix: RegExp;
	applies?: (call: string) => boolean;
}> = [
	{
		failure: '400 validation_error',
		answer: (s) =>
			s.reply(400, {
				error: { code: 'validation_error', message: 'events: unknown event type "invoice.lost"' },
			}),
		fix: /Change what the API's message names \(the chosen events, or n8n's webhook URL: N8N_WEBHOOK_URL or WEBHOOK_URL\), then publish the workflow again/,
	},
	{
		failure: '401 unauthorized',
		answer: (s) => s.reply(401, { error: { code: 'unauthorized', message: 'Invalid API key' } }),
		fix: /Check the API key and the Base URL in the Business Ops API credential, then publish the workflow again/,
	},
	{
		failure: '403 insufficient_scope',
		answer: (s, call) =>
			s.reply(403, {
				error: {
					code: 'insufficient_scope',
					message: `Missing scope ${call.startsWith('GET') ? 'webhooks.read' : 'webhooks.write'}`,
				},
			}),
		fix: /Give the API key the scope "webhooks\.(read|write)" \(or "webhooks\.\*"\) in the Business Ops dashboard and update the credential, then publish the workflow again/,
	},
	{
		failure: '403 whose message names no scope',
		answer: (s) => s.reply(403, { error: { code: 'forbidden', message: 'Forbidden' } }),
		fix: /Give the API key the scopes "webhooks\.read" and "webhooks\.write" \(or "webhooks\.\*"\)/,
	},
	{
		failure: '404 on a path without an id (Base URL without its version)',
		answer: (s) => s.reply(404, { error: { code: 'not_found', message: 'Not found' } }),
		fix: /make the credential's Base URL end with its version segment \(e\.g\. https:\/\/api\.example\.com\/v1\), then publish the workflow again/,
		// a 404 on /webhooks/{id} means the subscription is gone: handled, never an error
		applies: (call) => !call.includes('{id}'),
	},
	{
		failure: '409 duplicate_resource',
		answer: (s) =>
			s.reply(409, {
				error: {
					code: 'duplicate_resource',
					message: 'A webhook subscription with this name and url exists',
				},
			}),
		fix: /Delete the conflicting subscription in the Business Ops dashboard \(Webhooks\), then publish the workflow again/,
	},
	{
		failure: '422 unprocessable',
		answer: (s) =>
			s.reply(422, {
				error: { code: 'unprocessable', message: 'The subscription cannot be changed now' },
			}),
		fix: /Change what the API's message names/,
	},
	{
		failure: '429 rate_limited',
		answer: (s) =>
			s.reply(
				429,
				{ error: { code: 'rate_limited', message: 'Too many requests' } },
				{ 'Retry-After': '1' },
			),
		fix: /publish the workflow again in a minute/,
	},
	{
		failure: '429 with a Retry-After longer than the node waits',
		answer: (s) =>
			s.reply(
				429,
				{ error: { code: 'rate_limited', message: 'Too many requests' } },
				{ 'Retry-After': '3600' },
			),
		fix: /\(the API asked to wait 3600 s\): publish the workflow again in 60 minutes/,
	},
	{
		failure: '500 internal_error',
		answer: (s) => s.reply(500, { error: { code: 'internal_error', message: 'Something broke' } }),
		fix: /The API failed: publish the workflow again later/,
	},
	{
		failure: '503 without a body',
		answer: (s) => s.reply(503, ''),
		fix: /The API failed: publish the workflow again later/,
	},
	{
		failure: 'a network failure (n8n 2.x: the code in the cause)',
		answer: (s) =>
			s.replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
		fix: /Check that n8n reaches the Base URL in the Business Ops API credential, then publish the workflow again/,
	},
];

describe('every API call of the lifecycle, every failure: the message names the fix', () => {
	const cases = CALLS.flatMap(({ call, reach }) =>
		FAILURES.filter(({ applies }) => applies?.(call) ?? true).map(
			(f) => [call, f.failure, reach, f] as const,
		),
	);
	test.each(cases)('%s: %s', async (call, _failure, reach, { answer, fix }) => {
		const error = await reach((scope) => answer(scope, call));
		const [method, path] = call.split(' ');
		const target = new RegExp(`${method} ${path.replace('{id}', 'whk_1').replace(/[/]/g, '\\/')}`);
		expectSelfSufficient(error, target, fix);
	});
});

describe("the trigger's own activation errors name the fix", () => {
	test('no events chosen: names the field', async () => {
		const error = await thrownBy(runWebhookMethod(trigger, triggerNode({ events: [] }), 'create'));
		expectSelfSufficient(
			error,
			/Choose at least one event/,
			/in "Event Names or IDs", then publish the workflow again/,
		);
	});

	test('a webhook URL only a local network knows, with a public API: the settings that fix it, nothing sent', async () => {
		const local = triggerNode({}, undefined, { webhookBaseUrl: 'http://localhost:5678/' });
		const error = await thrownBy(runWebhookMethod(trigger, local, 'create'));
		expectSelfSufficient(
			error,
			/^The webhook URL http:\/\/localhost:5678\/webhook\/webhook-uuid\/webhook points at localhost \(localhost\), which the API at api\.business-ops\.test cannot reach, so no event would ever arrive\./,
			/Set N8N_WEBHOOK_URL \(n8n 2\.x\) or WEBHOOK_URL \(n8n 1\.x\) to the public address of n8n \(or of a tunnel to it\) and restart n8n; if the API reaches n8n over a VPN or private network, turn on Options → Skip Reachability Check\./,
		);
		expect(error.description).toBe('Nothing was subscribed.');
	});

	test('a Timestamp Tolerance that is not a number: names the field and a value', async () => {
		const error = await thrownBy(
			runWebhookMethod(trigger, triggerNode({ options: { timestampTolerance: '5m' } }), 'create'),
		);
		expectSelfSufficient(
			error,
			/"Timestamp Tolerance \(Seconds\)" must be a number/,
			/set it under Options, e\.g\. 300/,
		);
	});

	test('a yes/no option an expression gave as text that is not true or false: names the option', async () => {
		const error = await thrownBy(
			runWebhookMethod(trigger, triggerNode({ options: { includeHeaders: 'yes' } }), 'create'),
		);
		expectSelfSufficient(
			error,
			/^Include Headers: must be true or false; the expression gave "yes"/,
			/Change it under Options, then publish the workflow again/,
		);
	});

	test('Event Names with an entry that is not text, or none: names the field, nothing sent', async () => {
		const notText = await thrownBy(
			runWebhookMethod(
				trigger,
				triggerNode({ events: [null] as unknown as string[] }),
				'checkExists',
			),
		);
		expectSelfSufficient(
			notText,
			/^Event Names or IDs: entry 1 of the list must be an event type \(text\); the expression gave null/,
			/Change the field, then publish the workflow again/,
		);
		const none = await thrownBy(
			runWebhookMethod(trigger, triggerNode({ events: ' , ' }), 'checkExists'),
		);
		expectSelfSufficient(
			none,
			/^No event is chosen\. Choose at least one event in "Event Names or IDs"/,
			/then publish the workflow again/,
		);
	});

	test('Custom settings that cannot work: names the field to set', async () => {
		const custom = { signatureScheme: 'custom', customSignature: { settings: { header: '' } } };
		const error = await thrownBy(
			runWebhookMethod(trigger, triggerNode({ options: custom }), 'create'),
		);
		expectSelfSufficient(error, /^Custom signature/, /set "Signature Header"/);
	});

	test('the API returned no id: which subscription to delete by hand', async () => {
		noneLeftBehind();
		nock(API)
			.post('/v1/webhooks')
			.reply(201, { data: { url: PROD_URL, events: EVENTS, signingSecret: SECRET } });
		const error = await thrownBy(runWebhookMethod(trigger, triggerNode(), 'create'));
		expectSelfSufficient(
			error,
			/^The API did not return an id for the new webhook subscription/,
			/Delete the subscription named "n8n: Test workflow \/ Business Ops Trigger \(workflow-1\)" in the Business Ops dashboard \(Webhooks\), then publish the workflow again/,
		);
	});

	test('the API returned no signing secret: deleted again, publish again', async () => {
		noneLeftBehind();
		nock(API)
			.post('/v1/webhooks')
			.reply(201, { data: { id: 'whk_2', url: PROD_URL, events: EVENTS } })
			.delete('/v1/webhooks/whk_2')
			.reply(200, {});
		const error = await thrownBy(runWebhookMethod(trigger, triggerNode(), 'create'));
		expectSelfSufficient(
			error,
			/without returning its signing secret, so it was deleted again/,
			/publish the workflow again, and contact Business Ops support if this repeats/,
		);
	});

	test('no signing secret and deleting it failed: publish again to retry, or which one to delete', async () => {
		noneLeftBehind();
		nock(API)
			.post('/v1/webhooks')
			.reply(201, { data: { id: 'whk_2', url: PROD_URL, events: EVENTS } })
			.delete('/v1/webhooks/whk_2')
			.reply(500, { error: { code: 'internal_error', message: 'boom' } });
		const error = await thrownBy(runWebhookMethod(trigger, triggerNode(), 'create'));
		expectSelfSufficient(
			error,
			/^The API created webhook subscription whk_2 without a signing secret, and deleting it failed/,
			/publish the workflow again to retry, or delete whk_2 in the Business Ops dashboard \(Webhooks\)/,
		);
	});

	test('a Requests per Minute that is not a number: names the credential field', async () => {
		const node = triggerNode({}, stored(), {
			credentials: { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 'many' },
		});
		const error = await thrownBy(runWebhookMethod(trigger, node, 'checkExists'));
		expectSelfSufficient(
			error,
			/Requests per Minute in the Business Ops API credential/,
			/must be a number of 1 or more/,
		);
	});
});

describe('a network failure as n8n 1.x hands it over', () => {
	test('n8n 1.x puts the code in httpCode and replaces the message: still worded, with the fix', async () => {
		// n8n-core 1.x wraps a timed-out request in a NodeApiError whose message is its own
		// ("The connection was aborted, perhaps the server is offline") and whose httpCode is the code
		const node = triggerNode().node;
		const asN8n1Wraps = Object.assign(
			new NodeApiError(node, { message: 'timeout of 10000ms exceeded' }),
			{
				message: 'The connection was aborted, perhaps the server is offline',
				httpCode: 'ECONNABORTED',
			},
		);
		const calls: unknown[] = [];
		const ctx = {
			getNode: () => node,
			getCredentials: async () => ({ apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL }),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: unknown) => {
					calls.push(options);
					throw asN8n1Wraps;
				},
			},
		} as unknown as IHookFunctions;
		const error = await thrownBy(apiRequest(ctx, 'GET', '/webhooks/whk_1', { activation: true }));
		expectSelfSufficient(
			error,
			/^Could not complete GET \/webhooks\/whk_1: no answer within the timeout\./,
			PUBLISH_AGAIN,
		);
		// every lifecycle call asks n8n to give up after 10 s, so that publishing ends within n8n's deadline
		expect(calls).toEqual([expect.objectContaining({ timeout: 10_000 })]);
	});
});
