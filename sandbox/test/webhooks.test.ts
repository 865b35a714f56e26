import { createHmac } from 'node:crypto';

import { TimerSet } from '../src/timers';
import {
	startReceiver,
	startTestSandbox,
	type ReceivedDelivery,
	type Receiver,
	type TestSandbox,
} from './helpers';

let t: TestSandbox;
let receiver: Receiver;
beforeAll(async () => {
	t = await startTestSandbox({ deliveryRetry: { attempts: 3, baseDelayMs: 40 } });
});
afterAll(() => t.sandbox.stop());
beforeEach(async () => {
	t.control.reset();
	receiver = await startReceiver();
});
afterEach(() => receiver.close());

async function subscribe(
	events: string[],
	extra: Record<string, unknown> = {},
	url = receiver.url,
) {
	const res = await t.admin('POST', '/webhooks', { name: 'Test hook', url, events, ...extra });
	expect(res.status).toBe(201);
	return res.body.data as { id: string; signingSecret: string };
}

// Verification written here on purpose, independent of src/signing.ts.
function verify(scheme: string, secret: string, delivery: ReceivedDelivery): boolean {
	const h = delivery.headers;
	if (scheme === 'standard') {
		const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
		const expected = createHmac('sha256', key)
			.update(`${h['webhook-id']}.${h['webhook-timestamp']}.${delivery.body}`)
			.digest('base64');
		return h['webhook-signature'] === `v1,${expected}`;
	}
	if (scheme === 'github') {
		return (
			h['x-hub-signature-256'] ===
			`sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`
		);
	}
	const [t, v1] = String(h['stripe-signature']).split(',');
	const ts = t.replace('t=', '');
	return v1 === `v1=${createHmac('sha256', secret).update(`${ts}.${delivery.body}`).digest('hex')}`;
}

async function firstContactId(): Promise<string> {
	return (await t.admin('GET', '/contacts')).body.data[0].id;
}

