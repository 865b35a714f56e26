import { Container } from '@n8n/di';
import nock from 'nock';
import { InstanceSettings } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { fastClock, forgetRateBudgets, realClock } from '../harness/clock';
import {
	activateTrigger,
	createTriggerNode,
	deactivateTrigger,
	runLoadOptions,
	runWebhook,
	runWebhookMethod,
	startTestListening,
	stopTestListening,
	type FakeDelivery,
	type TestNode,
	type WebhookRun,
} from '../harness/engine';
import { openSecret, sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import { BoundedMap } from '../../nodes/shared/boundedMap';
import { TEST_API_KEY } from '../harness/engine';
import {
	captureLogs,
	formHeaders,
	githubSignature,
	standardHeaders,
	stripeSignature,
	type LogLine,
} from './helpers';
import { API } from '../harness/actionNode';
import { trigger, WEBHOOK_URL as PROD_URL, SIGNING as SECRET } from './liveSubscription';

const TEST_URL = 'https://n8n.example.test/webhook-test/webhook-uuid/webhook';
const NAME = 'n8n: Test workflow / Business Ops Trigger (workflow-1)';
const TEST_SECRET = 'whsec_dGVzdC1tb2RlLXNlY3JldC1vZi10aGUtdHJpZ2dlcg==';
const NOW = 1_700_000_000;
const EVENTS = ['invoice.paid', 'quote.approved'];
/** This n8n's instance id, as n8n-core gives it to the trigger's contexts. */
const INSTANCE_ID = Container.get(InstanceSettings).instanceId;
const notFound = { error: { code: 'not_found', message: 'Webhook not found' } };
/** What the trigger keeps of its production subscription `id` (the secret sealed, this instance's id). */
const storedAs = (id: string) => ({
	production: { id, url: PROD_URL, events: EVENTS, sealedSecret: SEALED, instanceId: INSTANCE_ID },
});
/** The API deletes the stored subscription whk_1 and makes `id` (newSubscription) in its place. */
const resubscribed = (id: string, signingSecret = SECRET) =>
	nock(API)
		.delete('/v1/webhooks/whk_1')
		.reply(200, {})
		.post('/v1/webhooks')
		.reply(201, newSubscription(id, signingSecret));
/** The API's answer to POST /webhooks: subscription `id` for this URL and EVENTS, with its secret. */
const newSubscription = (id: string, signingSecret = SECRET) => ({
	data: { id, url: PROD_URL, events: EVENTS, active: true, signingSecret },
});

/** Create without a stored record first lists the subscriptions, looking for ones left behind. */
const noneLeftBehind = (times = 1) =>
	nock(API)
		.get('/v1/webhooks')
		.query(true)
		.times(times)
		.reply(200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } });

let logs: { lines: LogLine[]; restore: () => void };

beforeEach(() => {
	fastClock();
	logs = captureLogs();
});
afterEach(() => {
	realClock();
	forgetRateBudgets();
	logs.restore();
	jest.restoreAllMocks();
	nock.cleanAll();
});

function makeNode(parameters: INodeParameters = {}, staticData?: IDataObject): TestNode {
	return createTriggerNode(trigger, { events: EVENTS, ...parameters }, { staticData });
}

/** Refusals are tallied, logged and written per workflow: each delivery test gets a workflow of its own. */
let workflows = 0;
function ownWorkflow(testNode: TestNode): TestNode {
	testNode.workflow.id = `workflow-delivery-${++workflows}`;
	return testNode;
}

/** What a refused sender gets, whatever the reason: a plain 401. */
const REFUSED = { error: 'invalid signature' };

function subscriptions(testNode: TestNode): IDataObject {
	return (testNode.workflow.getStaticData('node', testNode.node).subscriptions ??
		{}) as IDataObject;
}

/** A sealed secret as create stores it: opens only with the credential's API key and for that subscription. */
const sealed = (secret: string, id = 'whk_1') => sealSecret(secret, TEST_API_KEY, id);
const SEALED = expect.stringMatching(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);

/** The secret a stored record holds, opened with the test credential's API key. */
function secretOf(testNode: TestNode, slot = 'production'): string | undefined {
	const record = (subscriptions(testNode)[slot] ?? {}) as IDataObject;
	return typeof record.sealedSecret === 'string'
		? openSecret(record.sealedSecret, TEST_API_KEY, String(record.id))
		: undefined;
}

function withProduction(extra: IDataObject = {}): IDataObject {
	const secret = 'secret' in extra ? extra.secret : SECRET;
	const rest = { ...extra };
	delete rest.secret;
	return {
		'node:Business Ops Trigger': {
			subscriptions: {
				production: {
					id: 'whk_1',
					url: PROD_URL,
					events: EVENTS,
					...(typeof secret === 'string' && secret !== ''
						? { sealedSecret: sealed(secret, String(rest.id ?? 'whk_1')) }
						: {}),
					...rest,
				},
			},
		},
	};
}

const remote = (overrides: IDataObject = {}) => ({
	data: {
		id: 'whk_1',
		name: NAME,
		url: PROD_URL,
		events: [...EVENTS].reverse(),
		active: true,
		...overrides,
	},
});

describe('description', () => {
	test('is a webhook trigger with the events, options and the None notice', () => {
		const { description } = trigger;
		expect(description.name).toBe('businessOpsTrigger');
		expect(description.group).toEqual(['trigger']);
		expect(description.inputs).toEqual([]);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		]);
		expect(description.credentials).toEqual([{ name: 'businessOpsApi', required: true }]);
		expect(description.properties.map((p) => p.name)).toEqual([
			'pollingTriggerNotice',
			'events',
			'options',
			'noSignatureNotice',
		]);
		const options = description.properties.find((p) => p.name === 'options')!.options as Array<{
			name: string;
			default: unknown;
		}>;
		expect(Object.fromEntries(options.map((o) => [o.name, o.default]))).toEqual({
			customSignature: {},
			eventTypeField: '',
			ignoreRepeatedDeliveries: false,
			includeHeaders: false,
			signatureHeader: '',
			signatureScheme: 'auto',
			skipReachabilityCheck: false,
			timestampTolerance: 300,
		});
		const notice = description.properties.find((p) => p.name === 'noSignatureNotice')!;
		expect(notice.type).toBe('notice');
		const shown = (options: IDataObject) =>
			NodeHelpers.displayParameter(
				{ events: EVENTS, options } as INodeParameters,
				notice,
				null,
				description,
			);
		expect(shown({ signatureScheme: 'none' })).toBe(true);
		expect(shown({ signatureScheme: 'auto' })).toBe(false);
		expect(shown({})).toBe(false);
	});

	test('events load from every page of GET /webhooks/events', async () => {
		nock(API)
			.get('/v1/webhooks/events')
			.query({ page: '1', pageSize: '100' })
			.reply(200, {
				data: [{ type: 'invoice.paid', description: 'Paid' }],
				meta: { page: 1, pageSize: 1, total: 2, hasMore: true },
			})
			.get('/v1/webhooks/events')
			.query({ page: '2', pageSize: '100' })
			.reply(200, {
				data: [{ type: 'agent.paused' }],
				meta: { page: 2, pageSize: 1, total: 2, hasMore: false },
			});
		expect(
			(await runLoadOptions(trigger, 'getEventTypes', { events: [] })).map((o) => o.value),
		).toEqual(['invoice.paid', 'agent.paused']);
	});

	test('an API error reaches the dropdown instead of a silent fallback list', async () => {
		nock(API)
			.get('/v1/webhooks/events')
			.query(true)
			.reply(403, {
				error: { code: 'insufficient_scope', message: 'Missing scope webhooks.read' },
			});
		await expect(runLoadOptions(trigger, 'getEventTypes', { events: [] })).rejects.toThrow(
			/Missing scope webhooks\.read \(HTTP 403 insufficient_scope/,
		);
		nock(API)
			.get('/v1/webhooks/events')
			.query(true)
			.reply(401, { error: { code: 'unauthorized', message: 'Invalid API key' } });
		await expect(runLoadOptions(trigger, 'getEventTypes', { events: [] })).rejects.toThrow(
			/HTTP 401 unauthorized/,
		);
	});

	test('the spec list stands in only for an API without the endpoint, and says so', async () => {
		nock(API)
			.get('/v1/webhooks/events')
			.query(true)
			.reply(404, { error: { code: 'not_found', message: 'Not found' } });
		const options = await runLoadOptions(trigger, 'getEventTypes', { events: [] });
		expect(options.map((o) => o.value)).toEqual([
			'invoice.sent',
			'invoice.paid',
			'quote.approved',
			'quote.created',
			'request.received',
		]);
		expect(options[0].description).toMatch(
			/Named in the API documentation \(this API has no list of event types\)/,
		);
	});
});

