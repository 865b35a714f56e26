import { createHmac } from 'node:crypto';

import { signDelivery } from '../src/signing';
import { startReceiver, startTestSandbox, type Receiver, type TestSandbox } from './helpers';

const SECRET = `whsec_${Buffer.from('contract-test-secret-24b').toString('base64')}`;
const BODY = '{"id":"evt_1","type":"quote.created"}';
const TS = 1_700_000_000;

// Expected values computed here from the descriptions, not with src/signing.ts.
const mac = (key: Buffer | string, content: string, algorithm = 'sha256') =>
	createHmac(algorithm, key).update(content).digest();
const whsec = Buffer.from(SECRET.slice('whsec_'.length), 'base64');

describe('signDelivery: every form and switch', () => {
	test('the named forms keep their headers, keys and contents', () => {
		expect(signDelivery({ form: 'standard' }, SECRET, 'evt_1', TS, BODY)).toEqual({
			'webhook-id': 'evt_1',
			'webhook-timestamp': String(TS),
			'webhook-signature': `v1,${mac(whsec, `evt_1.${TS}.${BODY}`).toString('base64')}`,
		});
		expect(signDelivery({ form: 'github' }, SECRET, 'evt_1', TS, BODY)).toEqual({
			'X-Hub-Signature-256': `sha256=${mac(SECRET, BODY).toString('hex')}`,
		});
		expect(signDelivery({ form: 'stripe' }, SECRET, 'evt_1', TS, BODY)).toEqual({
			'Stripe-Signature': `t=${TS},v1=${mac(SECRET, `${TS}.${BODY}`).toString('hex')}`,
		});
	});

	test('bare hex and base64 under X-Signature with the timestamp in X-Signature-Timestamp', () => {
		expect(signDelivery({ form: 'hex' }, SECRET, 'evt_1', TS, BODY)).toEqual({
			'X-Signature': mac(SECRET, `${TS}.${BODY}`).toString('hex'),
			'X-Signature-Timestamp': String(TS),
		});
		expect(
			signDelivery(
				{ form: 'base64', content: 'id.timestamp.body', key: 'whsec', idHeader: 'X-Id' },
				SECRET,
				'evt_1',
				TS,
				BODY,
			),
		).toEqual({
			'X-Signature': mac(whsec, `evt_1.${TS}.${BODY}`).toString('base64'),
			'X-Signature-Timestamp': String(TS),
			'X-Id': 'evt_1',
		});
	});

	test('header names, content, key and algorithm are switches; rotation adds an older signature first', () => {
		expect(
			signDelivery(
				{
					form: 'github',
					signatureHeader: 'X-BO-Signature',
					content: 'timestamp.body',
					timestampHeader: 'X-BO-Time',
					algorithm: 'sha512',
				},
				SECRET,
				'e',
				TS,
				BODY,
			),
		).toEqual({
			'X-BO-Signature': `sha256=${mac(SECRET, `${TS}.${BODY}`, 'sha512').toString('hex')}`,
			'X-BO-Time': String(TS),
		});
		const rotated = signDelivery({ form: 'standard', rotate: true }, SECRET, 'evt_1', TS, BODY)[
			'webhook-signature'
		].split(' ');
		expect(rotated).toHaveLength(2);
		expect(rotated[1]).toBe(`v1,${mac(whsec, `evt_1.${TS}.${BODY}`).toString('base64')}`);
		const stripe = signDelivery({ form: 'stripe', rotate: true }, SECRET, 'evt_1', TS, BODY)[
			'Stripe-Signature'
		];
		expect(stripe).toMatch(
			new RegExp(`^t=${TS},v1=${mac(SECRET, `${TS}.${BODY}`).toString('hex')},v1=[0-9a-f]{64}$`),
		);
	});
});

describe('delivery contract control: where the type sits, the payload shape', () => {
	let t: TestSandbox;
	let receiver: Receiver;
	beforeAll(async () => {
		t = await startTestSandbox({ deliveryRetry: { attempts: 1, baseDelayMs: 10 } });
	});
	afterAll(() => t.sandbox.stop());
	beforeEach(async () => {
		t.control.reset();
		receiver = await startReceiver();
		await t.admin('POST', '/webhooks', {
			name: 'Contract hook',
			url: receiver.url,
			events: ['agent.paused'],
		});
	});
	afterEach(() => receiver.close());

	const emitOne = async () => {
		t.control.emit({ type: 'agent.paused' });
		const [delivery] = await receiver.waitFor(1);
		return {
			headers: delivery.headers,
			payload: JSON.parse(delivery.body) as Record<string, unknown>,
		};
	};

	test('default: { id, type, timestamp, data }, X-Business-Ops-Event, Standard Webhooks', async () => {
		expect(t.control.deliveryContract()).toEqual({
			signing: { form: 'standard' },
			typeField: 'type',
			typeHeader: 'X-Business-Ops-Event',
			dataField: 'data',
		});
		const { headers, payload } = await emitOne();
		expect(Object.keys(payload)).toEqual(['id', 'type', 'timestamp', 'data']);
		expect(headers['x-business-ops-event']).toBe('agent.paused');
		expect(headers['webhook-signature']).toMatch(/^v1,/);
	});

	test('the type under another field, a nested path, or only in a renamed header; the record under payload', async () => {
		t.control.setDeliveryContract({
			typeField: 'event',
			dataField: 'payload',
			signing: { form: 'hex', signatureHeader: 'X-Api-Signature' },
		});
		let received = await emitOne();
		expect(Object.keys(received.payload)).toEqual(['id', 'event', 'timestamp', 'payload']);
		expect(received.headers['x-api-signature']).toMatch(/^[0-9a-f]{64}$/);
		expect(received.headers['x-signature-timestamp']).toMatch(/^\d+$/);

		receiver.received.length = 0;
		t.control.setDeliveryContract({ typeField: 'meta.eventName' });
		received = await emitOne();
		expect(received.payload.meta).toEqual({ eventName: 'agent.paused' });
		expect(received.payload.type).toBeUndefined();

		receiver.received.length = 0;
		t.control.setDeliveryContract({ typeField: null, typeHeader: 'X-Event-Type' });
		received = await emitOne();
		expect(Object.keys(received.payload)).toEqual(['id', 'timestamp', 'data']);
		expect(received.headers['x-event-type']).toBe('agent.paused');
		expect(received.headers['x-business-ops-event']).toBeUndefined();
	});

	test('over HTTP; bad input is refused with what to fix; reset restores the default', async () => {
		const base = t.sandbox.controlUrl;
		const post = (body: unknown) =>
			fetch(`${base}/delivery-contract`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
		const ok = await post({
			signing: { form: 'stripe', signatureHeader: 'X-Sig' },
			typeField: 'event_type',
		});
		expect(ok.status).toBe(200);
		expect(((await ok.json()) as { data: unknown }).data).toMatchObject({
			signing: { form: 'stripe', signatureHeader: 'X-Sig' },
			typeField: 'event_type',
		});
		const bad = await post({ signing: { form: 'md5' } });
		expect(bad.status).toBe(400);
		expect(JSON.stringify(await bad.json())).toMatch(/form/);
		t.control.reset();
		expect(t.control.deliveryContract().signing).toEqual({ form: 'standard' });
	});
});
