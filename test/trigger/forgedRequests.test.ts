import type { IDataObject, INodeParameters, ICredentialDataDecryptedObject } from 'n8n-workflow';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import * as hmac from '../../nodes/BusinessOpsTrigger/signatures/hmac';
import { MAX_REPEAT_IDS } from '../../nodes/BusinessOpsTrigger/trust';
import {
	createTriggerNode,
	runWebhook,
	TEST_API_KEY,
	type FakeDelivery,
	type TestNode,
} from '../harness/engine';
import {
	nodeWithWhk1,
	ownWorkflowWithWhk1,
	SIGNING,
	trigger,
	WEBHOOK_URL,
} from './liveSubscription';
import { atFixedTime, autoHmacs, standardHeaders, githubSignature } from './helpers';

/**
 * Breaker (trust path rewrite): "an unauthenticated request changes nothing stored, learned or
 * trusted, and cannot make a later genuine delivery fail or a repeat run again" and "Ignore
 * Repeated Deliveries must ignore the API's own retries of an accepted message".
 *
 * trustDelivery reads the trigger's memory entry, then awaits the credential (openStoredSecret:
 * in n8n a database read), and at the end writes back the entry object it read or made. When the
 * process holds no entry yet (after a restart, on a fresh queue-mode webhook process, after an
 * eviction), every request in flight makes its own new entry. A stranger's forged request that
 * arrives together with the API's genuine delivery and whose credential read finishes last
 * (a slower database read) writes its empty entry over the one the genuine delivery just filled:
 * the accepted delivery id, the opened secret and the learned form are gone. The API's retry of the
 * accepted message (same webhook-id, fresh signature) then runs the workflow a second time.
 * The same happens between two genuine deliveries of the API that arrive together.
 * Expected: the retry is ignored as a repeat, whatever other requests were in flight.
 */
describe('trigger concurrent forged request wipes repeat ids', () => {
	const NOW = 1_700_000_000;
	atFixedTime(NOW);
	const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
	const genuine = (id: string, at: number): FakeDelivery => ({
		headers: standardHeaders(SIGNING, id, at, raw),
		rawBody: Buffer.from(raw),
	});
	const ignored = (id: string) => ({
		webhookResponse: { received: true, ignored: `repeated delivery: ${id}` },
	});
	let workflows = 0;
	/** Two handles on one trigger (same workflow, node and stored record), as two requests see it; the second's credential read waits for `gate`. */
	function oneTriggerTwice(scheme: string): { fast: TestNode; slow: TestNode; open: () => void } {
		const id = `workflow-race-${++workflows}`;
		const make = () => {
			const testNode = nodeWithWhk1({
				events: ['invoice.paid'],
				options: { signatureScheme: scheme, ignoreRepeatedDeliveries: true },
			});
			testNode.workflow.id = id;
			return testNode;
		};
		const [fast, slow] = [make(), make()];
		// one stored record (a record sealed anew is a new subscription to the trust memory)
		const stored = (testNode: TestNode) => testNode.workflow.getStaticData('node', testNode.node);
		stored(slow).subscriptions = JSON.parse(JSON.stringify(stored(fast).subscriptions));
		let open = () => undefined as void;
		const gate = new Promise<void>((resolve) => (open = resolve));
		const helper = slow.additionalData.credentialsHelper as unknown as {
			getDecrypted: (...args: unknown[]) => Promise<unknown>;
		};
		const read = helper.getDecrypted.bind(helper);
		helper.getDecrypted = async (...args: unknown[]) => {
			await gate;
			return await read(...args);
		};
		return { fast, slow, open };
	}
	test.each(['standardWebhooks', 'auto'])(
		'%s: a forged request in flight with the genuine delivery does not make its retry run again',
		async (scheme) => {
			const { fast, slow, open } = oneTriggerTwice(scheme);
			const forged = {
				headers: {
					...standardHeaders(SIGNING, 'msg_1', NOW, raw),
					'webhook-signature': `v1,${Buffer.alloc(32, 9).toString('base64')}`,
				},
				rawBody: Buffer.from(raw),
			};
			const stranger = runWebhook(trigger, slow, forged);
			expect(
				(await runWebhook(trigger, fast, genuine('msg_1', NOW))).result.workflowData,
			).toHaveLength(1);
			open();
			expect((await stranger).status).toBe(401);
			// the API retries msg_1 a minute later, signed anew
			// fails today: the retry runs the workflow again
			expect((await runWebhook(trigger, fast, genuine('msg_1', NOW + 60))).result).toEqual(
				ignored('msg_1'),
			);
		},
	);
	test('two genuine deliveries arriving together: the retry of the first is still ignored', async () => {
		const { fast, slow, open } = oneTriggerTwice('standardWebhooks');
		const second = runWebhook(trigger, slow, genuine('msg_2', NOW));
		expect(
			(await runWebhook(trigger, fast, genuine('msg_1', NOW))).result.workflowData,
		).toHaveLength(1);
		open();
		expect((await second).result.workflowData).toHaveLength(1);
		// fails today: the retry of msg_1 runs the workflow again
		expect((await runWebhook(trigger, fast, genuine('msg_1', NOW + 60))).result).toEqual(
			ignored('msg_1'),
		);
	});
});