describe('webhook subscriptions', () => {
	test('POST returns the subscription with signingSecret, only that once', async () => {
		const res = await t.admin('POST', '/webhooks', {
			name: 'Boekhouding',
			url: 'https://example.com/hooks/bo',
			events: ['invoice.paid', 'invoice.sent'],
		});
		expect(res.status).toBe(201);
		const created = res.body.data;
		expect(Object.keys(created)).toEqual([
			'id',
			'name',
			'url',
			'events',
			'active',
			'signingSecret',
			'createdAt',
			'updatedAt',
		]);
		expect(created).toMatchObject({
			name: 'Boekhouding',
			url: 'https://example.com/hooks/bo',
			events: ['invoice.paid', 'invoice.sent'],
			active: true,
		});
		expect(created.id).toMatch(/^whk_/);
		expect(created.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

		const get = await t.admin('GET', `/webhooks/${created.id}`);
		expect(get.body.data).not.toHaveProperty('signingSecret');
		const { signingSecret, ...rest } = created;
		expect(get.body.data).toEqual(rest);
		const list = await t.admin('GET', '/webhooks');
		expect(JSON.stringify(list.body)).not.toContain(signingSecret);
		const patch = await t.admin('PATCH', `/webhooks/${created.id}`, { name: 'Boekhouding 2' });
		expect(JSON.stringify(patch.body)).not.toContain(signingSecret);
		expect(JSON.stringify(t.control.webhooks())).not.toContain(signingSecret);
	});

	test('name defaults to the host of the url', async () => {
		const res = await t.admin('POST', '/webhooks', {
			url: 'http://127.0.0.1:9/x',
			events: ['quote.created'],
		});
		expect(res.body.data.name).toBe('127.0.0.1:9');
	});

	test.each([
		[{ events: ['quote.created'] }, 'url', '"url" is required'],
		[
			{ url: 'ftp://example.com/x', events: ['quote.created'] },
			'url',
			'"url" must be an http or https URL of at most 2000 characters',
		],
		[
			{ url: 'not a url', events: ['quote.created'] },
			'url',
			'"url" must be an http or https URL of at most 2000 characters',
		],
		[{ url: 'https://example.com' }, 'events', '"events" is required'],
		[
			{ url: 'https://example.com', events: [] },
			'events',
			'"events" must be a non-empty array of at most 13 items',
		],
		[
			{ url: 'https://example.com', events: ['quote.created', 'quote.exploded'] },
			'events[1]',
			'events[1] must be a known event type (see GET /webhooks/events): contact.created, quote.created, quote.sent, quote.approved, quote.canceled, invoice.created, invoice.sent, invoice.paid, request.received, request.processed, request.failed, agent.paused, agent.resumed; got "quote.exploded"',
		],
		[
			{ url: 'https://example.com', events: ['quote.created'], active: 'yes' },
			'active',
			'"active" must be a boolean (true or false)',
		],
		[
			{ url: 'https://example.com', events: ['quote.created'], name: '' },
			'name',
			'"name" must be a non-empty string of at most 200 characters',
		],
	])('invalid %j names %s', async (body, fieldName, message) => {
		const res = await t.admin('POST', '/webhooks', body);
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({ code: 'invalid_request', message, field: fieldName });
	});

	test('409 for the same url and name; a different name is fine', async () => {
		await subscribe(['quote.created']);
		const again = await t.admin('POST', '/webhooks', {
			name: 'Test hook',
			url: receiver.url,
			events: ['invoice.paid'],
		});
		expect(again.status).toBe(409);
		expect(again.body.error.code).toBe('duplicate_resource');
		expect(
			(
				await t.admin('POST', '/webhooks', {
					name: 'Other',
					url: receiver.url,
					events: ['invoice.paid'],
				})
			).status,
		).toBe(201);
	});

	test('PATCH name, url, events, active; DELETE removes', async () => {
		const hook = await subscribe(['quote.created']);
		const res = await t.admin('PATCH', `/webhooks/${hook.id}`, {
			name: 'Nieuw',
			url: 'https://example.org/h',
			events: ['invoice.sent'],
			active: false,
		});
		expect(res.body.data).toMatchObject({
			name: 'Nieuw',
			url: 'https://example.org/h',
			events: ['invoice.sent'],
			active: false,
		});
		expect((await t.admin('DELETE', `/webhooks/${hook.id}`)).body).toEqual({
			data: { id: hook.id, deleted: true },
		});
		expect((await t.admin('GET', `/webhooks/${hook.id}`)).status).toBe(404);
		expect((await t.admin('PATCH', `/webhooks/${hook.id}`, { active: true })).status).toBe(404);
	});

	test('GET /webhooks/events lists the event types with descriptions', async () => {
		const res = await t.admin('GET', '/webhooks/events');
		const types = res.body.data.map((e: { type: string }) => e.type);
		expect(types).toEqual(
			expect.arrayContaining([
				'invoice.sent',
				'invoice.paid',
				'quote.approved',
				'quote.created',
				'request.received',
			]),
		);
		for (const e of res.body.data) expect(e.description.length).toBeGreaterThan(10);
	});

	test('subscriptions are per organization', async () => {
		const hook = await subscribe(['quote.created']);
		expect((await t.as(t.sandbox.keys.otherOrg)('GET', `/webhooks/${hook.id}`)).status).toBe(404);
		expect((await t.as(t.sandbox.keys.otherOrg)('GET', '/webhooks')).body.meta.total).toBe(0);
	});
});

describe('deliveries', () => {
	test.each(['standard', 'github', 'stripe'] as const)(
		'%s scheme: signed over the exact bytes, with the common headers',
		async (scheme) => {
			t.control.setSigningScheme(scheme);
			const hook = await subscribe(['quote.created']);
			const contactId = await firstContactId();
			const quote = (
				await t.admin('POST', '/quotes', {
					contactId,
					items: [{ name: 'Taart', quantity: 1, unitPrice: 30 }],
				})
			).body.data;
			const [delivery] = await receiver.waitFor(1);
			expect(delivery.method).toBe('POST');
			expect(delivery.path).toBe('/hook');
			expect(delivery.headers['content-type']).toBe('application/json');
			expect(delivery.headers['user-agent']).toBe('BusinessOps-Webhooks/1.0');
			expect(delivery.headers['x-business-ops-event']).toBe('quote.created');
			const payload = JSON.parse(delivery.body);
			expect(delivery.headers['x-business-ops-delivery']).toBe(payload.id);
			expect(Object.keys(payload)).toEqual(['id', 'type', 'timestamp', 'data']);
			expect(payload).toMatchObject({ type: 'quote.created', data: quote });
			expect(payload.id).toMatch(/^evt_/);
			expect(verify(scheme, hook.signingSecret, delivery)).toBe(true);
			expect(verify(scheme, hook.signingSecret, { ...delivery, body: delivery.body + ' ' })).toBe(
				false,
			);
			if (scheme === 'standard') {
				expect(delivery.headers['webhook-id']).toBe(payload.id);
				expect(
					Math.abs(Number(delivery.headers['webhook-timestamp']) - Date.now() / 1000),
				).toBeLessThan(10);
			} else {
				expect(delivery.headers['webhook-signature']).toBeUndefined();
			}
		},
	);

	test('each named change emits its event to the subscriptions that list it', async () => {
		await subscribe([
			'invoice.sent',
			'invoice.paid',
			'quote.approved',
			'quote.created',
			'request.received',
		]);
		const contactId = await firstContactId();
		const invoice = (
			await t.admin('POST', '/invoices', {
				contactId,
				items: [{ name: 'x', quantity: 1, unitPrice: 1 }],
			})
		).body.data;
		await t.admin('PATCH', `/invoices/${invoice.id}`, { status: 'sent' });
		await t.admin('PATCH', `/invoices/${invoice.id}`, { status: 'paid' });
		const quote = (
			await t.admin('POST', '/quotes', {
				contactId,
				items: [{ name: 'x', quantity: 1, unitPrice: 1 }],
			})
		).body.data;
		await t.admin('PATCH', `/quotes/${quote.id}`, { status: 'sent' });
		await t.admin('PATCH', `/quotes/${quote.id}`, { status: 'approved' });
		await t.admin('POST', '/requests', {
			fromEmail: 'a@b.nl',
			subject: 'Offerte',
			bodyText: 'Graag een offerte',
			processImmediately: true,
		});
		await t.control.waitForDeliveries();
		const received = receiver.received.map((d) => JSON.parse(d.body));
		expect(received.map((p) => p.type)).toEqual([
			'invoice.sent',
			'invoice.paid',
			'quote.created',
			'quote.approved',
			'request.received',
			'quote.created',
		]);
		expect(received[1].data).toMatchObject({ id: invoice.id, status: 'paid' });
		expect(received[3].data).toMatchObject({ id: quote.id, status: 'approved' });
	});

	test('an inactive subscription gets nothing; other organizations get nothing', async () => {
		const hook = await subscribe(['quote.created'], { active: false });
		const otherReceiver = await startReceiver();
		try {
			await t.as(t.sandbox.keys.otherOrg)('POST', '/webhooks', {
				url: otherReceiver.url,
				events: ['quote.created'],
			});
			const contactId = await firstContactId();
			await t.admin('POST', '/quotes', {
				contactId,
				items: [{ name: 'x', quantity: 1, unitPrice: 1 }],
			});
			await t.control.waitForDeliveries();
			expect(receiver.received).toHaveLength(0);
			expect(otherReceiver.received).toHaveLength(0);
			await t.admin('PATCH', `/webhooks/${hook.id}`, { active: true });
			await t.admin('POST', '/quotes', {
				contactId,
				items: [{ name: 'x', quantity: 1, unitPrice: 1 }],
			});
			await receiver.waitFor(1);
		} finally {
			await otherReceiver.close();
		}
	});

	test('a non-2xx answer is retried with the same event id and body, and each attempt is logged', async () => {
		receiver.respond = (i) => (i < 2 ? 500 : 204);
		const retryDelays: number[] = [];
		const schedule = TimerSet.prototype.schedule;
		const spy = jest.spyOn(TimerSet.prototype, 'schedule').mockImplementation(function (
			this: TimerSet,
			ms,
			task,
			onCancel,
		) {
			retryDelays.push(ms);
			return schedule.call(this, ms, task, onCancel);
		});
		const hook = await subscribe(['quote.created']);
		await t.admin('POST', '/quotes', {
			contactId: await firstContactId(),
			items: [{ name: 'x', quantity: 1, unitPrice: 1 }],
		});
		const deliveries = await receiver.waitFor(3);
		await t.control.waitForDeliveries();
		expect(new Set(deliveries.map((d) => d.body)).size).toBe(1);
		expect(new Set(deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
		expect(deliveries.map((d) => d.headers['x-business-ops-attempt'])).toEqual(['1', '2', '3']);
		spy.mockRestore();
		expect(retryDelays).toEqual([40, 80]);
		const log = t.control.deliveries();
		expect(log.map((a) => [a.attempt, a.statusCode, a.success])).toEqual([
			[1, 500, false],
			[2, 500, false],
			[3, 204, true],
		]);
		expect(log[0]).toMatchObject({
			subscriptionId: hook.id,
			url: receiver.url,
			eventType: 'quote.created',
			error: null,
		});
		expect(log[0].durationMs).toBeGreaterThanOrEqual(0);
	});

	test('gives up after the configured attempts; network errors are logged', async () => {
		await subscribe(['quote.created'], {}, 'http://127.0.0.1:9/unreachable');
		await t.admin('POST', '/quotes', {
			contactId: await firstContactId(),
			items: [{ name: 'x', quantity: 1, unitPrice: 1 }],
		});
		await t.control.waitForDeliveries();
		const log = t.control.deliveries();
		expect(log).toHaveLength(3);
		for (const attempt of log) {
			expect(attempt.statusCode).toBeNull();
			expect(attempt.error).toBeTruthy();
			expect(attempt.success).toBe(false);
		}
	});

	test('stop() cancels pending retries instead of waiting for them', async () => {
		const own = await startTestSandbox({
			deliveryRetry: { attempts: 5, baseDelayMs: 100 },
			seed: false,
		});
		const failing = await startReceiver(() => 500);
		try {
			await own.admin('POST', '/webhooks', { url: failing.url, events: ['contact.created'] });
			await own.admin('POST', '/contacts', { name: 'Retry' });
			await failing.waitFor(1);
			// Had stop() waited for the retries (100, 200, 400, 800 ms), they would have reached the receiver.
			await own.sandbox.stop();
			expect(failing.received).toHaveLength(1);
			await own.control.waitForDeliveries();
			await new Promise((r) => setTimeout(r, 350));
			expect(failing.received).toHaveLength(1);
		} finally {
			await failing.close();
		}
	});

	test('the API answers before the delivery is made', async () => {
		receiver.respond = () => 200;
		await subscribe(['quote.created']);
		t.control.clearDeliveries();
		const res = await t.admin('POST', '/quotes', {
			contactId: await firstContactId(),
			items: [{ name: 'x', quantity: 1, unitPrice: 1 }],
		});
		expect(res.status).toBe(201);
		expect(t.control.deliveries()).toHaveLength(0);
		await receiver.waitFor(1);
	});
});

describe('test endpoint', () => {
	test('POST /webhooks/{id}/test delivers a test event and reports the first attempt', async () => {
		const hook = await subscribe(['invoice.paid']);
		const res = await t.admin('POST', `/webhooks/${hook.id}/test`, { eventType: 'quote.approved' });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ delivered: true, statusCode: 200 });
		expect(res.body.data.eventId).toMatch(/^evt_/);
		expect(receiver.received).toHaveLength(1);
		const payload = JSON.parse(receiver.received[0].body);
		expect(payload).toMatchObject({
			id: res.body.data.eventId,
			type: 'quote.approved',
			test: true,
		});
		expect(payload.data.id).toMatch(/^quo_/);
		expect(verify('standard', hook.signingSecret, receiver.received[0])).toBe(true);
	});

	test('a failing receiver gives delivered false with its status', async () => {
		receiver.respond = () => 503;
		const hook = await subscribe(['quote.created']);
		const res = await t.admin('POST', `/webhooks/${hook.id}/test`, { eventType: 'quote.created' });
		expect(res.body.data).toMatchObject({ delivered: false, statusCode: 503 });
	});

	test('eventType must be a known type; unknown subscription is 404', async () => {
		const hook = await subscribe(['quote.created']);
		const res = await t.admin('POST', `/webhooks/${hook.id}/test`, { eventType: 'quote.deleted' });
		expect(res.status).toBe(400);
		expect(res.body.error.field).toBe('eventType');
		expect((await t.admin('POST', `/webhooks/${hook.id}/test`, {})).body.error.message).toBe(
			'"eventType" is required',
		);
		expect(
			(await t.admin('POST', '/webhooks/whk_nope/test', { eventType: 'quote.created' })).status,
		).toBe(404);
	});
});
