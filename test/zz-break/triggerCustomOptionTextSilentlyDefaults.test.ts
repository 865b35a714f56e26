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
import { createHmac } from 'crypto';
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { activateTrigger, runWebhook } from '../harness/engine';
import { atFixedTime } from '../trigger/helpers';
import { API, nodeWithWhk1, SIGNING, trigger, WEBHOOK_URL } from './liveSubscription';

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
	nock(API)
		.get('/v1/webhooks/whk_1')
		.reply(200, {
			data: {
				id: 'whk_1',
				name: 'n8n: Test workflow / Business Ops Trigger (workflow-1)',
				url: WEBHOOK_URL,
				events: EVENTS,
				active: true,
			},
		});
	// fails today: the activation succeeds
	await expect(activateTrigger(trigger, testNode)).rejects.toThrow(/Algorithm/);
});