describe('create', () => {
	test('posts name, URL and events, and keeps the id and the signing secret', async () => {
		noneLeftBehind();
		let posted: IDataObject | undefined;
		const scope = nock(API)
			.post('/v1/webhooks', (body) => {
				posted = body;
				return true;
			})
			.reply(201, {
				data: {
					id: 'whk_1',
					name: NAME,
					url: PROD_URL,
					events: EVENTS,
					active: true,
					signingSecret: SECRET,
				},
			});
		const testNode = makeNode();
		expect(await activateTrigger(trigger, testNode)).toEqual({ existed: false });
		expect(scope.isDone()).toBe(true);
		expect(posted).toEqual({ name: NAME, url: PROD_URL, events: EVENTS });
		expect(subscriptions(testNode)).toEqual(storedAs('whk_1'));
		// sealed with the credential's API key: the workflow's static data does not hold the secret in clear
		expect(JSON.stringify(testNode.workflow.staticData)).not.toContain(
			SECRET.slice('whsec_'.length),
		);
		expect(secretOf(testNode)).toBe(SECRET);
	});

	test('a response without a signing secret: the subscription is deleted again and a clear error thrown', async () => {
		noneLeftBehind();
		const scope = nock(API)
			.post('/v1/webhooks')
			.reply(201, { data: { id: 'whk_2', url: PROD_URL, events: EVENTS, active: true } })
			.delete('/v1/webhooks/whk_2')
			.reply(200, { data: { id: 'whk_2', deleted: true } });
		const testNode = makeNode();
		const error = await runWebhookMethod(trigger, testNode, 'create').catch((e: Error) => e);
		expect(scope.isDone()).toBe(true);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toMatch(
			/^The API created the webhook subscription without returning its signing secret/,
		);
		expect(subscriptions(testNode)).toEqual({});
	});

	test('without a secret and failing deletion, the id stays so the next activation removes it', async () => {
		noneLeftBehind(2);
		nock(API)
			.post('/v1/webhooks')
			.reply(201, { data: { id: 'whk_2', url: PROD_URL, events: EVENTS, active: true } })
			.delete('/v1/webhooks/whk_2')
			.reply(500, { error: { code: 'internal_error', message: 'boom' } });
		const testNode = makeNode();
		const error = (await runWebhookMethod(trigger, testNode, 'create').catch(
			(e: Error) => e,
		)) as Error;
		expect(error.message).toMatch(
			/^The API created webhook subscription whk_2 without a signing secret, and deleting it failed/,
		);
		expect(subscriptions(testNode)).toEqual({
			production: { id: 'whk_2', url: PROD_URL, events: EVENTS, instanceId: INSTANCE_ID },
		});

		const scope = nock(API)
			.delete('/v1/webhooks/whk_2')
			.reply(200, {})
			.post('/v1/webhooks')
			.reply(201, newSubscription('whk_3'));
		expect(await activateTrigger(trigger, testNode)).toEqual({ existed: false });
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual(storedAs('whk_3'));
	});

	test('no events chosen is refused before any request', async () => {
		const testNode = makeNode({ events: [] });
		await expect(runWebhookMethod(trigger, testNode, 'create')).rejects.toThrow(
			'Choose at least one event',
		);
	});

	test('a 409 from our own orphaned subscription (exactly this URL): it is deleted, never adopted; other URLs are left alone', async () => {
		noneLeftBehind();
		const scope = nock(API)
			.post('/v1/webhooks')
			.reply(409, { error: { code: 'duplicate_resource', message: 'exists' } })
			.get('/v1/webhooks')
			.query({ page: 1, pageSize: 100 })
			.reply(200, {
				data: [
					{
						id: 'whk_staging',
						name: NAME,
						url: PROD_URL.replace('n8n.example.test', 'staging.example.test'),
						events: EVENTS,
						active: true,
					},
					{ id: 'whk_old', name: NAME, url: PROD_URL, events: EVENTS, active: true },
				],
				meta: { page: 1, pageSize: 100, total: 2, hasMore: false },
			})
			.delete('/v1/webhooks/whk_old')
			.reply(200, {})
			.post('/v1/webhooks')
			.reply(201, newSubscription('whk_new'));
		const testNode = makeNode();
		await runWebhookMethod(trigger, testNode, 'create');
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toMatchObject({ production: { id: 'whk_new' } });
		expect(secretOf(testNode)).toBe(SECRET);
	});

	test('a left-behind subscription at this URL written another way (host case, default port) is deleted before the POST', async () => {
		const scope = nock(API)
			.get('/v1/webhooks')
			.query(true)
			.reply(200, {
				data: [{ id: 'whk_old', name: NAME, url: PROD_URL, events: EVENTS, active: true }],
				meta: { page: 1, pageSize: 100, total: 1, hasMore: false },
			})
			.delete('/v1/webhooks/whk_old')
			.reply(200, {})
			.post('/v1/webhooks')
			.reply(201, newSubscription('whk_new'));
		const testNode = createTriggerNode(
			trigger,
			{ events: EVENTS },
			{ webhookBaseUrl: 'https://N8N.Example.test:443/' },
		);
		await runWebhookMethod(trigger, testNode, 'create');
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toMatchObject({ production: { id: 'whk_new' } });
	});

	test('a 409 that is not ours is reported', async () => {
		noneLeftBehind();
		nock(API)
			.post('/v1/webhooks')
			.reply(409, {
				error: { code: 'duplicate_resource', message: 'A webhook subscription named x exists' },
			})
			.get('/v1/webhooks')
			.query(true)
			.reply(200, { data: [], meta: { hasMore: false } });
		const error = (await runWebhookMethod(trigger, makeNode(), 'create').catch(
			(e: Error) => e,
		)) as Error;
		expect(error.message).toMatch(/HTTP 409 duplicate_resource, POST \/webhooks/);
	});
});

