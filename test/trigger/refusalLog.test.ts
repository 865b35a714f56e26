/**
 * The refusal log's kinds (each logged at most once a minute per subscription; trigger.test.ts
 * runs that through the engine): every refusal carries one of a fixed set of kinds, whatever
 * its reason names; the kind comes from the verifier, not from the reason's words.
 */
import { decideTrust } from '../../nodes/BusinessOpsTrigger/trust';
import type { VerifyOptions } from '../../nodes/BusinessOpsTrigger/signatures/verify';
import { githubSignature, standardHeaders } from './helpers';
import { SIGNING as SECRET } from './liveSubscription';

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
