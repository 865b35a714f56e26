/**
 * A Signature Scheme or Custom option is read at delivery as the activation check
 * reads it, and fail-closed: a value the check refuses (an expression or a Variable that gives
 * something else after publishing) must refuse the delivery, never verify it under another
 * scheme, algorithm, encoding or key form than the one a check approved.
 */
import { createHmac } from 'crypto';
import type { INodeParameters } from 'n8n-workflow';
import { runWebhook } from '../harness/engine';
import { nodeWithWhk1, trigger, SIGNING, EVENTS } from './liveSubscription';
import { atFixedTime, standardHeaders } from './helpers';
import { customSignatureOf } from '../../nodes/BusinessOpsTrigger/signatures/customProperties';
import { schemeOf, verifyDelivery } from '../../nodes/BusinessOpsTrigger/signatures/verify';

const NOW = 1_700_000_000;
const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });

const nodeWith = (options: unknown) =>
	nodeWithWhk1({ events: EVENTS, options: options as INodeParameters }, EVENTS);

describe('a scheme or Custom option the check refuses is not read as another at delivery', () => {
	atFixedTime(NOW);

	test.each([
		['Algorithm "SHA512"', { algorithm: 'SHA512' }, 'sha256', 'hex'],
		['Algorithm "sha-512"', { algorithm: 'sha-512' }, 'sha256', 'hex'],
		['Signature Encoding "BASE64"', { encoding: 'BASE64' }, 'sha256', 'hex'],
	])(
		'a Custom %s at delivery (refused by the activation check) does not verify a delivery as HMAC-SHA256 hex',
		async (_what, setting, algorithm, encoding) => {
			const settings = { header: 'X-Sig', signedContent: '{body}', ...setting };
			const testNode = nodeWith({ signatureScheme: 'custom', customSignature: { settings } });
			const signature = createHmac(algorithm, SIGNING)
				.update(raw)
				.digest(encoding as 'hex');
			const run = await runWebhook(trigger, testNode, {
				headers: { 'x-sig': signature },
				rawBody: Buffer.from(raw),
			});
			// found: the check's refusal was replaced by the default at delivery
			expect(run.result.workflowData).toBeUndefined();
		},
	);

	test('a Signature Scheme of ["standardWebhooks"] at delivery (refused by the activation check) does not verify as Standard Webhooks', async () => {
		const testNode = nodeWith({ signatureScheme: ['standardWebhooks'] });
		const run = await runWebhook(trigger, testNode, {
			headers: standardHeaders(SIGNING, 'msg_1', NOW, raw),
			rawBody: Buffer.from(raw),
		});
		// found: presetOf's own-key lookup turned the list into the text "standardWebhooks"
		expect(run.result.workflowData).toBeUndefined();
	});

	test.each([
		['""', ''],
		['" NONE "', ' NONE '],
		['["none"]', ['none']],
		['{}', {}],
		['the number 0', 0],
	])('a Signature Scheme of %s at delivery refuses an unsigned delivery', async (_what, scheme) => {
		const testNode = nodeWith({ signatureScheme: scheme });
		const run = await runWebhook(trigger, testNode, { headers: {}, rawBody: Buffer.from(raw) });
		expect(run.result.workflowData).toBeUndefined();
	});

	test('a Signature Scheme of " none " (an expression with spaces) is None at delivery, as the check reads it', async () => {
		const testNode = nodeWith({ signatureScheme: ' none ' });
		const run = await runWebhook(trigger, testNode, { headers: {}, rawBody: Buffer.from(raw) });
		expect(run.result.workflowData).toHaveLength(1);
	});
});

describe('a delivery under a setting the check refuses is refused for that setting, naming it', () => {
	const received = {
		secret: SIGNING,
		headers: {},
		rawBody: Buffer.from(raw),
		nowSeconds: NOW,
	};

	test('a Signature Scheme that is none of the schemes', () => {
		const scheme = schemeOf(['standardWebhooks']);
		expect(verifyDelivery({ ...received, scheme })).toEqual({
			valid: false,
			kind: 'settings',
			reason: expect.stringMatching(
				/^"Signature Scheme" must be one of .*; the expression gave a list$/,
			),
		});
	});

	test.each([
		['Signature Encoding', { encoding: 'BASE64' }],
		['Signature Encoding', { encoding: '' }],
		['Algorithm', { algorithm: 'sha-512' }],
		['Signing Key', { key: 0 }],
	])('a Custom %s that is none of its options (%j)', (name, setting) => {
		const custom = customSignatureOf({
			customSignature: { settings: { header: 'X-Sig', ...setting } },
		});
		expect(verifyDelivery({ ...received, scheme: 'custom', custom })).toEqual({
			valid: false,
			kind: 'settings',
			reason: expect.stringMatching(new RegExp(`^Custom signature: "${name}" must be one of `)),
		});
	});
});