describe('checkExists', () => {
	test('nothing stored: false, without a request', async () => {
		expect(await runWebhookMethod(trigger, makeNode(), 'checkExists')).toBe(false);
	});

	test('true when it exists with this URL, these events (any order), active, and the secret is held', async () => {
		const scope = nock(API).get('/v1/webhooks/whk_1').reply(200, remote());
		const testNode = makeNode({}, withProduction());
		expect(await runWebhookMethod(trigger, testNode, 'checkExists')).toBe(true);
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toMatchObject({ production: { id: 'whk_1' } });
		expect(secretOf(testNode)).toBe(SECRET);
	});

	test('404: cleared, false (nothing left to delete)', async () => {
		const scope = nock(API).get('/v1/webhooks/whk_1').reply(404, notFound);
		const testNode = makeNode({}, withProduction());
		expect(await runWebhookMethod(trigger, testNode, 'checkExists')).toBe(false);
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual({});
	});

	test.each([
		['event drift', remote({ events: ['invoice.paid'] }), { events: EVENTS }],
		['an extra event', remote({ events: [...EVENTS, 'invoice.sent'] }), { events: EVENTS }],
		['a paused subscription', remote({ active: false }), { active: true }],
		[
			'a renamed workflow',
			remote({ name: 'n8n: Old name / Business Ops Trigger (workflow-1)' }),
			{ name: NAME },
		],
	])('%s: updated in place with PATCH (same id and secret), true', async (_case, answer, patch) => {
		let patched: IDataObject | undefined;
		const scope = nock(API)
			.get('/v1/webhooks/whk_1')
			.reply(200, answer)
			.patch('/v1/webhooks/whk_1', (body) => {
				patched = body;
				return true;
			})
			.reply(200, remote());
		const testNode = makeNode({}, withProduction());
		expect(await runWebhookMethod(trigger, testNode, 'checkExists')).toBe(true);
		expect(scope.isDone()).toBe(true);
		expect(patched).toEqual(patch);
		expect(subscriptions(testNode)).toMatchObject({ production: { id: 'whk_1', events: EVENTS } });
		expect(secretOf(testNode)).toBe(SECRET);
	});

	test('a paused subscription made active again is logged at warn level', async () => {
		nock(API)
			.get('/v1/webhooks/whk_1')
			.reply(200, remote({ active: false }))
			.patch('/v1/webhooks/whk_1')
			.reply(200, remote());
		expect(await runWebhookMethod(trigger, makeNode({}, withProduction()), 'checkExists')).toBe(
			true,
		);
		const warning = logs.lines.find((line) => line.level === 'warn')?.message;
		expect(warning).toMatch(
			/whk_1 was paused in Business Ops; it is active again because the workflow is published/,
		);
	});

	test('a subscription gone while it is updated (404 on PATCH): cleared, false', async () => {
		const scope = nock(API)
			.get('/v1/webhooks/whk_1')
			.reply(200, remote({ active: false }))
			.patch('/v1/webhooks/whk_1')
			.reply(404, notFound);
		const testNode = makeNode({}, withProduction());
		expect(await runWebhookMethod(trigger, testNode, 'checkExists')).toBe(false);
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual({});
	});

	test('a subscription at another URL is never deleted: forgotten, left in place with a warning, false', async () => {
		// the URL changed in Business Ops: the subscription points elsewhere now
		const moved = nock(API)
			.get('/v1/webhooks/whk_1')
			.reply(200, remote({ url: 'https://elsewhere.example/hook' }));
		const testNode = makeNode({}, withProduction());
		expect(await runWebhookMethod(trigger, testNode, 'checkExists')).toBe(false);
		expect(moved.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual({});

		// the record is another n8n's (the workflow imported with its static data, e.g. into staging) or
		// this n8n's under an earlier address: no request touches it (nock would refuse a DELETE)
		const imported = makeNode(
			{},
			withProduction({ url: 'https://production.example/webhook/webhook-uuid/webhook' }),
		);
		expect(await runWebhookMethod(trigger, imported, 'checkExists')).toBe(false);
		expect(subscriptions(imported)).toEqual({});
		const deactivated = makeNode(
			{},
			withProduction({ url: 'https://production.example/webhook/webhook-uuid/webhook' }),
		);
		expect(await deactivateTrigger(trigger, deactivated)).toBe(true);
		expect(subscriptions(deactivated)).toEqual({});
		const warnings = logs.lines.filter((line) => line.level === 'warn').map((line) => line.message);
		expect(warnings).toHaveLength(3);
		for (const warning of warnings)
			expect(warning).toMatch(
				/it is left in place: it may belong to another n8n with this workflow/,
			);
	});

	test('chosen events changed in the node: PATCHed in place, the record keeps its id and secret', async () => {
		const chosen = ['invoice.paid', 'quote.approved', 'request.received'];
		const scope = nock(API)
			.get('/v1/webhooks/whk_1')
			.reply(200, remote())
			.patch('/v1/webhooks/whk_1', { events: chosen })
			.reply(200, remote({ events: chosen }));
		const testNode = makeNode({ events: chosen }, withProduction());
		expect(await runWebhookMethod(trigger, testNode, 'checkExists')).toBe(true);
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toMatchObject({ production: { id: 'whk_1', events: chosen } });
		expect(secretOf(testNode)).toBe(SECRET);
	});

	test("this instance's own subscription at an earlier URL (WEBHOOK_URL changed) is deleted; another instance's is not", async () => {
		const oldUrl = 'https://old-host.example/webhook/webhook-uuid/webhook';
		const own = makeNode({}, withProduction({ url: oldUrl, instanceId: INSTANCE_ID }));
		const scope = nock(API).delete('/v1/webhooks/whk_1').reply(200, {});
		expect(await runWebhookMethod(trigger, own, 'checkExists')).toBe(false);
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(own)).toEqual({});
		expect(logs.lines.find((l) => l.level === 'info')?.message).toMatch(
			/this n8n made it at its earlier URL https:\/\/old-host/,
		);

		// another instance's record (imported static data): nock would refuse a DELETE
		const other = makeNode({}, withProduction({ url: oldUrl, instanceId: 'another-instance' }));
		expect(await runWebhookMethod(trigger, other, 'checkExists')).toBe(false);
		expect(subscriptions(other)).toEqual({});
		expect(
			logs.lines
				.filter((l) => l.level === 'warn')
				.map((l) => l.message)
				.join('\n'),
		).toMatch(/another n8n instance made it, so it is left in place/);
	});

	test("this instance's own subscription, re-pointed in Business Ops to another URL, is forgotten and left in place", async () => {
		// nock refuses a DELETE
		const scope = nock(API)
			.get('/v1/webhooks/whk_1')
			.reply(200, remote({ url: 'https://elsewhere.example/hook' }));
		const testNode = makeNode({}, withProduction({ instanceId: INSTANCE_ID }));
		expect(await runWebhookMethod(trigger, testNode, 'checkExists')).toBe(false);
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual({});
		expect(logs.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
			expect.stringMatching(/points at https:\/\/elsewhere\.example\/hook.*left in place/),
		]);
	});

	test('without an n8n instance id, a record without one at an earlier URL is not taken for this instance: left in place', async () => {
		const settings = Container.get(InstanceSettings) as unknown as { instanceId: string };
		const own = settings.instanceId;
		settings.instanceId = '';
		try {
			const oldUrl = 'https://old-host.example/webhook/webhook-uuid/webhook';
			const testNode = makeNode({}, withProduction({ url: oldUrl }));
			// nock refuses a DELETE
			expect(await runWebhookMethod(trigger, testNode, 'checkExists')).toBe(false);
			expect(subscriptions(testNode)).toEqual({});
			expect(logs.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
				expect.stringMatching(/another n8n instance made it, so it is left in place/),
			]);
		} finally {
			settings.instanceId = own;
		}
	});

	test('after the key or organisation changed, a 404 on delete is a warning naming the subscription to delete by hand', async () => {
		// sealed under another key: the credential now holds a different key (another organisation)
		const stored = withProduction({
			secret: undefined,
			sealedSecret: sealSecret(SECRET, `svc_${'o'.repeat(32)}`, 'whk_1'),
		});
		const scope = nock(API).delete('/v1/webhooks/whk_1').reply(404, notFound);
		const testNode = makeNode({}, stored);
		expect(await deactivateTrigger(trigger, testNode)).toBe(true);
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual({});
		const warning = logs.lines.find((line) => line.level === 'warn')?.message ?? '';
		expect(warning).toContain(
			`webhook subscription whk_1 (to ${PROD_URL}) was not found with this credential's API key`,
		);
		expect(warning).toMatch(/delete it by hand in that organisation's Business Ops dashboard/);
	});

	test('after the key changed, a delete answered 204 without a body is done: no warning', async () => {
		const stored = withProduction({
			secret: undefined,
			sealedSecret: sealSecret(SECRET, `svc_${'o'.repeat(32)}`, 'whk_1'),
		});
		const scope = nock(API).delete('/v1/webhooks/whk_1').reply(204);
		const testNode = makeNode({}, stored);
		expect(await deactivateTrigger(trigger, testNode)).toBe(true);
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual({});
		expect(logs.lines.filter((line) => line.level === 'warn')).toEqual([]);
	});

	test('a 404 on delete with the same key is quiet: the subscription is gone', async () => {
		nock(API).delete('/v1/webhooks/whk_1').reply(404, notFound);
		expect(await deactivateTrigger(trigger, makeNode({}, withProduction()))).toBe(true);
		expect(logs.lines.filter((line) => line.level === 'warn')).toEqual([]);
	});

	test('stored secret missing: deleted (without asking whether it matches), cleared, false; then recreated', async () => {
		noneLeftBehind();
		const scope = resubscribed('whk_9');
		const testNode = makeNode({}, withProduction({ secret: undefined }));
		expect(await activateTrigger(trigger, testNode)).toEqual({ existed: false });
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual(storedAs('whk_9'));
	});

	test('an already deleted subscription during cleanup (404 on DELETE) still counts as cleaned', async () => {
		const scope = nock(API).delete('/v1/webhooks/whk_1').reply(404, notFound);
		const testNode = makeNode({}, withProduction({ secret: undefined }));
		expect(await runWebhookMethod(trigger, testNode, 'checkExists')).toBe(false);
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual({});
	});

	test('lifecycle calls fail fast: a network failure is not repeated and becomes the activation error', async () => {
		// one failure only: a retry would find no interceptor left and fail differently
		nock(API).get('/v1/webhooks/whk_1').times(5).replyWithError('socket hang up');
		const testNode = makeNode({}, withProduction());
		const error = (await runWebhookMethod(trigger, testNode, 'checkExists').catch(
			(e: Error) => e,
		)) as Error & { description?: string };
		expect(nock.pendingMocks()).toHaveLength(1); // 4 of the 5 answers left: one attempt was made
		expect(error.message).toMatch(
			/^Could not complete GET \/webhooks\/whk_1: the request failed without an answer\. /,
		);
		expect(error.description).toMatch(/Each request waits at most 10 s/);
		expect(subscriptions(testNode)).toMatchObject({ production: { id: 'whk_1' } });
	});

	test('other API errors are reported (activation fails) and the record is kept', async () => {
		nock(API)
			.get('/v1/webhooks/whk_1')
			.reply(403, {
				error: { code: 'insufficient_scope', message: 'Missing scope webhooks.read' },
			});
		const testNode = makeNode({}, withProduction());
		const error = (await runWebhookMethod(trigger, testNode, 'checkExists').catch(
			(e: Error) => e,
		)) as Error;
		expect(error.message).toMatch(/HTTP 403 insufficient_scope/);
		expect(subscriptions(testNode)).toMatchObject({ production: { id: 'whk_1' } });
	});
});

describe('delete', () => {
	test.each([
		[200, {}],
		[404, notFound],
	])('answer %s: done, static data cleared', async (status, body) => {
		const scope = nock(API).delete('/v1/webhooks/whk_1').reply(status, body);
		const testNode = makeNode({}, withProduction());
		expect(await deactivateTrigger(trigger, testNode)).toBe(true);
		expect(scope.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual({});
	});

	test('nothing stored: true without a request', async () => {
		expect(await deactivateTrigger(trigger, makeNode())).toBe(true);
	});

	test('a failing API: false, logged, record kept for the next activation', async () => {
		nock(API)
			.delete('/v1/webhooks/whk_1')
			.reply(500, { error: { code: 'internal_error', message: 'boom' } });
		const testNode = makeNode({}, withProduction());
		expect(await deactivateTrigger(trigger, testNode)).toBe(false);
		expect(secretOf(testNode)).toBe(SECRET);
		expect(
			logs.lines.some((l) => l.level === 'warn' && l.message.includes('could not delete')),
		).toBe(true);
	});
});

describe('test mode and production are kept apart', () => {
	test('each gets its own subscription, secret and cleanup', async () => {
		noneLeftBehind(2);
		const posted: IDataObject[] = [];
		nock(API)
			.post('/v1/webhooks', (body) => {
				posted.push(body);
				return true;
			})
			.reply(201, newSubscription('whk_prod'))
			.post('/v1/webhooks', (body) => {
				posted.push(body);
				return true;
			})
			.reply(201, {
				data: {
					id: 'whk_test',
					url: TEST_URL,
					events: EVENTS,
					active: true,
					signingSecret: TEST_SECRET,
				},
			});
		const testNode = makeNode();
		await activateTrigger(trigger, testNode);
		await startTestListening(trigger, testNode);
		expect(posted).toEqual([
			{ name: NAME, url: PROD_URL, events: EVENTS },
			{ name: `${NAME} (test)`, url: TEST_URL, events: EVENTS },
		]);
		expect(subscriptions(testNode)).toEqual({
			production: {
				id: 'whk_prod',
				url: PROD_URL,
				events: EVENTS,
				sealedSecret: SEALED,
				instanceId: INSTANCE_ID,
			},
			test: {
				id: 'whk_test',
				url: TEST_URL,
				events: EVENTS,
				sealedSecret: SEALED,
				instanceId: INSTANCE_ID,
			},
		});
		expect([secretOf(testNode, 'production'), secretOf(testNode, 'test')]).toEqual([
			SECRET,
			TEST_SECRET,
		]);

		// Listening again while the test subscription is live reuses it.
		nock(API)
			.get('/v1/webhooks/whk_test')
			.reply(200, { data: { id: 'whk_test', url: TEST_URL, events: EVENTS, active: true } });
		expect(await startTestListening(trigger, testNode)).toEqual({ existed: true });

		// A delivery to the test URL is checked with the test secret, to the production URL with the production one.
		const body = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', timestamp: 'now', data: {} });
		jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000);
		const signedWith = (secret: string): FakeDelivery => ({
			headers: standardHeaders(secret, 'evt_1', NOW, body),
			rawBody: Buffer.from(body),
		});
		expect(
			(await runWebhook(trigger, testNode, signedWith(TEST_SECRET), 'manual')).result.workflowData,
		).toBeDefined();
		// refused while listening: answered 401 with the reason, no output, so n8n keeps listening
		const refusedWhileListening = await runWebhook(trigger, testNode, signedWith(SECRET), 'manual');
		expect([
			refusedWhileListening.status,
			refusedWhileListening.sent,
			refusedWhileListening.result,
		]).toEqual([
			401,
			{ ...REFUSED, reason: expect.stringMatching(/^signature does not match/) },
			{ noWebhookResponse: true },
		]);
		expect(
			(await runWebhook(trigger, testNode, signedWith(SECRET), 'webhook')).result.workflowData,
		).toBeDefined();
		expect((await runWebhook(trigger, testNode, signedWith(TEST_SECRET), 'webhook')).status).toBe(
			401,
		);

		// The end of test listening (mode internal, activation update, test URL) deletes only the test one.
		const testDelete = nock(API).delete('/v1/webhooks/whk_test').reply(200, {});
		await stopTestListening(trigger, testNode);
		expect(testDelete.isDone()).toBe(true);
		// deliveries wrote nothing: the production record is as the lifecycle wrote it
		expect(subscriptions(testNode)).toEqual(storedAs('whk_prod'));

		// Deactivation (same mode and activation, production URL) deletes only the production one.
		const prodDelete = nock(API).delete('/v1/webhooks/whk_prod').reply(200, {});
		await deactivateTrigger(trigger, testNode);
		expect(prodDelete.isDone()).toBe(true);
		expect(subscriptions(testNode)).toEqual({});
	});
});