/**
 * Breaker b29: "Ignore Repeated Deliveries: a repeat runs once; the store is bounded" and "a
 * request whose signature has not verified changes nothing stored" (issue 29).
 *
 * deliveryIds.ts keeps ONE bounded map (MAX_REMEMBERED_IDS = 50,000) for every trigger of the
 * process, and anything a trigger accepts enters it. A stranger who knows the URL of any workflow
 * whose trigger checks no signature (Signature Scheme None, Ignore Repeated Deliveries on) fills
 * it with 50,000 unsigned requests with fresh ids in a few seconds, and so evicts the ids of every
 * signed trigger in the process. A captured genuine delivery of a signed trigger (GitHub-style:
 * no timestamp, so its signature never expires) then runs its workflow again.
 * Expected: the signed trigger's repeat is still ignored: unsigned traffic to another trigger
 * never makes this trigger forget what it accepted.
 */
describe('trigger repeat evicted by unsigned traffic', () => {
	const SIGNING = 'a-github-style-signing-key-of-32-bytes';
	const NOW = 1_700_000_000;
	atFixedTime(NOW);
	test('unsigned traffic to a None trigger does not make a signed trigger run a repeat again', async () => {
		const signed = ownWorkflowWithWhk1(
			{ signatureScheme: 'github', ignoreRepeatedDeliveries: true },
			SIGNING,
		);
		const raw = JSON.stringify({
			id: 'evt_paid_once',
			type: 'invoice.paid',
			data: { amount: 100 },
		});
		const genuine = {
			headers: { 'x-hub-signature-256': githubSignature(SIGNING, raw) },
			rawBody: Buffer.from(raw),
		};
		expect((await runWebhook(trigger, signed, genuine)).result.workflowData).toHaveLength(1);
		const ignored = {
			webhookResponse: { received: true, ignored: 'repeated delivery: evt_paid_once' },
		};
		expect((await runWebhook(trigger, signed, genuine)).result).toEqual(ignored);

		// a stranger posts to another workflow's trigger that checks no signature
		const open = createTriggerNode(trigger, {
			events: ['invoice.paid'],
			options: { signatureScheme: 'none', ignoreRepeatedDeliveries: true },
		});
		open.workflow.id = 'workflow-unsigned';
		for (let i = 0; i < MAX_REPEAT_IDS; i++) {
			await runWebhook(trigger, open, {
				headers: {},
				rawBody: Buffer.from(`{"id":"junk-${i}","type":"invoice.paid"}`),
			});
		}

		// fails today: the captured genuine delivery runs the signed workflow a second time
		expect((await runWebhook(trigger, signed, genuine)).result).toEqual(ignored);
	}, 120_000);
});

/**
 * Breaker (trust path rewrite): "the memory must stay bounded" (trust.ts: "the memory holds this
 * many ids' weight in all (about 100 MB at most)"; 10,000 ids per trigger).
 *
 * The trigger's memory is weighed 100 per entry plus 1 per repeat id, whatever an id's length.
 * Under Signature Scheme None with Ignore Repeated Deliveries on, the delivery id is the body's
 * `id`, chosen by whoever posts to the URL, of any length n8n's body limit allows (16 MB by
 * default). A stranger posts 10,000 bodies with a different 1 MB id each: the process keeps 10 GB
 * for one trigger (the bound counts 10,000). Here 150 such posts keep about 150 MB, more than the
 * whole memory is said to hold.
 * Expected: what the memory keeps of ids stays within its stated bound (a long id is kept as a
 * digest, refused, or weighed by its length).
 */
