/**
 * Genuine deliveries of the documented forms, behind a proxy that adds headers, at the body
 * sizes Auto promises; and Standard Webhooks read under Svix's own header names.
 */
import { runWebhook, type FakeDelivery, type TestNode } from '../harness/engine';
import {
	atFixedTime,
	formHeaders,
	githubSignature,
	standardHeaders,
	stripeSignature,
} from './helpers';
import { ownWorkflowWithWhk1 as node, trigger, SIGNING as SECRET } from './liveSubscription';

const NOW = 1_700_000_000;
atFixedTime(NOW);

/** An event body of about `bytes` bytes. */
const bodyOf = (id: string, bytes: number) =>
	JSON.stringify({ id, type: 'invoice.paid', data: { id: 'inv_1' }, pad: 'x'.repeat(bytes) });
const KIB = 1024;
/** 'started' when the delivery started the workflow, else the HTTP status it was answered with. */
const run = async (testNode: TestNode, delivery: FakeDelivery) => {
	const { result, status } = await runWebhook(trigger, testNode, delivery);
	return result.workflowData ? 'started' : status;
};

/** Headers a proxy adds in front of the API's own: a timestamp and ids. */
const PROXY_TIMESTAMP = { 'x-proxy-timestamp': String(NOW - 1) };
const PROXY_TIMESTAMP_AND_ID = {
	'x-forwarded-timestamp': String(NOW),
	'x-event-id': 'bus-7f3a',
	'x-request-id': 'r-1',
};

describe('Auto: a genuine delivery of a named form behind a proxy, at every size Auto searches (up to 1 MiB), first delivery of the process', () => {
	const github = (id: string, bytes: number, proxy: Record<string, string>): FakeDelivery => {
		const body = bodyOf(id, bytes);
		return {
			headers: { ...proxy, 'x-hub-signature-256': githubSignature(SECRET, body) },
			rawBody: Buffer.from(body),
		};
	};
	const stripe = (id: string, bytes: number, proxy: Record<string, string>): FakeDelivery => {
		const body = bodyOf(id, bytes);
		return {
			headers: { ...proxy, 'stripe-signature': stripeSignature(SECRET, NOW, body) },
			rawBody: Buffer.from(body),
		};
	};
	const standard = (id: string, bytes: number, proxy: Record<string, string>): FakeDelivery => {
		const body = bodyOf(id, bytes);
		return {
			headers: { ...proxy, ...standardHeaders(SECRET, id, NOW, body) },
			rawBody: Buffer.from(body),
		};
	};

	// a `sha256=` value over {timestamp}.{body} whose timestamp header has no name of its own: the body alone is
	// tried first (GitHub's shape), and the timestamp's content second, with the same key
	const timestamped = (id: string, bytes: number, proxy: Record<string, string>): FakeDelivery => {
		const body = bodyOf(id, bytes);
		return {
			headers: {
				...proxy,
				...formHeaders(
					{
						header: 'X-Signature',
						value: 'sha256=hex',
						content: 'timestamp.body',
						key: 'secret',
						timestampHeader: 'X-Timestamp',
					},
					SECRET,
					id,
					NOW,
					body,
				),
			},
			rawBody: Buffer.from(body),
		};
	};

	test.each([
		['GitHub-style, a proxy timestamp, 200 KiB', github, 200 * KIB, PROXY_TIMESTAMP],
		['GitHub-style, a proxy timestamp, 1000 KiB', github, 1000 * KIB, PROXY_TIMESTAMP],
		['GitHub-style, a proxy timestamp and ids, 300 KiB', github, 300 * KIB, PROXY_TIMESTAMP_AND_ID],
		['sha256= over {timestamp}.{body} with X-Timestamp, 1000 KiB', timestamped, 1000 * KIB, {}],
		['GitHub-style, no proxy, 1000 KiB', github, 1000 * KIB, {}],
		['GitHub-style, a proxy timestamp, 1 KiB', github, 1 * KIB, PROXY_TIMESTAMP],
		[
			'Stripe-style, a proxy timestamp and ids, 1000 KiB',
			stripe,
			1000 * KIB,
			PROXY_TIMESTAMP_AND_ID,
		],
		[
			'Standard Webhooks, a proxy timestamp and ids, 1000 KiB',
			standard,
			1000 * KIB,
			PROXY_TIMESTAMP_AND_ID,
		],
	])('%s: accepted, and so is the next one', async (_case, signed, bytes, proxy) => {
		const testNode = node();
		expect([
			await run(testNode, signed('evt_1', bytes, proxy)),
			await run(testNode, signed('evt_2', bytes, proxy)),
		]).toEqual(['started', 'started']);
	});
});

describe('Standard Webhooks reads the svix- header names too (Svix signs with them)', () => {
	const svix = (id: string): FakeDelivery => {
		const body = bodyOf(id, 10);
		const {
			'webhook-id': svixId,
			'webhook-timestamp': timestamp,
			'webhook-signature': signature,
		} = standardHeaders(SECRET, id, NOW, body);
		return {
			headers: { 'svix-id': svixId, 'svix-timestamp': timestamp, 'svix-signature': signature },
			rawBody: Buffer.from(body),
		};
	};

	test('svix-id, svix-timestamp and svix-signature verify under Standard Webhooks', async () => {
		const testNode = node({ signatureScheme: 'standardWebhooks' });
		expect([await run(testNode, svix('msg_1')), await run(testNode, svix('msg_2'))]).toEqual([
			'started',
			'started',
		]);
	});

	test('both names sent: the webhook- header is read, the svix- one only when its webhook- header is absent', async () => {
		const testNode = node({ signatureScheme: 'standardWebhooks' });
		const genuine = svix('msg_1');
		const junk = {
			'webhook-id': 'msg_other',
			'webhook-timestamp': String(NOW),
			'webhook-signature': `v1,${Buffer.alloc(32, 1).toString('base64')}`,
		};
		// the webhook- set is read: a junk one in front of a genuine svix- set is refused
		expect(await run(testNode, { ...genuine, headers: { ...genuine.headers, ...junk } })).toBe(401);
		// a genuine webhook- set beside junk svix- headers verifies
		const body = bodyOf('msg_2', 10);
		const svixJunk = {
			'svix-id': 'msg_other',
			'svix-timestamp': String(NOW - 9),
			'svix-signature': junk['webhook-signature'],
		};
		expect(
			await run(testNode, {
				headers: { ...svixJunk, ...standardHeaders(SECRET, 'msg_2', NOW, body) },
				rawBody: Buffer.from(body),
			}),
		).toBe('started');
		// each header on its own: webhook-id missing, so svix-id is read beside webhook-timestamp and webhook-signature
		const mixed = standardHeaders(SECRET, 'msg_3', NOW, bodyOf('msg_3', 10));
		expect(
			await run(testNode, {
				headers: {
					'svix-id': 'msg_3',
					'webhook-timestamp': mixed['webhook-timestamp'],
					'webhook-signature': mixed['webhook-signature'],
				},
				rawBody: Buffer.from(bodyOf('msg_3', 10)),
			}),
		).toBe('started');
	});
});