describe('webhook()', () => {
	const event = {
		id: 'evt_42',
		type: 'invoice.paid',
		timestamp: '2023-11-14T22:13:20.000Z',
		data: { id: 'inv_7', number: 'F-2023-007', status: 'paid', total: 121 },
	};
	const BODY = JSON.stringify(event);

	beforeEach(() => {
		jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000);
	});

	/** A node whose production subscription is stored (`null`: nothing stored). */
	function activeNode(
		options: IDataObject = {},
		staticData: IDataObject | null = withProduction(),
	) {
		return ownWorkflow(makeNode({ options: options as INodeParameters }, staticData ?? undefined));
	}

	async function deliver(testNode: TestNode, delivery: FakeDelivery): Promise<WebhookRun> {
		return await runWebhook(trigger, testNode, delivery);
	}

	/** A plain 401 to the sender; the reason only in the log. */
	function expectRefused(run: WebhookRun, reason: string) {
		expect(run.status).toBe(401);
		expect(run.sent).toEqual(REFUSED);
		expect(run.result).toEqual({ noWebhookResponse: true });
		expect(logs.lines.at(-1)).toMatchObject({
			level: 'warn',
			message: expect.stringContaining(`refused a delivery with HTTP 401: ${reason}`),
		});
	}

	function expectStarted(run: WebhookRun) {
		expect(run.status).toBeUndefined();
		expect(run.result.workflowData).toHaveLength(1);
		return run.result.workflowData![0].map((item) => item.json);
	}

	const standard = (body = BODY, secret = SECRET, timestamp = NOW): FakeDelivery => ({
		headers: {
			'Content-Type': 'application/json',
			...standardHeaders(secret, 'msg_1', timestamp, body),
		},
		rawBody: Buffer.from(body),
	});

	describe.each<[string, () => FakeDelivery, string]>([
		['standardWebhooks', () => standard(), 'msg_1'],
		[
			'github',
			() => ({
				headers: { 'X-Hub-Signature-256': githubSignature(SECRET, BODY) },
				rawBody: Buffer.from(BODY),
			}),
			'evt_42',
		],
		[
			'stripe',
			() => ({
				headers: { 'Stripe-Signature': stripeSignature(SECRET, NOW, BODY) },
				rawBody: Buffer.from(BODY),
			}),
			'evt_42',
		],
	])('%s', (scheme, delivery, deliveryId) => {
		test('a valid delivery starts the workflow (scheme chosen, and under Auto)', async () => {
			for (const options of [{ signatureScheme: scheme }, {}]) {
				expect(expectStarted(await deliver(activeNode(options), delivery()))).toEqual([
					{ ...event, deliveryId },
				]);
			}
		});

		test('a body changed by one byte is refused', async () => {
			const tampered = delivery();
			tampered.rawBody = Buffer.from(BODY.replace('"total":121', '"total":122'));
			expectRefused(
				await deliver(activeNode({ signatureScheme: scheme }), tampered),
				'signature does not match',
			);
		});

		test('the same JSON re-serialised (different bytes) is refused', async () => {
			const reserialised = delivery();
			reserialised.rawBody = Buffer.from(JSON.stringify(event, null, 1));
			reserialised.body = event;
			expectRefused(
				await deliver(activeNode({ signatureScheme: scheme }), reserialised),
				'signature does not match',
			);
		});

		test('a wrong secret is refused', async () => {
			const testNode = activeNode(
				{ signatureScheme: scheme },
				withProduction({ secret: 'whsec_d3Jvbmctc2VjcmV0LW9mLWVub3VnaC1ieXRlcw==' }),
			);
			expectRefused(await deliver(testNode, delivery()), 'signature does not match');
		});

		test('no stored secret fails closed', async () => {
			expectRefused(
				await deliver(activeNode({ signatureScheme: scheme }, null), delivery()),
				'no signing secret is stored',
			);
			expectRefused(
				await deliver(
					activeNode({ signatureScheme: scheme }, withProduction({ secret: '' })),
					delivery(),
				),
				'no signing secret is stored',
			);
		});

		test('a request without rawBody fails closed, whatever req.body holds', async () => {
			const noRaw = { ...delivery(), rawBody: undefined, body: event };
			expectRefused(
				await deliver(activeNode({ signatureScheme: scheme }), noRaw),
				'the raw request body is not available',
			);
		});
	});

	test('stale and future timestamps are refused; the tolerance option widens the window', async () => {
		const named = { signatureScheme: 'standardWebhooks' };
		expectRefused(
			await deliver(activeNode(named), standard(BODY, SECRET, NOW - 301)),
			'timestamp too old',
		);
		expectRefused(
			await deliver(activeNode(named), standard(BODY, SECRET, NOW + 301)),
			'timestamp in the future',
		);
		// Auto does not hash a content whose timestamp is outside the window
		expectRefused(
			await deliver(activeNode(), standard(BODY, SECRET, NOW - 301)),
			'signature does not match (and timestamp too old',
		);
		const stripeStale = {
			headers: { 'stripe-signature': stripeSignature(SECRET, NOW - 900, BODY) },
			rawBody: Buffer.from(BODY),
		};
		expectRefused(
			await deliver(activeNode({ signatureScheme: 'stripe' }), stripeStale),
			'timestamp too old',
		);
		expectStarted(
			await deliver(
				activeNode({ signatureScheme: 'stripe', timestampTolerance: 1000 }),
				stripeStale,
			),
		);
	});

	test('missing and malformed headers are refused', async () => {
		expectRefused(
			await deliver(activeNode(), { headers: {}, rawBody: Buffer.from(BODY) }),
			'missing signature header (no header name contains "signature")',
		);
		const noId = standard();
		delete (noId.headers as Record<string, string>)['webhook-id'];
		expectRefused(
			await deliver(activeNode({ signatureScheme: 'standardWebhooks' }), noId),
			'missing webhook-id header',
		);
		const malformed = standard();
		(malformed.headers as Record<string, string>)['webhook-signature'] = 'v1;abc';
		expectRefused(
			await deliver(activeNode({ signatureScheme: 'standardWebhooks' }), malformed),
			'malformed webhook-signature header',
		);
		expectRefused(
			await deliver(activeNode(), malformed),
			'malformed webhook-signature header: no HMAC-SHA256 value in hex or base64',
		);
		expectRefused(
			await deliver(activeNode({ signatureScheme: 'github' }), {
				headers: { 'x-hub-signature-256': 'md5=abc' },
				rawBody: Buffer.from(BODY),
			}),
			'malformed X-Hub-Signature-256 header',
		);
	});

	test('several signatures (rotation) with one valid are accepted', async () => {
		const rotated = standard();
		const headers = rotated.headers as Record<string, string>;
		headers['webhook-signature'] =
			`v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}`;
		expectStarted(await deliver(activeNode(), rotated));
		const stripeRotated = {
			headers: {
				'stripe-signature': `${stripeSignature(SECRET, NOW, BODY)},v1=${'0'.repeat(64)}`.replace(
					`t=${NOW},`,
					`t=${NOW},v1=${'f'.repeat(64)},`,
				),
			},
			rawBody: Buffer.from(BODY),
		};
		expectStarted(await deliver(activeNode({ signatureScheme: 'stripe' }), stripeRotated));
	});

	test('a signature header that arrived twice (joined by Node, or as an array) starts the workflow when one entry is genuine', async () => {
		const old = `v1,${Buffer.alloc(32, 3).toString('base64')}`;
		for (const scheme of ['standardWebhooks', 'auto']) {
			const delivery = standard();
			const headers = delivery.headers as Record<string, string | string[]>;
			const genuine = String(headers['webhook-signature']);
			for (const twice of [
				`${genuine}, ${old}`,
				`${old}, ${genuine}`,
				[genuine, old],
				[old, genuine],
			]) {
				headers['webhook-signature'] = twice;
				expect(
					expectStarted(await deliver(activeNode({ signatureScheme: scheme }), delivery)),
				).toEqual([{ ...event, deliveryId: 'msg_1' }]);
			}
		}
		const github = {
			headers: {
				'x-hub-signature-256': `${githubSignature(SECRET, BODY)}, sha256=${'0'.repeat(64)}`,
			},
			rawBody: Buffer.from(BODY),
		};
		expectStarted(await deliver(activeNode({ signatureScheme: 'github' }), github));
		const stripe = {
			headers: {
				'stripe-signature': [`t=${NOW},v1=${'0'.repeat(64)}`, stripeSignature(SECRET, NOW, BODY)],
			},
			rawBody: Buffer.from(BODY),
		};
		expectStarted(await deliver(activeNode({ signatureScheme: 'stripe' }), stripe));
	});

	test('a configured signature header is used', async () => {
		const delivery = {
			headers: { 'X-BO-Signature': githubSignature(SECRET, BODY) },
			rawBody: Buffer.from(BODY),
		};
		expectStarted(
			await deliver(
				activeNode({ signatureScheme: 'github', signatureHeader: 'X-BO-Signature' }),
				delivery,
			),
		);
		expectRefused(
			await deliver(activeNode({ signatureScheme: 'github' }), delivery),
			'missing X-Hub-Signature-256 header',
		);
	});

	test('None accepts unsigned deliveries, even with nothing stored', async () => {
		const items = expectStarted(
			await deliver(activeNode({ signatureScheme: 'none' }, null), {
				headers: {},
				rawBody: Buffer.from(BODY),
			}),
		);
		expect(items).toEqual([{ ...event, deliveryId: 'evt_42' }]);
	});

	test('an event type not chosen answers 200 (webhookResponse) and starts nothing', async () => {
		const other = JSON.stringify({ ...event, type: 'invoice.sent' });
		const run = await deliver(activeNode(), standard(other));
		expect(run.status).toBeUndefined();
		expect(run.result.workflowData).toBeUndefined();
		expect(run.result.noWebhookResponse).toBeUndefined();
		expect(run.result.webhookResponse).toEqual({
			received: true,
			ignored: 'event type not selected: invoice.sent',
		});
	});

	test('a verified body that is not a JSON object answers 400 and starts nothing', async () => {
		const run = await deliver(activeNode(), standard('[1,2]'));
		expect(run.status).toBe(400);
		expect(run.result).toEqual({ noWebhookResponse: true });
	});

	test('the output is { id, type, timestamp, data }; the id falls back to the webhook-id header', async () => {
		const withoutId: IDataObject = { ...event };
		delete withoutId.id;
		const body = JSON.stringify(withoutId);
		const [item] = expectStarted(await deliver(activeNode(), standard(body)));
		expect(item).toEqual({ ...event, id: 'msg_1', deliveryId: 'msg_1' });
		expect(Object.keys(item)).toEqual(['id', 'deliveryId', 'type', 'timestamp', 'data']);
	});

	test('a test event (POST /webhooks/{id}/test) keeps its test flag', async () => {
		const body = JSON.stringify({ ...event, test: true });
		const [item] = expectStarted(await deliver(activeNode(), standard(body)));
		expect(item).toEqual({ ...event, deliveryId: 'msg_1', test: true });
	});

	test.each<[string, unknown, boolean]>([
		['true', true, true],
		['the text "true"', 'true', false],
		['the text "TRUE"', 'TRUE', false],
		['the text "false"', 'false', false],
		['1', 1, false],
		['0', 0, false],
		['false', false, false],
		['null', null, false],
	])('a body whose "test" is %s (%p) marks a test event: %p', async (_what, test, marked) => {
		const body = JSON.stringify({ ...event, test });
		const [item] = expectStarted(await deliver(activeNode(), standard(body)));
		// the API's JSON is read as JSON: only the boolean true marks a test event
		expect(item).toEqual(
			marked ? { ...event, deliveryId: 'msg_1', test: true } : { ...event, deliveryId: 'msg_1' },
		);
	});

	test('Include Headers adds the request headers, without Authorization and Cookie', async () => {
		const delivery = standard();
		Object.assign(delivery.headers, {
			'X-Business-Ops-Event': 'invoice.paid',
			Authorization: 'Bearer something',
			Cookie: 'n8n-auth=abc',
		});
		const [item] = expectStarted(await deliver(activeNode({ includeHeaders: true }), delivery));
		expect(item.headers).toEqual({
			'content-type': 'application/json',
			'webhook-id': 'msg_1',
			'webhook-timestamp': String(NOW),
			'webhook-signature': (delivery.headers as Record<string, string>)['webhook-signature'],
			'x-business-ops-event': 'invoice.paid',
		});
		const [plain] = expectStarted(await deliver(activeNode(), standard()));
		expect(plain.headers).toBeUndefined();
	});

	test('the secret appears in no output, response, error or log line', async () => {
		const outputs: unknown[] = [];
		const github = {
			headers: { 'x-hub-signature-256': githubSignature(SECRET, BODY) },
			rawBody: Buffer.from(BODY),
		};
		const stripe = {
			headers: { 'stripe-signature': stripeSignature(SECRET, NOW, BODY) },
			rawBody: Buffer.from(BODY),
		};
		const deliveries: Array<[IDataObject, FakeDelivery]> = [
			[{ includeHeaders: true }, standard()],
			[{ includeHeaders: true }, github],
			[{ includeHeaders: true }, stripe],
			[{}, { ...standard(), rawBody: Buffer.from(`${BODY} `) }],
			[{}, standard(BODY, 'whsec_d3Jvbmctc2VjcmV0LW9mLWVub3VnaC1ieXRlcw==')],
			[{}, standard(BODY, SECRET, NOW - 900)],
			[{ signatureScheme: 'stripe' }, github],
			[{}, standard(JSON.stringify({ ...event, type: 'quote.created' }))],
			[{}, { headers: {}, rawBody: Buffer.from(BODY) }],
		];
		for (const [options, delivery] of deliveries) {
			const run = await deliver(activeNode(options), delivery);
			outputs.push(run.result, run.sent);
		}
		const errors: unknown[] = [];
		noneLeftBehind(2);
		nock(API)
			.post('/v1/webhooks')
			.reply(201, { data: { id: 'whk_5', url: PROD_URL, events: EVENTS } })
			.delete('/v1/webhooks/whk_5')
			.reply(200, {})
			.post('/v1/webhooks')
			.reply(201, newSubscription('whk_6'))
			.get('/v1/webhooks/whk_6')
			.reply(200, { data: { id: 'whk_6', url: PROD_URL, events: ['invoice.paid'], active: true } })
			.patch('/v1/webhooks/whk_6')
			.reply(500, { error: { code: 'internal_error', message: 'boom' } });
		errors.push(await runWebhookMethod(trigger, makeNode(), 'create').catch((e: Error) => e));
		const created = makeNode();
		await runWebhookMethod(trigger, created, 'create');
		errors.push(await runWebhookMethod(trigger, created, 'checkExists').catch((e: Error) => e));
		expect(errors.every((e) => e instanceof Error)).toBe(true);

		const everything = JSON.stringify({
			outputs,
			errors: errors.map((e) => ({
				...(e as object),
				message: (e as Error).message,
				stack: (e as Error).stack,
			})),
			logs: logs.lines,
		});
		// 4 forms learned (one a workflow), 5 refusals (one a workflow), 1 type not chosen; the lifecycle's
		// failed PATCH logs nothing (its error is the activation error)
		expect(logs.lines).toHaveLength(10);
		for (const secret of [
			SECRET,
			SECRET.slice('whsec_'.length),
			'd3Jvbmctc2VjcmV0LW9mLWVub3VnaC1ieXRlcw==',
		]) {
			expect(everything).not.toContain(secret);
		}
	});

	test('refusals are logged with their reason (never with the secret)', async () => {
		await deliver(activeNode(), standard(BODY, 'whsec_d3Jvbmctc2VjcmV0LW9mLWVub3VnaC1ieXRlcw=='));
		expect(logs.lines).toContainEqual(
			expect.objectContaining({
				level: 'warn',
				message: expect.stringMatching(
					/^Business Ops Trigger "Business Ops Trigger" \(workflow workflow-delivery-\d+\) refused a delivery with HTTP 401: signature does not match\. Further refusals of this trigger for a signature that does not match are not logged for a minute\.$/,
				),
			}),
		);
	});
});