describe('trigger repeat ids unbounded bytes', () => {
	v8.setFlagsFromString('--expose-gc');
	const gc = vm.runInNewContext('gc') as () => void;
	const POSTS = 150;
	const ID_BYTES = 1024 * 1024;
	const heap = () => {
		gc();
		gc();
		return process.memoryUsage().heapUsed;
	};
	test('1 MB delivery ids posted by a stranger to a None trigger are not all kept in memory', async () => {
		const testNode = createTriggerNode(trigger, {
			events: ['invoice.paid'],
			options: { signatureScheme: 'none', ignoreRepeatedDeliveries: true } as INodeParameters,
		});
		testNode.workflow.id = 'workflow-long-ids';
		const before = heap();
		const filler = 'x'.repeat(ID_BYTES);
		for (let i = 0; i < POSTS; i++) {
			const raw = Buffer.from(`{"id":"${i}-${filler}","type":"invoice.paid"}`);
			expect(
				(await runWebhook(trigger, testNode, { headers: {}, rawBody: raw, body: {} })).result
					.workflowData,
			).toHaveLength(1);
		}
		const kept = heap() - before;
		// fails today: about 150 MB kept for one trigger's ids
		expect(kept).toBeLessThan(100 * 1024 * 1024);
	}, 120_000);
});

/**
 * Breaker b29: "a forged request costs at most what a genuine one does" (issue 29).
 *
 * Counted in HMACs over the body (each one reads the whole body, up to 1 MiB under Auto).
 * A genuine Standard Webhooks delivery under Auto costs 1 HMAC, learned form or not. A forged
 * request of the same size and the same header names costs far more:
 * - before the process has learned the subscription's signed form (after a restart, on a fresh
 *   webhook process in queue mode, for every new subscription), the same shape with a junk
 *   signature costs 6 HMACs (3 signed contents x 2 key forms of a whsec_ secret);
 * - after the form is learned, a forged request that sends both the webhook-* and svix-* id and
 *   timestamp headers with distinct values costs 4 (every timestamp x every id), where the
 *   genuine delivery of that shape (the API sends one id and one timestamp) costs 1.
 * Expected: forged <= genuine + 1 in both states.
 */
describe('trigger forged costs more HMACs', () => {
	const SECRET = 'whsec_cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhlLXRyaWdnZXI=';
	const NOW = 1_700_000_000;
	const BODY = Buffer.from(
		JSON.stringify({ id: 'evt_1', type: 'invoice.paid', pad: 'x'.repeat(256 * 1024) }),
	);
	const JUNK = `v1,${Buffer.alloc(32, 7).toString('base64')}`;
	const hmacsOf = (headers: Record<string, string>, learned?: hmac.SignedForm) =>
		autoHmacs(SECRET, headers, BODY, NOW, learned);
	afterEach(() => jest.restoreAllMocks());
	/** The HMACs of a genuine delivery and of a forged copy (its signature junk, `more` headers added). */
	function costs(
		genuine: Record<string, string>,
		more: Record<string, string>,
		learned?: hmac.SignedForm,
	) {
		const forged = { ...genuine, 'webhook-signature': JUNK, ...more };
		const cost = { genuine: hmacsOf(genuine, learned), forged: hmacsOf(forged, learned) };
		expect(cost.genuine).toEqual({ valid: true, hmacs: 1 });
		expect(cost.forged.valid).toBe(false);
		return cost;
	}
	const LEARNED: hmac.SignedForm = { content: '{ID}.{timestamp}.{body}', key: 'whsecBase64' };
	test('nothing learned yet: a forged request of the genuine shape costs at most one HMAC more than the genuine one', () => {
		const cost = costs(standardHeaders(SECRET, 'msg_1', NOW, BODY), {});
		// fails today: 6 HMACs over 256 KiB each for a forged request, 1 for the genuine one
		expect(cost.forged.hmacs).toBeLessThanOrEqual(cost.genuine.hmacs + 1);
	});
	test('form learned: extra known id and timestamp headers with distinct values do not multiply the cost of a forged request', () => {
		const genuine = standardHeaders(SECRET, 'msg_1', NOW, BODY);
		const more = { 'svix-id': 'msg_2', 'svix-timestamp': String(NOW - 1) };
		const cost = costs(genuine, more, LEARNED);
		// fails today: 4 HMACs (2 timestamps x 2 ids) for a forged request, 1 for the genuine one
		expect(cost.forged.hmacs).toBeLessThanOrEqual(cost.genuine.hmacs + 1);
	});
	test('form learned: three delivery-id headers and two timestamps in a forged request cost no more than the genuine delivery of that shape', () => {
		const { 'webhook-signature': signature } = standardHeaders(SECRET, 'msg_1', NOW, BODY);
		// the API's own shape: its id under x-bo-delivery, its timestamp under webhook-timestamp
		const genuine = {
			'x-bo-delivery': 'msg_1',
			'webhook-timestamp': String(NOW),
			'webhook-signature': signature,
		};
		const more = { 'x-a-delivery': 'a', 'x-b-delivery': 'b', 'svix-timestamp': String(NOW - 1) };
		const cost = costs(genuine, more, LEARNED);
		// fails today: 6 HMACs (2 timestamps x 3 ids), each over the whole body (no size bound once learned)
		expect(cost.forged.hmacs).toBeLessThanOrEqual(cost.genuine.hmacs + 1);
	});
});

