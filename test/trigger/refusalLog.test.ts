/**
 * The refusal log's kinds (each logged at most once a minute per subscription; trigger.test.ts
 * runs that through the engine): every refusal carries one of a fixed set of kinds, whatever
 * its reason names; the kind comes from the verifier, not from the reason's words.
 */
import { decideTrust } from '../../nodes/BusinessOpsTrigger/trust';
import type { VerifyOptions } from '../../nodes/BusinessOpsTrigger/signatures/verify';
import { githubSignature, standardHeaders, atFixedTime } from './helpers';
import {
	SIGNING as SECRET,
	nodeWithWhk1,
	SIGNING,
	trigger,
	useFastClockAndLogs,
} from './liveSubscription';
import type { INodeParameters } from 'n8n-workflow';
import { runWebhook, createTriggerNode } from '../harness/engine';

const NOW = 1_700_000_000;
const BODY = JSON.stringify({ id: 'evt_1', type: 'invoice.paid' });
const LARGE = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', pad: 'x'.repeat(300 * 1024) });
type TrustSubscription = Omit<VerifyOptions, 'headers' | 'rawBody' | 'nowSeconds'>;
const auto: TrustSubscription = { scheme: 'auto', secret: SECRET, toleranceSeconds: 300 };
const refusal = (
	headers: Record<string, string> | null,
	subscription: TrustSubscription = auto,
	body: string | null = BODY,
) => {
	const trust = decideTrust({
		headers: headers as Record<string, string>,
		rawBody: body === null ? undefined : Buffer.from(body),
		nowSeconds: NOW,
		...subscription,
	});
	if (trust.accepted) throw new Error('expected a refusal');
	return [trust.kind, trust.reason] as const;
};
const junk = (fill: number) => `v1,${Buffer.alloc(32, fill).toString('base64')}`;

