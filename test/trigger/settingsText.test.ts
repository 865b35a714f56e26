import { createHmac } from 'crypto';
import type { INodeParameters, IDataObject, INodeType } from 'n8n-workflow';
import nock from 'nock';
import {
	activateTrigger,
	createTriggerNode,
	runWebhook,
	runWebhookMethod,
	createTestNode,
} from '../harness/engine';
import {
	API,
	nodeWithWhk1,
	trigger,
	WEBHOOK_URL,
	useFastClockAndLogs,
	EVENTS,
	SIGNING,
} from './liveSubscription';
import { standardHeaders, atFixedTime } from './helpers';
import { schemeOf } from '../../nodes/BusinessOpsTrigger/signatures/verify';
import { BusinessOpsPollingTrigger } from '../../nodes/BusinessOpsPollingTrigger/BusinessOpsPollingTrigger.node';
import { BusinessOpsTrigger } from '../../nodes/BusinessOpsTrigger/BusinessOpsTrigger.node';

/** The API lists no subscription and subscribes (whk_2), handing each POST /webhooks body to `sent`; both optional. */
const subscribing = (sent: (body: nock.Body) => void) =>
	nock(API)
		.get('/v1/webhooks')
		.query(true)
		.optionally()
		.reply(200, { data: [], meta: { hasMore: false } })
		.post('/v1/webhooks')
		.optionally()
		.reply(201, (_uri, body) => {
			sent(body);
			return { data: { id: 'whk_2', signingSecret: SIGNING } };
		});

/** The API still holds subscription whk_1 for these events (activation's checkExists finds it). */
const subscriptionExists = (events: string[]) =>
	nock(API)
		.get('/v1/webhooks/whk_1')
		.reply(200, {
			data: {
				id: 'whk_1',
				name: 'n8n: Test workflow / Business Ops Trigger (workflow-1)',
				url: WEBHOOK_URL,
				events,
				active: true,
			},
		});

/**
 * Breaker b29: "Bad input gets a clear error that says what to fix" and "Ignore Repeated
 * Deliveries holds for every tolerance the field accepts (or the field refuses it at activation,
 * naming it)" (issue 29, common rules).
 *
 * The Timestamp Tolerance (and the Custom settings) are checked only in create(). When n8n
 * activates a workflow whose subscription already exists (n8n's start-up re-activation, or any
 * activation after a delete that failed), checkExists answers true, create never runs, and a
 * tolerance that is not a number of seconds ("5m" from an expression, a negative number) is
 * accepted silently: the workflow shows as active while every delivery is refused with 401, the
 * reason only in n8n's log once a minute.
 * Expected: the activation fails with the same message that create gives, naming the field.
 */
describe('trigger bad tolerance activates silently', () => {
	const EVENTS = ['invoice.paid', 'quote.approved'];
	useFastClockAndLogs();
	test.each<[string, unknown]>([
		['"5m" from an expression', '5m'],
		['a negative number', -1],
	])(
		'an existing subscription does not let a tolerance of %s through activation',
		async (_what, tolerance) => {
			subscriptionExists(EVENTS);
			const testNode = nodeWithWhk1(
				{ events: EVENTS, options: { timestampTolerance: tolerance } as INodeParameters },
				EVENTS,
			);
			// fails today: checkExists answers true, create (the only place the field is checked) never runs
			await expect(activateTrigger(trigger, testNode)).rejects.toThrow(
				/Timestamp Tolerance \(Seconds\)" must be a number of seconds/,
			);
		},
	);
});

/**
 * Breaker b29c: "expressions in trigger parameters that resolve to … text ("0", "false")" and the
 * package's boolean rule (asBoolean, typing.ts: true/false or the text "true"/"false"; anything else
 * refused naming the field), which the Business Ops node applies to its own booleans.
 *
 * The trigger reads its boolean options without it:
 * - Skip Reachability Check: only the boolean true counts. An expression giving the text "true"
 *   is ignored, and publishing fails telling the user to "turn on Options → Skip Reachability
 *   Check", which is on.
 * - Ignore Repeated Deliveries and Include Headers: any truthy value counts. An expression giving
 *   the text "false" turns them on: a genuine retry of a delivery is answered 200 and never runs,
 *   and the request headers go into the output.
 * Expected: "true"/"false" text read as the boolean rule reads them.
 */