describe('webhook(): event types, refusals, delivery ids, the sealed secret', () => {
	const data = { id: 'inv_7', status: 'paid' };

	beforeEach(() => {
		jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000);
	});

	const node = (
		options: IDataObject = {},
		staticData: IDataObject = withProduction(),
		extra: Partial<Parameters<typeof createTriggerNode>[2]> = {},
	) =>
		ownWorkflow(
			createTriggerNode(
				trigger,
				{ events: EVENTS, options: options as INodeParameters },
				{ staticData, ...extra },
			),
		);
	const signedBody = (
		body: IDataObject,
		headers: Record<string, string> = {},
		secret = SECRET,
	): FakeDelivery => {
		const raw = JSON.stringify(body);
		return {
			headers: { ...standardHeaders(secret, 'msg_7', NOW, raw), ...headers },
			rawBody: Buffer.from(raw),
		};
	};
	const warnings = () =>
		logs.lines.filter((line) => line.level === 'warn').map((line) => line.message);

	test.each<[string, IDataObject, Record<string, string>, IDataObject]>([
		['event', { id: 'evt_1', event: 'invoice.paid', data }, {}, {}],
		['eventType', { id: 'evt_1', eventType: 'invoice.paid', data }, {}, {}],
		['event_type', { id: 'evt_1', event_type: 'invoice.paid', data }, {}, {}],
		[
			'the X-Business-Ops-Event header',
			{ id: 'evt_1', data },
			{ 'X-Business-Ops-Event': 'invoice.paid' },
			{},
		],
		['an X-Event-Type header', { id: 'evt_1', data }, { 'X-Event-Type': 'invoice.paid' }, {}],
		[
			'a custom field path',
			{ id: 'evt_1', meta: { eventName: 'invoice.paid' }, type: 'ignored-by-path', data },
			{},
			{ eventTypeField: 'meta.eventName' },
		],
	])('the event type is read from %s', async (_where, body, headers, options) => {
		const [item] = (await runWebhook(trigger, node(options), signedBody(body, headers))).result
			.workflowData![0];
		expect(item.json).toMatchObject({ id: 'evt_1', type: 'invoice.paid', data });
		expect(item.json.typeUnknown).toBeUndefined();
	});

	test('the record is read from data, else payload, else the whole body', async () => {
		const fromPayload = await runWebhook(
			trigger,
			node(),
			signedBody({ type: 'invoice.paid', payload: data }),
		);
		expect(fromPayload.result.workflowData![0][0].json.data).toEqual(data);
		const flat = { type: 'invoice.paid', invoiceId: 'inv_7' };
		const whole = await runWebhook(trigger, node(), signedBody(flat));
		expect(whole.result.workflowData![0][0].json.data).toEqual(flat);
	});

	test('a verified delivery whose type cannot be read starts the workflow, marked, with a warning', async () => {
		const run = await runWebhook(trigger, node(), signedBody({ id: 'evt_2', data }));
		expect(run.result.workflowData![0][0].json).toMatchObject({
			id: 'evt_2',
			type: null,
			typeUnknown: true,
			data,
		});
		expect(warnings()).toEqual([
			expect.stringContaining('could not read the event type of a verified delivery'),
		]);
	});

	test('a type not chosen is answered 200 and logged at warn level with its type and where it was read', async () => {
		const testNode = node();
		const run = await runWebhook(
			trigger,
			testNode,
			signedBody({ id: 'evt_3', data }, { 'X-Event-Type': 'agent.paused' }),
		);
		expect(run.result).toEqual({
			webhookResponse: { received: true, ignored: 'event type not selected: agent.paused' },
		});
		expect(warnings()).toEqual([
			`Business Ops Trigger "Business Ops Trigger" (workflow ${testNode.workflow.id}) answered 200 and ignored a delivery of event type "agent.paused" (read from header x-event-type (not signed)): it is not among the chosen events. Further such lines of this trigger are not logged for a minute.`,
		]);
	});

	test('a delivery while Event Names cannot be read: the error says to change the field, not to publish again', async () => {
		const testNode = ownWorkflow(
			createTriggerNode(
				trigger,
				{ events: [null] as unknown as string[] },
				{ staticData: withProduction() },
			),
		);
		await expect(
			runWebhook(trigger, testNode, signedBody({ id: 'evt_4', type: 'invoice.paid', data })),
		).rejects.toMatchObject({
			message:
				'Event Names or IDs: entry 1 of the list must be an event type (text); the expression gave null. Change the field.',
		});
	});

	test('a refusal writes nothing; its reason is logged at most once a minute per trigger and kind of reason', async () => {
		const testNode = node();
		const staticData = () => JSON.stringify(testNode.workflow.getStaticData('node', testNode.node));
		const before = staticData();
		const forged = signedBody(
			{ type: 'invoice.paid' },
			{},
			'whsec_d3Jvbmctc2VjcmV0LW9mLWVub3VnaC1ieXRlcw==',
		);
		for (let i = 0; i < 5; i++) await runWebhook(trigger, testNode, forged);
		for (let i = 0; i < 5; i++)
			await runWebhook(trigger, testNode, { headers: {}, rawBody: Buffer.from('{}') });
		expect(warnings()).toEqual([
			expect.stringContaining('refused a delivery with HTTP 401: signature does not match.'),
			expect.stringContaining(
				'refused a delivery with HTTP 401: missing signature header (no header name contains "signature"). Further refusals of this trigger for a missing or malformed signature header are not logged for a minute.',
			),
		]);
		jest.spyOn(Date, 'now').mockReturnValue((NOW + 59) * 1000);
		await runWebhook(trigger, testNode, { headers: {}, rawBody: Buffer.from('{}') });
		expect(warnings()).toHaveLength(2);
		jest.spyOn(Date, 'now').mockReturnValue((NOW + 60) * 1000);
		await runWebhook(trigger, testNode, { headers: {}, rawBody: Buffer.from('{}') });
		expect(warnings()).toHaveLength(3);
		expect(warnings()[2]).toContain(
			'refused a delivery with HTTP 401: missing signature header (no header name contains "signature")',
		);
		expect(staticData()).toBe(before);
		expect(testNode.workflow.getStaticData('node', testNode.node).__dataChanged).not.toBe(true);
	});

	test('junk sent once a minute never keeps the reason a genuine delivery fails out of the log; header names a request chooses add no line', async () => {
		const testNode = node();
		const oldKey = 'whsec_d3Jvbmctc2VjcmV0LW9mLWVub3VnaC1ieXRlcw==';
		const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data });
		for (let minute = 0; minute < 3; minute++) {
			const at = NOW + minute * 60;
			jest.spyOn(Date, 'now').mockReturnValue(at * 1000);
			// a stranger's junk, first each minute, under header names it chooses
			for (let i = 0; i < 20; i++) {
				await runWebhook(trigger, testNode, {
					headers: { [`x-${minute}-${i}-signature`]: 'nonsense' },
					rawBody: Buffer.from('{}'),
				});
				await runWebhook(trigger, testNode, { headers: {}, rawBody: Buffer.from('{}') });
			}
			// the API's delivery, signed with a key this subscription no longer has
			jest.spyOn(Date, 'now').mockReturnValue((at + 10) * 1000);
			const genuine = await runWebhook(trigger, testNode, {
				headers: standardHeaders(oldKey, `msg_${minute}`, at + 10, raw),
				rawBody: Buffer.from(raw),
			});
			expect(genuine.status).toBe(401);
		}
		const lines = warnings();
		expect(
			lines.filter((line) => line.includes('HTTP 401: signature does not match')),
		).toHaveLength(3);
		// one line a minute for all the junk, whatever header names it chose
		expect(lines.filter((line) => line.includes('HTTP 401: malformed x-'))).toHaveLength(3);
		expect(lines).toHaveLength(6);
	});

	test('the form a delivery verified under is logged once per workflow, with how to set it by hand', async () => {
		const testNode = node();
		const headers = {
			'X-Api-Signature': githubSignature(SECRET, JSON.stringify({ type: 'invoice.paid' })),
		};
		for (let i = 0; i < 3; i++) {
			const raw = JSON.stringify({ type: 'invoice.paid' });
			expect(
				(await runWebhook(trigger, testNode, { headers, rawBody: Buffer.from(raw) })).result
					.workflowData,
			).toBeDefined();
		}
		const infos = logs.lines.filter((line) => line.level === 'info').map((line) => line.message);
		expect(infos).toEqual([
			`Business Ops Trigger "Business Ops Trigger" (workflow ${testNode.workflow.id}): deliveries verify under Auto as header x-api-signature, value sha256=<hex>, HMAC-SHA256 of {body}, key the whole secret. To set it by hand, choose Signature Scheme "Custom" with: header x-api-signature, prefix "sha256=", encoding hex, signed content {body}, key Whole Secret, algorithm SHA-256.`,
		]);
	});

	test('Ignore Repeated Deliveries: a delivery id accepted within the window is answered 200 once more, not run', async () => {
		const staticData = withProduction();
		const testNode = node({ ignoreRepeatedDeliveries: true }, structuredClone(staticData));
		const delivery = signedBody({ id: 'evt_5', type: 'invoice.paid', data });
		expect(
			(await runWebhook(trigger, testNode, delivery)).result.workflowData![0][0].json.deliveryId,
		).toBe('msg_7');
		expect((await runWebhook(trigger, testNode, delivery)).result).toEqual({
			webhookResponse: { received: true, ignored: 'repeated delivery: msg_7' },
		});
		// without the option (the default) a retry runs again
		const plain = node({}, structuredClone(staticData));
		plain.workflow.id = testNode.workflow.id;
		expect((await runWebhook(trigger, plain, delivery)).result.workflowData).toBeDefined();
		// with a signed timestamp too, the id outlives the window: the same message signed anew 10 minutes later is still a repeat
		jest.spyOn(Date, 'now').mockReturnValue((NOW + 601) * 1000);
		const raw = JSON.stringify({ id: 'evt_5', type: 'invoice.paid', data });
		const later = {
			headers: standardHeaders(SECRET, 'msg_7', NOW + 601, raw),
			rawBody: Buffer.from(raw),
		};
		expect((await runWebhook(trigger, testNode, later)).result).toEqual({
			webhookResponse: { received: true, ignored: 'repeated delivery: msg_7' },
		});
	});

	test.each([['standardWebhooks'], ['auto']])(
		"Ignore Repeated Deliveries under %s: the API's own retries of a message, each signed anew with a fresh timestamp, never run it again",
		async (signatureScheme) => {
			const testNode = node({ ignoreRepeatedDeliveries: true, signatureScheme });
			const raw = JSON.stringify({ id: 'evt_retried', type: 'invoice.paid', data });
			const sentAt = (seconds: number): FakeDelivery => ({
				headers: standardHeaders(SECRET, 'msg_1', seconds, raw),
				rawBody: Buffer.from(raw),
			});
			expect(
				(await runWebhook(trigger, testNode, sentAt(NOW))).result.workflowData![0][0].json
					.deliveryId,
			).toBe('msg_1');
			// Standard Webhooks' and Svix's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the attempt before
			let at = NOW;
			for (const wait of [5, 300, 1800, 7200, 18_000, 36_000, 36_000]) {
				at += wait;
				jest.spyOn(Date, 'now').mockReturnValue(at * 1000);
				const retry = await runWebhook(trigger, testNode, sentAt(at));
				expect([wait, retry.result]).toEqual([
					wait,
					{ webhookResponse: { received: true, ignored: 'repeated delivery: msg_1' } },
				]);
			}
			// another message of the same subscription still runs
			const other = JSON.stringify({ id: 'evt_other', type: 'invoice.paid', data });
			const next = {
				headers: standardHeaders(SECRET, 'msg_2', at, other),
				rawBody: Buffer.from(other),
			};
			expect(
				(await runWebhook(trigger, testNode, next)).result.workflowData![0][0].json.deliveryId,
			).toBe('msg_2');
		},
	);

	test('the repeat key comes from signed data only: a changed or missing webhook-id does not make a body-only delivery new (point 3)', async () => {
		const testNode = node({ ignoreRepeatedDeliveries: true, signatureScheme: 'github' });
		const raw = JSON.stringify({ id: 'evt_gh', type: 'invoice.paid', data });
		const signature = { 'x-hub-signature-256': githubSignature(SECRET, raw) };
		const runs: unknown[] = [];
		for (const extra of [
			{},
			{ 'webhook-id': 'a' },
			{ 'webhook-id': 'b' },
			{ 'x-business-ops-delivery': 'c' },
			{},
		] as Array<Record<string, string>>) {
			const run = await runWebhook(trigger, testNode, {
				headers: { ...signature, ...extra },
				rawBody: Buffer.from(raw),
			});
			runs.push(run.result.workflowData ? 'ran' : run.result.webhookResponse);
		}
		expect(runs).toEqual([
			'ran',
			...Array(4).fill({ received: true, ignored: 'repeated delivery: evt_gh' }),
		]);
		// a signature over the body alone never expires, so neither does the id (only the bound of 10,000 per trigger drops it)
		jest.spyOn(Date, 'now').mockReturnValue((NOW + 30 * 86_400) * 1000);
		expect(
			(await runWebhook(trigger, testNode, { headers: signature, rawBody: Buffer.from(raw) }))
				.result.workflowData,
		).toBeUndefined();
	});

	test('an event type read from a header is marked as unsigned in the output (point 5)', async () => {
		const run = await runWebhook(
			trigger,
			node(),
			signedBody({ id: 'evt_h', data }, { 'X-Business-Ops-Event': 'invoice.paid' }),
		);
		expect(run.result.workflowData![0][0].json).toMatchObject({
			type: 'invoice.paid',
			typeFromUnsignedHeader: 'x-business-ops-event',
		});
		const fromBody = await runWebhook(
			trigger,
			node(),
			signedBody(
				{ id: 'evt_b', type: 'invoice.paid', data },
				{ 'X-Business-Ops-Event': 'quote.approved' },
			),
		);
		expect(fromBody.result.workflowData![0][0].json.type).toBe('invoice.paid');
		expect(fromBody.result.workflowData![0][0].json.typeFromUnsignedHeader).toBeUndefined();
	});

	test('a tolerance that is not a number: activation fails naming the field, deliveries are refused (point 4)', async () => {
		const bad = node({ timestampTolerance: '5m' });
		await expect(runWebhookMethod(trigger, bad, 'create')).rejects.toThrow(
			/^"Timestamp Tolerance \(Seconds\)" must be a number of seconds, 0 or more, e\.g\. 300 \(it is "5m"\)/,
		);
		await expect(
			runWebhookMethod(trigger, node({ timestampTolerance: -1 }), 'create'),
		).rejects.toThrow('Timestamp Tolerance');
		const raw = JSON.stringify({ type: 'invoice.paid' });
		const yearOld = {
			headers: { 'stripe-signature': stripeSignature(SECRET, NOW - 365 * 86_400, raw) },
			rawBody: Buffer.from(raw),
		};
		const run = await runWebhook(trigger, bad, yearOld);
		expect(run.status).toBe(401);
		expect(run.result.workflowData).toBeUndefined();
	});

	test('a clear secret (never released) is not used: refused as no secret stored', async () => {
		const clear = {
			'node:Business Ops Trigger': {
				subscriptions: {
					production: { id: 'whk_1', url: PROD_URL, events: EVENTS, secret: SECRET },
				},
			},
		};
		const testNode = node({}, clear);
		const run = await runWebhook(trigger, testNode, signedBody({ type: 'invoice.paid' }));
		expect(run.status).toBe(401);
		expect(warnings().at(-1)).toContain('no signing secret is stored');
		expect(subscriptions(testNode)).toEqual(clear['node:Business Ops Trigger'].subscriptions);
	});

	test('after the API key changed: refused with a reason that says to republish; the next activation subscribes anew', async () => {
		const otherKey = {
			apiKey: 'svc_' + 'Zz9yXw8vUt7sRq6pOn5mLk4jIh3gFe2d',
			baseUrl: 'https://api.business-ops.test/v1',
		};
		const testNode = node({}, withProduction(), { credentials: otherKey });
		const run = await runWebhook(trigger, testNode, signedBody({ type: 'invoice.paid' }));
		expect(run.status).toBe(401);
		expect(run.sent).toEqual(REFUSED);
		expect(warnings().at(-1)).toMatch(
			/does not open with this credential's API key .*unpublish and publish the workflow \(deactivate and activate it in n8n 1\.x\) to subscribe anew/,
		);
		expect(run.result.workflowData).toBeUndefined();

		noneLeftBehind();
		const scope = resubscribed('whk_2', TEST_SECRET);
		expect(await activateTrigger(trigger, testNode)).toEqual({ existed: false });
		expect(scope.isDone()).toBe(true);
		const record = subscriptions(testNode).production as IDataObject;
		expect(openSecret(String(record.sealedSecret), otherKey.apiKey, 'whk_2')).toBe(TEST_SECRET);
		// the publisher is told why the old one goes, not to republish while the new one is being made
		const told = logs.lines.map((line) => line.message).filter((m) => m.includes('does not open'));
		expect(told.at(-1)).toMatch(
			/since the workflow was published\); a new one is made when needed\)$/,
		);
		expect(told.at(-1)).not.toMatch(/unpublish and publish/);
	});

	test('a secret opened once is kept by this n8n process: deliveries keep verifying after the key changed, until the next activation', async () => {
		const otherKey = {
			apiKey: 'svc_' + 'Qq1wEe2rTt3yUu4iOo5pAa6sDd7fGg8h',
			baseUrl: 'https://api.business-ops.test/v1',
		};
		const staticData = withProduction();
		const before = node({}, structuredClone(staticData));
		expect(
			(await runWebhook(trigger, before, signedBody({ type: 'invoice.paid' }))).result.workflowData,
		).toBeDefined();
		// the credential now holds another key: the secret this process opened still verifies (it is still the subscription's)
		const after = node({}, structuredClone(staticData), { credentials: otherKey });
		after.workflow.id = before.workflow.id;
		expect(
			(await runWebhook(trigger, after, signedBody({ type: 'invoice.paid' }))).result.workflowData,
		).toBeDefined();
		// the lifecycle always reads the credential: the next activation subscribes anew
		noneLeftBehind();
		const scope = resubscribed('whk_3', TEST_SECRET);
		expect(await activateTrigger(trigger, after)).toEqual({ existed: false });
		expect(scope.isDone()).toBe(true);
	});

	test('published again, the API gives the new subscription the old id with a new secret: deliveries signed with the new secret run', async () => {
		const testNode = node({}, withProduction());
		expect(
			(await runWebhook(trigger, testNode, signedBody({ type: 'invoice.paid' }))).result
				.workflowData,
		).toBeDefined();
		noneLeftBehind();
		const scope = resubscribed('whk_1', TEST_SECRET);
		expect(await deactivateTrigger(trigger, testNode)).toBe(true);
		expect(await activateTrigger(trigger, testNode)).toEqual({ existed: false });
		expect(scope.isDone()).toBe(true);
		const delivery = signedBody({ type: 'invoice.paid' }, {}, TEST_SECRET);
		expect((await runWebhook(trigger, testNode, delivery)).result.workflowData).toBeDefined();
	});

	test('Custom: a delivery signed the configured way runs; bad settings stop the activation with what to fix', async () => {
		const settings = {
			header: 'X-Sig',
			prefix: 'sha256=',
			encoding: 'hex',
			signedContent: '{timestamp}.{body}',
			key: 'secret',
			timestampHeader: 'X-Sig-Time',
		};
		const customNode = (values: IDataObject) =>
			createTriggerNode(
				trigger,
				{
					events: EVENTS,
					options: {
						signatureScheme: 'custom',
						customSignature: { settings: values },
					} as INodeParameters,
				},
				{ staticData: withProduction() },
			);
		const testNode = customNode(settings);
		const raw = JSON.stringify({ type: 'invoice.paid' });
		const sig = stripeSignature(SECRET, NOW, raw).split('v1=')[1];
		const headers = { 'X-Sig': `sha256=${sig}`, 'X-Sig-Time': String(NOW) };
		const run = await runWebhook(trigger, testNode, { headers, rawBody: Buffer.from(raw) });
		expect(run.sent).toBeUndefined();
		expect(run.result.workflowData).toBeDefined();
		const tampered = await runWebhook(trigger, testNode, {
			headers,
			rawBody: Buffer.from(`${raw} `),
		});
		expect(tampered.status).toBe(401);

		const bad = customNode({ ...settings, signedContent: '{timestamp}' });
		await expect(runWebhookMethod(trigger, bad, 'create')).rejects.toThrow(
			'Custom signature: "Signed Content" must contain {body} exactly once',
		);
	});
});

