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
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { activateTrigger, runWebhook } from '../harness/engine';
import { atFixedTime, standardHeaders } from '../trigger/helpers';
import { API, nodeWithWhk1, SIGNING, trigger, WEBHOOK_URL } from './liveSubscription';

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
		await expect(activateTrigger(trigger, testNode)).rejects.toThrow(/Signature Scheme/);
	},
);