describe('trigger boolean options from text', () => {
	const NOW = 1_800_000_000;
	useFastClockAndLogs();
	beforeEach(() => {
		jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000);
	});
	afterEach(() => {
		jest.restoreAllMocks();
	});
	test('Skip Reachability Check from an expression giving "true": publishing with a local webhook URL subscribes', async () => {
		const posts: unknown[] = [];
		subscribing((body) => posts.push(body));
		const node = createTriggerNode(
			trigger,
			{
				events: EVENTS,
				options: { skipReachabilityCheck: '={{ "true" }}' } as unknown as INodeParameters,
			},
			{ webhookBaseUrl: 'http://localhost:5678/' },
		);
		// fails today: "… turn on Options → Skip Reachability Check." although it is on
		await expect(runWebhookMethod(trigger, node, 'create')).resolves.toBe(true);
		expect(posts).toHaveLength(1);
	});
	function published(options: IDataObject) {
		return nodeWithWhk1({ events: EVENTS, options: options as INodeParameters });
	}
	function delivery() {
		const body = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: { id: 'inv_1' } });
		return {
			headers: {
				'content-type': 'application/json',
				'x-forwarded-for': '203.0.113.9',
				...standardHeaders(SIGNING, 'msg_1', NOW, body),
			},
			rawBody: Buffer.from(body),
		};
	}
	test('Ignore Repeated Deliveries from an expression giving "false": a retried delivery runs again', async () => {
		const node = published({ ignoreRepeatedDeliveries: '={{ "false" }}' });
		const first = await runWebhook(trigger, node, delivery());
		const retry = await runWebhook(trigger, node, delivery());
		expect(first.result.workflowData).toBeDefined();
		// fails today: { webhookResponse: { received: true, ignored: 'repeated delivery: msg_1' } }
		expect(retry.result.workflowData).toBeDefined();
	});
	test('Include Headers from an expression giving "false": no headers in the output', async () => {
		const node = published({ includeHeaders: '={{ "false" }}' });
		const run = await runWebhook(trigger, node, delivery());
		// fails today: the output carries the request headers
		expect(run.result.workflowData?.[0][0].json).not.toHaveProperty('headers');
	});
});

/**
 * Breaker (signatures rebuild): docs/signatures.md, Custom: "Settings that cannot work ... stop the
 * publishing with a message that says what to fix."
 *
 * customSignatureOf reads the Custom option fields (Algorithm, Signature Encoding, Signing Key)
 * as exact option values and puts the default in place of anything else: an expression giving
 * `SHA512`, `HMAC-SHA512` or `Base64` is silently read as HMAC-SHA256 / hex. The activation
 * succeeds and every genuine delivery is refused "signature does not match", a reason that says
 * nothing about the setting.
 * Expected: a value that is not one of the field's options stops the publishing and names the field.
 */
describe('trigger custom option text silently defaults', () => {
	const NOW = 1_700_000_000;
	atFixedTime(NOW);
	const EVENTS = ['invoice.paid'];
	test('an Algorithm of "SHA512" from an expression is not read as HMAC-SHA256 without a word', async () => {
		const settings = {
			header: 'X-Sig',
			prefix: '',
			encoding: 'hex',
			signedContent: '{body}',
			key: 'secret',
			algorithm: 'SHA512',
		};
		const testNode = nodeWithWhk1(
			{
				events: EVENTS,
				options: {
					signatureScheme: 'custom',
					customSignature: { settings },
				} as unknown as INodeParameters,
			},
			EVENTS,
		);
		const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
		const signature = createHmac('sha512', SIGNING).update(raw).digest('hex');
		// the API's genuine HMAC-SHA512 delivery is refused
		expect(
			(
				await runWebhook(trigger, testNode, {
					headers: { 'x-sig': signature },
					rawBody: Buffer.from(raw),
				})
			).status,
		).toBe(401);
		subscriptionExists(EVENTS);
		// fails today: the activation succeeds
		await expect(activateTrigger(trigger, testNode)).rejects.toThrow(/Algorithm/);
	});

	test('a Signature Scheme an expression resolved to nothing is Auto, as when left out; text is read trimmed', () => {
		expect(schemeOf(undefined)).toBe('auto');
		expect(schemeOf(null)).toBe('auto');
		expect(schemeOf(' github ')).toBe('github');
		expect(schemeOf('')).toEqual({
			problem: expect.stringMatching(/^"Signature Scheme" must be one of/),
		});
	});

	test('a Signature Scheme and an Algorithm with spaces around them pass the check and are read as checked', async () => {
		const settings = { header: 'X-Sig', signedContent: '{body}', algorithm: ' sha512 ' };
		const testNode = nodeWithWhk1(
			{
				events: EVENTS,
				options: {
					signatureScheme: ' custom ',
					customSignature: { settings },
				} as unknown as INodeParameters,
			},
			EVENTS,
		);
		subscriptionExists(EVENTS);
		await activateTrigger(trigger, testNode);
		const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
		const delivery = await runWebhook(trigger, testNode, {
			headers: { 'x-sig': createHmac('sha512', SIGNING).update(raw).digest('hex') },
			rawBody: Buffer.from(raw),
		});
		expect(delivery.status).toBeUndefined();
		expect(delivery.result.workflowData).toHaveLength(1);
	});
});

/**
 * Breaker b29c: "Event Names … checks at activation", "each concept has one owner" and "Bad
 * input gets a clear error that says what to fix … and loses nothing" (common rules).
 *
 * The Business Ops node's Event Names or IDs (Webhook → Create) reads an expression's value by
 * the rule of eventsField: "a, b" text is a list, entries are trimmed, and an entry that is not text (null, an
 * object) is refused naming it. The trigger's Event Names or IDs, the same field for the same API
 * call (POST /webhooks), is read by its own chosenEvents: text is dropped whole (publishing fails
 * with "Choose at least one event", although one was given), entries are not trimmed, and null or
 * an object is sent as the event type "null" or "[object Object]".
 * Expected: the trigger reads the field as the Webhook node does (one owner): text is a list,
 * entries trimmed, entries that are not text refused at activation naming the field; nothing sent
 * then.
 */