describe('webhook(): a request whose signature has not verified changes nothing (issue 29)', () => {
	beforeEach(() => {
		jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000);
	});

	/** A workflow of its own: a trigger this process has not learned anything about yet. */
	const node = (options: IDataObject = {}) =>
		ownWorkflow(
			createTriggerNode(
				trigger,
				{ events: EVENTS, options: options as INodeParameters },
				{ staticData: withProduction() },
			),
		);
	const raw = (id: string) => JSON.stringify({ id, type: 'invoice.paid', data: { id: 'inv_1' } });
	const standardDelivery = (id: string, at = NOW): FakeDelivery => ({
		headers: standardHeaders(SECRET, id, at, raw(id)),
		rawBody: Buffer.from(raw(id)),
	});
	const githubDelivery = (id: string): FakeDelivery => ({
		headers: { 'x-hub-signature-256': githubSignature(SECRET, raw(id)) },
		rawBody: Buffer.from(raw(id)),
	});
	const renamed = (headers: Record<string, string | string[]>, from: string, to: string) => {
		const { [from]: value, ...rest } = headers;
		return { ...rest, [to]: value };
	};
	const ran = async (testNode: TestNode, delivery: FakeDelivery) =>
		(await runWebhook(trigger, testNode, delivery)).result.workflowData !== undefined;

	test.each<[string, (genuine: FakeDelivery) => FakeDelivery, (id: string) => FakeDelivery]>([
		[
			'signature header renamed',
			(d) => ({ ...d, headers: renamed(d.headers, 'webhook-signature', 'x-poison-signature') }),
			standardDelivery,
		],
		[
			'id header renamed',
			(d) => ({ ...d, headers: renamed(d.headers, 'webhook-id', 'x-attacker-delivery-id') }),
			standardDelivery,
		],
		[
			'GitHub-style prefix dropped',
			(d) => ({
				...d,
				headers: {
					'x-hub-signature-256': String(d.headers['x-hub-signature-256']).slice('sha256='.length),
				},
			}),
			githubDelivery,
		],
		[
			'extra proxy id headers',
			(d) => ({
				...d,
				headers: {
					'x-request-id': 'r-1',
					'x-vercel-id': 'fra1::x',
					'x-poison-id': 'p',
					...d.headers,
				},
			}),
			standardDelivery,
		],
		[
			'headers reordered',
			(d) => ({ ...d, headers: Object.fromEntries(Object.entries(d.headers).reverse()) }),
			standardDelivery,
		],
	])(
		'a genuine delivery replayed first with its %s never makes a later genuine delivery fail (item 1)',
		async (_aspect, change, genuine) => {
			const testNode = node();
			const staticData = JSON.stringify(testNode.workflow.getStaticData('node', testNode.node));
			// the replay verifies (its HMAC is genuine) and is accepted: it teaches nothing unsigned
			expect(await ran(testNode, change(genuine('evt_replayed')))).toBe(true);
			expect([
				await ran(testNode, genuine('evt_next_1')),
				await ran(testNode, genuine('evt_next_2')),
			]).toEqual([true, true]);
			expect(JSON.stringify(testNode.workflow.getStaticData('node', testNode.node))).toBe(
				staticData,
			);
		},
	);

	test('a Svix-style delivery with proxy id headers before svix-id and a whsec_ secret verifies, first and later (item 2)', async () => {
		const testNode = node();
		const svix = (id: string): FakeDelivery => {
			const {
				'webhook-id': svixId,
				'webhook-timestamp': ts,
				'webhook-signature': signature,
			} = standardHeaders(SECRET, id, NOW, raw(id));
			return {
				headers: {
					'x-vercel-id': 'fra1::iad1::abc',
					'x-arr-log-id': 'log-7',
					'x-request-id': 'r',
					'x-amzn-trace-id': 'Root=1',
					traceparent: '00-1-2-01',
					'cf-ray': '8a',
					'svix-id': svixId,
					'svix-timestamp': ts,
					'svix-signature': signature,
				},
				rawBody: Buffer.from(raw(id)),
			};
		};
		expect([await ran(testNode, svix('msg_1')), await ran(testNode, svix('msg_2'))]).toEqual([
			true,
			true,
		]);
	});

	test.each<[string, (id: string, at: number) => Record<string, string>, Record<string, string>]>([
		[
			'(a) X-Signature over {timestamp}.{body} with X-Signature-Timestamp, behind x-request-timestamp and x-edge-timestamp',
			(id, at) =>
				formHeaders(
					{
						header: 'X-Signature',
						value: 'sha256=hex',
						content: 'timestamp.body',
						key: 'secret',
						timestampHeader: 'X-Signature-Timestamp',
					},
					SECRET,
					id,
					at,
					raw(id),
				),
			{ 'x-request-timestamp': String(NOW - 3600), 'x-edge-timestamp': String(NOW) },
		],
		[
			'(b) {id}.{timestamp}.{body} with its id in X-Business-Ops-Id, behind X-Event-Id: bus-7f3a',
			(id, at) =>
				formHeaders(
					{
						header: 'X-Business-Ops-Signature',
						value: 'hex',
						content: 'id.timestamp.body',
						key: 'secret',
						timestampHeader: 'X-Business-Ops-Timestamp',
						idHeader: 'X-Business-Ops-Id',
					},
					SECRET,
					id,
					at,
					raw(id),
				),
			{ 'X-Event-Id': 'bus-7f3a' },
		],
	])('%s: verifies before and after Auto learned the form', async (_form, signed, proxies) => {
		const delivery = (id: string, withProxies: boolean): FakeDelivery => ({
			headers: withProxies ? { ...proxies, ...signed(id, NOW - 3) } : signed(id, NOW - 3),
			rawBody: Buffer.from(raw(id)),
		});
		// alone first (learned), then behind the proxy headers
		const learnedFirst = node();
		expect([
			await ran(learnedFirst, delivery('evt_alone', false)),
			await ran(learnedFirst, delivery('evt_behind', true)),
		]).toEqual([true, true]);
		// behind the proxy headers from the first delivery on
		const proxiedFirst = node();
		expect([
			await ran(proxiedFirst, delivery('evt_behind', true)),
			await ran(proxiedFirst, delivery('evt_behind_2', true)),
			await ran(proxiedFirst, delivery('evt_alone', false)),
		]).toEqual([true, true, true]);
	});

	test('a body made of "<id>.<timestamp>.<body>" verifies under {body} with a genuine signature, but is refused and teaches nothing', async () => {
		const testNode = node();
		const id = 'msg_trick';
		const { 'webhook-signature': signature } = standardHeaders(SECRET, id, NOW, raw(id));
		const trick = await runWebhook(trigger, testNode, {
			headers: { 'webhook-signature': signature },
			rawBody: Buffer.from(`${id}.${NOW}.${raw(id)}`),
		});
		expect([trick.status, trick.result.workflowData]).toEqual([400, undefined]);
		expect(await ran(testNode, standardDelivery('evt_after_trick'))).toBe(true);
	});

	test('once a signed form is learned, every genuine delivery in it verifies; another signed form is refused, naming the learned one', async () => {
		const testNode = node();
		expect(await ran(testNode, standardDelivery('evt_learn'))).toBe(true);
		const other = await runWebhook(trigger, testNode, githubDelivery('evt_other'));
		expect(other.status).toBe(401);
		expect(logs.lines.at(-1)?.message).toContain(
			'signature does not match (checked as HMAC-SHA256 of {ID}.{timestamp}.{body} with the base64 after whsec_',
		);
		expect(logs.lines.at(-1)?.message).toContain(
			'if the API changed how it signs, unpublish and publish the workflow: its new subscription learns again)',
		);
		// the same subscription under another trigger (another workflow) learns on its own
		expect(await ran(node(), githubDelivery('evt_other'))).toBe(true);
	});

	test.each([0, 1, 300])(
		'Ignore Repeated Deliveries with tolerance %i: a repeat that still verifies runs once (item 3)',
		async (tolerance) => {
			const testNode = node({ ignoreRepeatedDeliveries: true, timestampTolerance: tolerance });
			const delivery = standardDelivery('msg_repeat');
			expect(await ran(testNode, delivery)).toBe(true);
			// every moment the same signed delivery still verifies, it is ignored
			for (const later of [800, tolerance * 1000 + 999]) {
				jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000 + later);
				expect((await runWebhook(trigger, testNode, delivery)).result).toEqual({
					webhookResponse: { received: true, ignored: 'repeated delivery: msg_repeat' },
				});
			}
			// a second after that the window refuses it
			jest.spyOn(Date, 'now').mockReturnValue((NOW + tolerance + 1) * 1000);
			expect((await runWebhook(trigger, testNode, delivery)).status).toBe(401);
		},
	);

	test("a stranger's POST to the test URL does not end the listening: no throw, no output, the reason in the answer (item 4)", async () => {
		const testNode = node();
		for (const junk of <FakeDelivery[]>[
			{ headers: {}, rawBody: Buffer.from('junk') },
			{ headers: { 'x-signature': 'sha256=' + 'ab'.repeat(32) }, rawBody: Buffer.from('{}') },
		]) {
			const run = await runWebhook(trigger, testNode, junk, 'manual');
			expect([run.status, run.result]).toEqual([401, { noWebhookResponse: true }]);
			expect(run.sent).toEqual({ ...REFUSED, reason: expect.any(String) });
		}
		// a genuine test delivery still produces its event: 'test mode and production are kept apart'
	});

	test('300 forged deliveries write no static data and grow no store (item 5)', async () => {
		const testNode = node({ ignoreRepeatedDeliveries: true });
		expect(await ran(testNode, standardDelivery('evt_known'))).toBe(true);
		const staticData = testNode.workflow.getStaticData('node', testNode.node);
		const before = JSON.stringify(staticData);
		staticData.__dataChanged = false;
		const stored = jest.spyOn(BoundedMap.prototype, 'set');
		const warningsBefore = logs.lines.filter((line) => line.level === 'warn').length;
		for (let i = 0; i < 300; i++) {
			const id = `evt_forged_${i}`;
			const forged = standardDelivery(id);
			const headers: Record<string, string> = {
				...(forged.headers as Record<string, string>),
				'webhook-signature': `v1,${Buffer.alloc(32, i).toString('base64')}`,
			};
			headers[`x-${i.toString(36)}-signature`] = 'ab'.repeat(32);
			headers[`x-${i.toString(36)}-id`] = id;
			expect(
				(await runWebhook(trigger, testNode, { headers, rawBody: forged.rawBody })).status,
			).toBe(401);
		}
		expect(JSON.stringify(staticData)).toBe(before);
		expect(staticData.__dataChanged).toBe(false);
		expect(stored).not.toHaveBeenCalled();
		expect(logs.lines.filter((line) => line.level === 'warn').length - warningsBefore).toBe(1);
	});
});