/**
 * Breaker b29: "a request whose signature has not verified changes nothing stored or trusted:
 * no entry in any store" (issue 29).
 *
 * readSecret(..., remembered = true) runs for every request before the trust decision and puts
 * the opened secret into subscription.ts's `opened` cache. A forged request that reaches a process
 * first (after a restart, a fresh queue-mode webhook process) therefore writes that store, and
 * what it wrote changes how a later genuine delivery is decided: once the credential's API key
 * changed, the genuine delivery runs in the process a stranger "warmed", while a process that saw
 * no forged request refuses it with "publish the workflow again".
 * Expected: the later genuine delivery is answered the same with or without the forged request
 * before it (the forged request wrote nothing).
 */
describe('trigger forged request caches opened secret', () => {
	const NOW = 1_700_000_000;
	const OTHER_KEY = {
		apiKey: 'svc_' + 'Mm1nNn2bBb3vVv4cCc5xXx6zZz7aAa8s',
		baseUrl: 'https://api.business-ops.test/v1',
	};
	atFixedTime(NOW);
	/** A stored production subscription, sealed afresh (each sealing differs: a subscription this process has never opened). */
	const record = (): IDataObject => ({
		'node:Business Ops Trigger': {
			subscriptions: {
				production: {
					id: 'whk_1',
					url: WEBHOOK_URL,
					events: ['invoice.paid'],
					sealedSecret: sealSecret(SIGNING, TEST_API_KEY, 'whk_1'),
				},
			},
		},
	});
	let workflows = 0;
	function node(staticData: IDataObject, credentials?: ICredentialDataDecryptedObject) {
		const testNode = createTriggerNode(
			trigger,
			{ events: ['invoice.paid'], options: {} as INodeParameters },
			{ staticData, ...(credentials ? { credentials } : {}) },
		);
		testNode.workflow.id = `workflow-b29-${++workflows}`;
		return testNode;
	}
	const body = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
	const genuine: FakeDelivery = {
		headers: standardHeaders(SIGNING, 'msg_1', NOW, body),
		rawBody: Buffer.from(body),
	};
	const forged: FakeDelivery = {
		headers: {
			...genuine.headers,
			'webhook-signature': `v1,${Buffer.alloc(32, 1).toString('base64')}`,
		},
		rawBody: Buffer.from(body),
	};
	async function genuineAfterKeyChange(forgedFirst: boolean): Promise<number | 'ran'> {
		const staticData = record();
		if (forgedFirst)
			expect((await runWebhook(trigger, node(structuredClone(staticData)), forged)).status).toBe(
				401,
			);
		const run = await runWebhook(trigger, node(structuredClone(staticData), OTHER_KEY), genuine);
		return run.result.workflowData ? 'ran' : (run.status ?? 0);
	}
	test('a forged request leaves nothing that decides a later genuine delivery', async () => {
		const without = await genuineAfterKeyChange(false);
		expect(without).toBe(401); // the key changed: "publish the workflow again"
		// fails today: the forged request opened and cached the secret, so the genuine delivery runs
		expect(await genuineAfterKeyChange(true)).toBe(without);
	});
});