test('each reason the trigger gives has its kind; reasons naming headers a request chose add no kind', () => {
	const learned = {
		...auto,
		learned: { content: '{ID}.{timestamp}.{body}', key: 'whsecBase64' },
	} as TrustSubscription;
	const oneOfEachKind = [
		refusal(
			{ ...standardHeaders(SECRET, 'msg_1', NOW, BODY), 'webhook-signature': junk(1) },
			learned,
		),
		refusal(
			{
				'x-api-signature': githubSignature(SECRET, 'other').slice('sha256='.length),
				'x-api-timestamp': String(NOW),
				'x-api-delivery': 'msg_1',
			},
			auto,
			LARGE,
		),
		refusal(standardHeaders(SECRET, 'msg_1', NOW - 400, BODY), {
			...auto,
			scheme: 'standardWebhooks',
		}),
		refusal({ 'content-type': 'application/json' }),
		refusal(
			{ ...standardHeaders(SECRET, 'msg_1', NOW, BODY), 'webhook-timestamp': String(NOW * 1000) },
			{ ...auto, scheme: 'standardWebhooks' },
		),
		refusal(standardHeaders(SECRET, 'msg_1', NOW, BODY), { ...auto, secret: undefined }),
		refusal(standardHeaders(SECRET, 'msg_1', NOW, BODY), {
			...auto,
			scheme: 'custom',
			custom: {
				header: '',
				prefix: '',
				encoding: 'hex',
				content: '{body}',
				key: 'secret',
				timestampHeader: '',
				idHeader: '',
				algorithm: 'sha256',
			},
		}),
		refusal(standardHeaders(SECRET, 'msg_1', NOW, '[1]'), auto, '[1]'),
		refusal(null),
	];
	expect(oneOfEachKind).toEqual([
		[
			'signature',
			expect.stringMatching(/^signature does not match \(checked as HMAC-SHA256 of \{ID\}/),
		],
		['search', expect.stringMatching(/tried only the 2 most likely forms/)],
		['window', 'timestamp too old'],
		['unsigned', 'missing signature header (no header name contains "signature")'],
		['headers', 'malformed timestamp'],
		['secret', 'no signing secret is stored'],
		['settings', 'Custom signature: set "Signature Header"'],
		['body', 'body is not a JSON object'],
		['other', 'signature could not be checked'],
	]);
	const kinds = oneOfEachKind.map(([kind]) => kind);
	// more reasons, some naming headers a request chose: the same kinds
	const again = [
		...oneOfEachKind,
		refusal({ ...standardHeaders(SECRET, 'msg_1', NOW, BODY), 'webhook-signature': junk(2) }),
		refusal({ 'x-signature': githubSignature(SECRET, 'other') }, auto, 'x'.repeat(1024 * 1024 + 1)),
		refusal(standardHeaders(SECRET, 'msg_1', NOW + 400, BODY), {
			...auto,
			scheme: 'standardWebhooks',
		}),
		refusal(
			{ ...standardHeaders(SECRET, 'msg_1', NOW, BODY), 'webhook-timestamp': 'soon' },
			{ ...auto, scheme: 'standardWebhooks' },
		),
		refusal(standardHeaders(SECRET, 'msg_1', NOW, BODY), {
			...auto,
			secret: { problem: "the stored signing secret does not open with this credential's API key" },
		}),
		refusal(standardHeaders('whsec_', 'msg_1', NOW, BODY), { ...auto, secret: 'whsec_' }),
		refusal(standardHeaders(SECRET, 'msg_1', NOW, BODY), { ...auto, toleranceSeconds: '5m' }),
		refusal(standardHeaders(SECRET, 'msg_1', NOW, BODY), auto, null),
		refusal(standardHeaders(SECRET, 'msg_1', NOW, BODY), { ...auto, scheme: 'sha1' as never }),
		...Array.from({ length: 100 }, (_, i) => refusal({ [`x-${i}-signature`]: 'nonsense' })),
		...Array.from({ length: 100 }, (_, i) =>
			refusal(
				{ 'x-sig': githubSignature(SECRET, BODY) },
				{
					...auto,
					scheme: 'custom',
					custom: {
						header: 'X-Sig',
						prefix: 'sha256=',
						encoding: 'hex',
						content: '{ID}.{body}',
						key: 'secret',
						timestampHeader: '',
						idHeader: `x-${i}-id`,
						algorithm: 'sha256',
					},
				},
			),
		),
	];
	expect(again.slice(-200).map(([, reason]) => reason)).toEqual([
		...Array.from(
			{ length: 100 },
			(_, i) => `malformed x-${i}-signature header: no HMAC-SHA256 value in hex or base64`,
		),
		...Array.from({ length: 100 }, (_, i) => `missing x-${i}-id header`),
	]);
	expect([...new Set(again.map(([kind]) => kind))].sort()).toEqual([...kinds].sort());
});

describe('regression: floods of junk kept the reason a genuine delivery fails out of the log', () => {
	/**
	 * Breaker (refusal log rebuild): docs/signatures.md: "junk that a stranger sends (no signature
	 * header, or a malformed one) never keeps the reason a genuine delivery fails ... out of the log:
	 * junk that falls in the same kind names the same reason."
	 *
	 * The kind `headers` holds both the stranger's junk ("missing webhook-signature header", a request
	 * with no signature at all) and reasons only a genuine delivery gets: "malformed timestamp" (the
	 * API sends its timestamp in milliseconds, or a proxy repeated the header), "missing webhook-id
	 * header". One junk request a minute then keeps the genuine delivery's reason out of n8n's log:
	 * the only line says the signature header is missing, while every genuine delivery is refused for
	 * its timestamp.
	 * Expected: the genuine delivery's reason ("malformed timestamp") reaches the log.
	 */
	describe('trigger junk silences genuine header reason', () => {
		const NOW = 1_700_000_000;
		const fixed = atFixedTime(NOW);
		const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
		const refusals = () =>
			fixed.logs().lines.filter((line) => line.message.includes('refused a delivery'));
		test('a request without any signature keeps "malformed timestamp" of the genuine delivery out of the log', async () => {
			const testNode = nodeWithWhk1({
				events: ['invoice.paid'],
				options: { signatureScheme: 'standardWebhooks' } as INodeParameters,
			});
			testNode.workflow.id = 'workflow-junk-silences-headers';
			// a stranger's request with no signature header at all
			expect(
				(await runWebhook(trigger, testNode, { headers: {}, rawBody: Buffer.from(raw) })).status,
			).toBe(401);
			// the API's genuine delivery, its timestamp in milliseconds
			const genuine = {
				headers: {
					...standardHeaders(SIGNING, 'msg_1', NOW, raw),
					'webhook-timestamp': String(NOW * 1000),
				},
				rawBody: Buffer.from(raw),
			};
			expect((await runWebhook(trigger, testNode, genuine)).status).toBe(401);
			// fails today: the only line says "missing webhook-signature header", the stranger's reason
			expect(refusals().some((line) => line.message.includes('malformed timestamp'))).toBe(true);
		});
	});

	/**
	 * Breaker (trust path rewrite): "the reason a genuine delivery fails must still reach the log;
	 * junk a stranger sends never keeps it out" (trust.ts, REASON_KINDS).
	 *
	 * The refusal log throttles by kind of reason, one line a minute per trigger and kind, and the
	 * first refusal of a minute decides the words logged. A stranger who knows the webhook URL sends
	 * one junk request a minute whose reason falls into the same kind as the genuine failure:
	 * - Auto (the default): a junk signature with a fresh timestamp is refused "signature does not
	 *   match"; the API's genuine deliveries, refused because n8n's clock is off (or the API's retries
	 *   are older than the window), say "signature does not match (and timestamp too old: ...)": the
	 *   same kind, so the line that names the real cause never reaches the log;
	 * - Standard Webhooks: `webhook-timestamp: x` is refused "malformed timestamp", in the kind of
	 *   "timestamp too old": the log keeps saying "malformed timestamp" while every genuine delivery
	 *   fails because it is too old.
	 * Expected: the genuine delivery's reason (timestamp too old) appears in n8n's log.
	 */
	describe('trigger junk silences stale genuine reason', () => {
		const NOW = 1_700_000_000;
		const fixed = atFixedTime(NOW);
		const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
		const JUNK = `v1,${Buffer.alloc(32, 7).toString('base64')}`;
		let workflows = 0;
		function node(options: INodeParameters) {
			const testNode = nodeWithWhk1({ events: ['invoice.paid'], options });
			testNode.workflow.id = `workflow-junk-silences-${++workflows}`;
			return testNode;
		}
		const refusals = () =>
			fixed.logs().lines.filter((line) => line.message.includes('refused a delivery'));
		/** A junk request (a fresh delivery with `junk` headers), then the API's genuine delivery signed 10 minutes before n8n's clock: both refused. */
		async function junkThenLateGenuine(options: INodeParameters, junk: Record<string, string>) {
			const testNode = node(options);
			const forged = {
				headers: { ...standardHeaders(SIGNING, 'msg_x', NOW, raw), ...junk },
				rawBody: Buffer.from(raw),
			};
			expect((await runWebhook(trigger, testNode, forged)).status).toBe(401);
			const genuine = {
				headers: standardHeaders(SIGNING, 'msg_1', NOW - 600, raw),
				rawBody: Buffer.from(raw),
			};
			expect((await runWebhook(trigger, testNode, genuine)).status).toBe(401);
		}
		test('Auto: a junk request with a fresh timestamp keeps "timestamp too old" of the genuine delivery out of the log', async () => {
			await junkThenLateGenuine({}, { 'webhook-signature': JUNK });
			// fails today: the only line says "signature does not match", the stranger's reason
			expect(refusals().some((line) => line.message.includes('timestamp too old'))).toBe(true);
		});
		test('Standard Webhooks: a junk "malformed timestamp" keeps "timestamp too old" of the genuine delivery out of the log', async () => {
			await junkThenLateGenuine(
				{ signatureScheme: 'standardWebhooks' },
				{ 'webhook-timestamp': 'x' },
			);
			// fails today: the only line says "malformed timestamp"
			expect(refusals().some((line) => line.message.includes('timestamp too old'))).toBe(true);
		});
	});

	/**
	 * Breaker b29: "a stranger's POST to the test URL does not end Listen for test event; only a
	 * verified delivery whose body is not a JSON object does" (issue 29 item 4; refuse() in
	 * BusinessOpsTrigger.node.ts: "only a delivery whose signature verified (status 400) ends the
	 * wait").
	 *
	 * Under Signature Scheme None nothing is verified, yet decideTrust answers a body that is not a
	 * JSON object with status 400, and refuse() throws for every 400 in manual mode: any junk POST
	 * (a scanner, `curl -d x`) to the test URL ends the user's listening with a failed test execution,
	 * whose description even says the delivery "was signed with the subscription's secret".
	 * Expected: the junk is answered (400) without a throw, like every other refusal of an
	 * unverified request; the listening goes on.
	 */
	describe('trigger none junk ends test listening', () => {
		useFastClockAndLogs();
		test("under None, a stranger's junk POST to the test URL does not end the listening", async () => {
			const testNode = createTriggerNode(
				trigger,
				{ events: ['invoice.paid'], options: { signatureScheme: 'none' } as INodeParameters },
				{},
			);
			testNode.workflow.id = 'workflow-none-listening';
			// fails today: throws "Delivery refused (HTTP 400): body is not a JSON object" (n8n ends the listening)
			const run = await runWebhook(
				trigger,
				testNode,
				{ headers: {}, rawBody: Buffer.from('junk') },
				'manual',
			);
			expect([run.status, run.result]).toEqual([400, { noWebhookResponse: true }]);
		});
	});

	/**
	 * Breaker (trust path rewrite): "an attacker who has seen one genuine delivery and controls the
	 * public URL must not flood n8n's log" (the refusal log: one line a minute per trigger and kind).
	 *
	 * The refusal log is throttled, but the lines webhook() writes for a verified delivery are not.
	 * A replayer posts one captured genuine delivery again and again (GitHub-style has no timestamp,
	 * so forever; Standard Webhooks within its 5-minute window, as fast as n8n answers):
	 * - with Ignore Repeated Deliveries on, every replay writes an info line "ignored delivery
	 *   msg_1: already accepted";
	 * - when the body names no event type, the replayer adds an unsigned `x-event-type` header with
	 *   any text it likes (up to the header size limit) and each replay writes a warning "ignored a
	 *   delivery of event type "<that text>"" (or "could not read the event type").
	 * 1,000 replays write 1,000 lines, a million write a million.
	 * Expected: replays of one delivery write a bounded number of lines (here: at most a handful).
	 */
	describe('trigger replays flood the log', () => {
		const NOW = 1_700_000_000;
		const fixed = atFixedTime(NOW);
		const REPLAYS = 1_000;
		let workflows = 0;
		function node(options: INodeParameters) {
			const testNode = nodeWithWhk1({ events: ['invoice.paid'], options });
			testNode.workflow.id = `workflow-replay-flood-${++workflows}`;
			return testNode;
		}
		test('Ignore Repeated Deliveries: 1,000 replays of one accepted delivery do not write 1,000 log lines', async () => {
			const testNode = node({
				signatureScheme: 'standardWebhooks',
				ignoreRepeatedDeliveries: true,
			});
			const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
			const captured = {
				headers: standardHeaders(SIGNING, 'msg_1', NOW, raw),
				rawBody: Buffer.from(raw),
			};
			expect((await runWebhook(trigger, testNode, captured)).result.workflowData).toHaveLength(1);
			for (let i = 0; i < REPLAYS; i++) {
				expect((await runWebhook(trigger, testNode, captured)).result).toEqual({
					webhookResponse: { received: true, ignored: 'repeated delivery: msg_1' },
				});
			}
			// fails today: one info line per replay
			expect(fixed.logs().lines.length).toBeLessThanOrEqual(5);
		});
		test("replays with an unsigned event type header of the replayer's choosing do not write one warning each", async () => {
			const testNode = node({ signatureScheme: 'standardWebhooks' });
			// a genuine delivery whose body names no type (the trigger reads it from a header then)
			const raw = JSON.stringify({ id: 'evt_2', data: {} });
			const headers = standardHeaders(SIGNING, 'msg_2', NOW, raw);
			for (let i = 0; i < REPLAYS; i++) {
				const replay = {
					headers: { ...headers, 'x-event-type': `replayer-text-${i}-${'z'.repeat(1000)}` },
					rawBody: Buffer.from(raw),
				};
				expect((await runWebhook(trigger, testNode, replay)).result).toMatchObject({
					webhookResponse: { received: true },
				});
			}
			const warnings = fixed.logs().lines.filter((line) => line.level === 'warn');
			// fails today: 1,000 warnings, each carrying 1 KB of the replayer's text
			expect(warnings.length).toBeLessThanOrEqual(5);
		});
	});

	/**
	 * Breaker b29: "only what the HMAC covers decides anything" (issue 29).
	 *
	 * logFormOnce keys its store (formsLogged, shared by all triggers, 1000 entries) by the verified
	 * form's description, and under Auto that description names the signature header, the prefix and
	 * the id header: parts no signature covers. It runs before Ignore Repeated Deliveries. So one
	 * captured genuine delivery, replayed within its window with a fresh signature header name each
	 * time, is "ignored" as a repeat every time, yet each replay writes an info line to n8n's log and
	 * a new entry into the store (evicting the other triggers' entries): the log grows without bound
	 * with what the replayer chooses.
	 * Expected: repeats of one delivery that differ only in unsigned parts write at most one
	 * "deliveries verify under" line (unsigned header names decide nothing).
	 */
	describe('trigger unsigned header names flood the log', () => {
		const NOW = 1_700_000_000;
		const fixed = atFixedTime(NOW);
		test('replays of one delivery with renamed signature headers write one form line, not one each', async () => {
			const testNode = nodeWithWhk1({
				events: ['invoice.paid'],
				options: { ignoreRepeatedDeliveries: true } as INodeParameters,
			});
			testNode.workflow.id = 'workflow-b29-forms';
			const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
			const { 'webhook-signature': signature, ...rest } = standardHeaders(
				SIGNING,
				'msg_1',
				NOW,
				raw,
			);
			expect(
				(
					await runWebhook(trigger, testNode, {
						headers: { ...rest, 'webhook-signature': signature },
						rawBody: Buffer.from(raw),
					})
				).result.workflowData,
			).toHaveLength(1);
			for (let i = 0; i < 200; i++) {
				const replay = {
					headers: { ...rest, [`x-replay-${i}-signature`]: signature },
					rawBody: Buffer.from(raw),
				};
				expect((await runWebhook(trigger, testNode, replay)).result).toEqual({
					webhookResponse: { received: true, ignored: 'repeated delivery: msg_1' },
				});
			}
			const formLines = fixed
				.logs()
				.lines.filter((line) => line.message.includes('deliveries verify under'));
			// fails today: 201 lines, one per header name the replayer chose
			expect(formLines.length).toBe(1);
		});
	});
});
