import { decideTrust } from '../../nodes/BusinessOpsTrigger/trust';
import type { VerifyOptions } from '../../nodes/BusinessOpsTrigger/signatures/verify';
import { standardHeaders } from './helpers';
import { SIGNING as SECRET } from './liveSubscription';

const NOW = 1_700_000_000;
const BODY = JSON.stringify({ id: 'evt_1', type: 'invoice.paid' });
type TrustSubscription = Omit<VerifyOptions, 'headers' | 'rawBody' | 'nowSeconds'>;
const auto: TrustSubscription = { scheme: 'auto', secret: SECRET, toleranceSeconds: 300 };
const request = (
	headers: Record<string, string>,
	rawBody: Buffer | string | undefined = Buffer.from(BODY),
) => ({ headers, rawBody, nowSeconds: NOW });
const decide = (
	req: Pick<VerifyOptions, 'headers' | 'rawBody' | 'nowSeconds'> & { parsedBody?: unknown },
	subscription: TrustSubscription,
) => decideTrust({ ...req, ...subscription });

describe('decideTrust: one request, one subscription, one answer', () => {
	test('accepted: the parsed body, the form it verified under and the signed timestamp (not the receive time)', () => {
		// signed 17 s before it is received
		expect(decide(request(standardHeaders(SECRET, 'msg_1', NOW - 17, BODY)), auto)).toEqual({
			accepted: true,
			body: JSON.parse(BODY),
			form: {
				description:
					'header webhook-signature, value v1,<base64>, HMAC-SHA256 of {ID}.{timestamp}.{body}, key the base64 after whsec_, timestamp from webhook-timestamp, id from header webhook-id',
				custom: {
					header: 'webhook-signature',
					prefix: 'v1,',
					encoding: 'base64',
					content: '{ID}.{timestamp}.{body}',
					key: 'whsecBase64',
					timestampHeader: 'webhook-timestamp',
					idHeader: 'webhook-id',
					algorithm: 'sha256',
				},
				signedId: 'msg_1',
			},
			timestamp: NOW - 17,
		});
		expect(
			decide(request(standardHeaders(SECRET, 'msg_1', NOW - 17, BODY)), {
				...auto,
				toleranceSeconds: 10,
			}),
		).toEqual({
			accepted: false,
			status: 401,
			kind: 'window',
			reason:
				'signature does not match (and timestamp too old: a timestamp outside the window is not tried)',
		});
	});

	test.each<[string, Parameters<typeof decide>[0], TrustSubscription, number, string, RegExp]>([
		[
			'a tolerance that is not a number',
			request(standardHeaders(SECRET, 'msg_1', NOW, BODY)),
			{ ...auto, toleranceSeconds: '5m' },
			401,
			'settings',
			/^"Timestamp Tolerance \(Seconds\)" must be a number/,
		],
		[
			'a secret that does not open',
			request(standardHeaders(SECRET, 'msg_1', NOW, BODY)),
			{ ...auto, secret: { problem: 'publish again' } },
			401,
			'secret',
			/^publish again$/,
		],
		[
			'no secret',
			request(standardHeaders(SECRET, 'msg_1', NOW, BODY)),
			{ ...auto, secret: undefined },
			401,
			'secret',
			/^no signing secret is stored$/,
		],
		[
			'a forged signature',
			request(
				standardHeaders('whsec_d3Jvbmctc2VjcmV0LW9mLWVub3VnaC1ieXRlcw==', 'msg_1', NOW, BODY),
			),
			auto,
			401,
			'signature',
			/^signature does not match$/,
		],
		[
			'a verified body that is a JSON list',
			request(standardHeaders(SECRET, 'msg_1', NOW, '[1]'), '[1]'),
			auto,
			400,
			'body',
			/^body is not a JSON object$/,
		],
		[
			'headers that are not an object',
			{
				headers: null as unknown as Record<string, string>,
				rawBody: Buffer.from(BODY),
				nowSeconds: NOW,
			},
			auto,
			401,
			'other',
			/^signature could not be checked$/,
		],
	])('refused: %s', (_case, req, subscription, status, kind, reason) => {
		const trust = decide(req, subscription);
		expect(trust).toEqual({ accepted: false, status, kind, reason: expect.stringMatching(reason) });
	});

	test("the scheme None accepts n8n's parsed body only when the raw bytes are missing, and only an object", () => {
		const none: TrustSubscription = { scheme: 'none', secret: undefined, toleranceSeconds: 300 };
		expect(
			decide({ headers: {}, rawBody: undefined, parsedBody: { a: 1 }, nowSeconds: NOW }, none),
		).toMatchObject({ accepted: true, body: { a: 1 } });
		expect(
			decide({ headers: {}, rawBody: undefined, parsedBody: [1], nowSeconds: NOW }, none),
		).toMatchObject({ accepted: false, status: 400 });
	});
});