describe('trigger event names read unlike webhook node', () => {
	useFastClockAndLogs();
	/** Publishes a trigger whose Event Names come from `expression`; the events POST /webhooks was sent, if any. */
	async function publishWith(expression: string): Promise<{ posted: unknown[]; error?: Error }> {
		const posted: unknown[] = [];
		subscribing((body) => posted.push((body as { events: unknown }).events));
		const node = createTriggerNode(trigger, { events: expression } as unknown as INodeParameters);
		const error = await activateTrigger(trigger, node).then(
			() => undefined,
			(e: unknown) => e as Error,
		);
		return { posted, error };
	}
	test.each<[string, string, string[]]>([
		['one event as text', '={{ "invoice.paid" }}', ['invoice.paid']],
		['"a, b" text', '={{ "invoice.paid, quote.approved" }}', ['invoice.paid', 'quote.approved']],
		[
			'entries with spaces around them',
			'={{ [" invoice.paid ", "quote.approved"] }}',
			['invoice.paid', 'quote.approved'],
		],
	])(
		'%s subscribes to those events, as the Webhook node reads the field',
		async (_what, expression, events) => {
			const { posted, error } = await publishWith(expression);
			// fails today: text → "Choose at least one event in "Event Names or IDs"" and nothing posted; spaces are posted as they are
			expect(error?.message).toBeUndefined();
			expect(posted).toEqual([events]);
		},
	);
	test.each<[string, string]>([
		['null', '={{ [null, "invoice.paid"] }}'],
		['an object', '={{ [{ "name": "invoice.paid" }] }}'],
	])(
		'an entry that is %s is refused at activation naming the field; nothing is subscribed',
		async (_what, expression) => {
			const { posted, error } = await publishWith(expression);
			// fails today: POST /webhooks with the event type "null" / "[object Object]"
			expect(posted).toEqual([]);
			expect(error?.message).toMatch(/Event Names or IDs/);
		},
	);
});

/**
 * Breaker (signatures rebuild): docs/signatures.md: settings that cannot work "stop the publishing
 * with a message that says what to fix"; the Timestamp Tolerance from an expression is checked at
 * activation so that a workflow never shows as active while refusing every delivery.
 *
 * The Signature Scheme is an options field, so an expression can hand over anything: `Auto`,
 * `stripe-style`, `hmac`, an empty text. checkSettings checks the tolerance and the Custom
 * settings only; the activation succeeds, and then every delivery, genuine ones included, is
 * refused with 401 "unknown signature scheme" (or, for an empty text, the same), the reason only in
 * n8n's log once a minute.
 * Expected: the activation fails and names the field, as it does for the tolerance.
 */
describe('trigger unknown scheme activates silently', () => {
	const NOW = 1_700_000_000;
	atFixedTime(NOW);
	const EVENTS = ['invoice.paid'];
	test.each(['Auto', 'stripe-style'])(
		'a Signature Scheme of %j from an expression does not activate silently',
		async (scheme) => {
			const testNode = nodeWithWhk1(
				{ events: EVENTS, options: { signatureScheme: scheme } as INodeParameters },
				EVENTS,
			);
			// every delivery, the genuine one included, is refused
			const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
			expect(
				(
					await runWebhook(trigger, testNode, {
						headers: standardHeaders(SIGNING, 'msg_1', NOW, raw),
						rawBody: Buffer.from(raw),
					})
				).status,
			).toBe(401);
			subscriptionExists(EVENTS);
			// fails today: the activation succeeds
			await expect(activateTrigger(trigger, testNode)).rejects.toThrow(/Signature Scheme/);
		},
	);
});

describe('subtitle', () => {
	/** The node's subtitle as n8n's editor computes it: an expression over the node's parameters. */
	function subtitleOf(nodeType: INodeType, events: unknown): unknown {
		const { node, workflow } = createTestNode(
			nodeType,
			events === undefined ? {} : ({ events } as never),
		);
		return workflow.expression.getSimpleParameterValue(
			node,
			nodeType.description.subtitle as string,
			'internal',
			{},
		);
	}

	describe.each<[string, INodeType, string]>([
		['Business Ops Trigger', new BusinessOpsTrigger(), ''],
		['Business Ops Polling Trigger', new BusinessOpsPollingTrigger(), 'Polls: '],
	])('%s subtitle', (_name, nodeType, prefix) => {
		test('a list of events', () => {
			expect(subtitleOf(nodeType, ['invoice.paid', 'invoice.sent'])).toBe(
				`${prefix}invoice.paid, invoice.sent`,
			);
		});

		test('text from an expression ("a, b"), a supported reading of the field', () => {
			expect(subtitleOf(nodeType, 'invoice.paid, invoice.sent')).toBe(
				`${prefix}invoice.paid, invoice.sent`,
			);
		});

		test('no events chosen', () => {
			expect(subtitleOf(nodeType, undefined)).toBe(prefix);
		});
	});
});
