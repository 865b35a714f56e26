import * as crypto from 'crypto';
import { createHmac } from 'node:crypto';
import {
	MAX_SEARCH_BODY_BYTES,
	MAX_SEARCH_HMACS,
} from '../../nodes/BusinessOpsTrigger/signatures/auto';
import {
	hmacKeyOf,
	toleranceOf,
	type CustomSignature,
	type SignedForm,
	type VerifyResult,
} from '../../nodes/BusinessOpsTrigger/signatures/hmac';
import {
	customProblem,
	verifyDelivery,
	type VerifyOptions,
} from '../../nodes/BusinessOpsTrigger/signatures/verify';
import { signDelivery, SIGNING_FORMS } from '../../sandbox/src/signing';
import {
	autoHmacs,
	formHeaders,
	githubSignature,
	standardHeaders,
	stripeSignature,
	stripeV1,
	VECTOR,
	type FormSpec,
} from './helpers';

// The node's HMACs, counted: every one goes through crypto.createHmac; and every comparison of
// digests, which must go through crypto.timingSafeEqual.
jest.mock('crypto', () => {
	const actual = jest.requireActual<typeof import('crypto')>('crypto');
	return {
		...actual,
		createHmac: jest.fn(actual.createHmac),
		timingSafeEqual: jest.fn(actual.timingSafeEqual),
	};
});

const NOW = VECTOR.timestamp;
const SECRET = 'whsec_c2VjcmV0LWZvci10aGUtdHJpZ2dlci10ZXN0cy0xMjM0NQ==';
const standardWebhooksKey = (secret: string) => hmacKeyOf(secret, 'whsecBase64');
const BODY =
	'{"id":"evt_1","type":"invoice.paid","timestamp":"2021-02-26T00:22:10.000Z","data":{"id":"inv_1"}}';

/** A signing form: bare hex of `{id}.{timestamp}.{body}` under the whsec key, id and timestamp in headers of its own. */
const BARE_HEX_WITH_ID: FormSpec = {
	header: 'X-Signature',
	value: 'hex',
	content: 'id.timestamp.body',
	key: 'whsec',
	timestampHeader: 'X-Signature-Timestamp',
	idHeader: 'X-Message-Id',
};

/** A Custom form: X-Sig: sha256=<hex> of `{timestamp}.{body}` under the whole secret, the time in X-Sig-Time. */
const X_SIG: CustomSignature = {
	header: 'X-Sig',
	prefix: 'sha256=',
	encoding: 'hex',
	content: '{timestamp}.{body}',
	key: 'secret',
	timestampHeader: 'X-Sig-Time',
	idHeader: '',
	algorithm: 'sha256',
};

function verify(overrides: Partial<VerifyOptions>): VerifyResult {
	return verifyDelivery({
		scheme: 'auto',
		secret: SECRET,
		headers: {},
		rawBody: Buffer.from(BODY),
		nowSeconds: NOW,
		...overrides,
	});
}

function reasonOf(result: VerifyResult): string {
	if (result.valid) throw new Error('expected a failure');
	return result.reason;
}

describe('Standard Webhooks', () => {
	const vector = {
		'webhook-id': VECTOR.id,
		'webhook-timestamp': String(VECTOR.timestamp),
		'webhook-signature': VECTOR.signature,
	};
	const run = (headers: Record<string, string>, overrides: Partial<VerifyOptions> = {}) =>
		verify({
			scheme: 'standardWebhooks',
			secret: VECTOR.secret,
			headers,
			rawBody: Buffer.from(VECTOR.body),
			...overrides,
		});

	test('accepts the published test vector', () => {
		expect(run(vector)).toEqual({
			valid: true,
			form: { description: 'Standard Webhooks', signedId: VECTOR.id },
			timestamp: VECTOR.timestamp,
		});
	});

	test('the test-side signer reproduces the vector (so the other tests sign correctly)', () => {
		expect(standardHeaders(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toEqual(
			vector,
		);
	});

	test('the key is the base64 after whsec_, not the secret text', () => {
		expect(standardWebhooksKey(VECTOR.secret)).toEqual(
			Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'),
		);
	});

	test('header names are matched whatever their case', () => {
		const upper = Object.fromEntries(Object.entries(vector).map(([k, v]) => [k.toUpperCase(), v]));
		expect(run(upper).valid).toBe(true);
	});

	test('a body changed by one byte is refused', () => {
		const tampered = Buffer.from(VECTOR.body);
		tampered[tampered.length - 2] ^= 1;
		expect(reasonOf(run(vector, { rawBody: tampered }))).toBe('signature does not match');
	});

	test('a signature whose last character differs only in bits base64 ignores is refused, under Auto too', () => {
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
		const signature = VECTOR.signature;
		const last = signature.indexOf('=') - 1;
		const twin = alphabet[alphabet.indexOf(signature[last]) ^ 1];
		const spelledOtherwise = `${signature.slice(0, last)}${twin}${signature.slice(last + 1)}`;
		// the same bytes to a lenient decoder: only a canonical check tells them apart
		expect(Buffer.from(spelledOtherwise.slice(3), 'base64')).toEqual(
			Buffer.from(signature.slice(3), 'base64'),
		);
		const headers = { ...vector, 'webhook-signature': spelledOtherwise };
		expect(run(headers).valid).toBe(false);
		expect(run(headers, { scheme: 'auto' }).valid).toBe(false);
	});

	test('the same JSON with different bytes (re-serialised) is refused', () => {
		const reserialised = JSON.stringify(JSON.parse(VECTOR.body));
		expect(reserialised).not.toBe(VECTOR.body);
		expect(reasonOf(run(vector, { rawBody: Buffer.from(reserialised) }))).toBe(
			'signature does not match',
		);
	});

	test('timestamps up to the tolerance are accepted, beyond it refused (stale and future)', () => {
		expect(run(vector, { nowSeconds: NOW + 300 }).valid).toBe(true);
		expect(run(vector, { nowSeconds: NOW - 300 }).valid).toBe(true);
		expect(reasonOf(run(vector, { nowSeconds: NOW + 301 }))).toBe('timestamp too old');
		expect(reasonOf(run(vector, { nowSeconds: NOW - 301 }))).toBe('timestamp in the future');
		expect(reasonOf(run(vector, { nowSeconds: NOW + 61, toleranceSeconds: 60 }))).toBe(
			'timestamp too old',
		);
	});

	test('the signature is spelled as the specification says: URL-safe or unpadded base64 is refused (Auto reads both)', () => {
		const urlSafe = VECTOR.signature.replace(/\+/g, '-').replace(/\//g, '_');
		const unpadded = VECTOR.signature.replace(/=$/, '');
		for (const value of [urlSafe, unpadded]) {
			expect(reasonOf(run({ ...vector, 'webhook-signature': value }))).toBe(
				'malformed webhook-signature header',
			);
			expect(run({ ...vector, 'webhook-signature': value }, { scheme: 'auto' }).valid).toBe(true);
		}
	});

	test('a timestamp that was signed but moved is refused', () => {
		expect(reasonOf(run({ ...vector, 'webhook-timestamp': String(NOW + 1) }))).toBe(
			'signature does not match',
		);
	});

	test.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
		'missing %s is refused',
		(name) => {
			const headers: Record<string, string> = { ...vector };
			delete headers[name];
			expect(reasonOf(run(headers))).toBe(`missing ${name} header`);
		},
	);

	test.each([
		['webhook-signature', 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
		['webhook-signature', 'v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
		['webhook-signature', 'v1:g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
		['webhook-signature', 'v1,not-base64!'],
		['webhook-signature', 'v1,'],
	])('a malformed %s "%s" is refused', (name, value) => {
		expect(reasonOf(run({ ...vector, [name]: value }))).toBe('malformed webhook-signature header');
	});

	test.each(['abc', '1614265330.5', '-1614265330', '1614265330000000'])(
		'a malformed timestamp "%s" is refused',
		(value) => {
			expect(reasonOf(run({ ...vector, 'webhook-timestamp': value }))).toBe('malformed timestamp');
		},
	);

	test('several signatures (secret rotation): one valid is enough', () => {
		const other = 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
		expect(run({ ...vector, 'webhook-signature': `${other} ${VECTOR.signature}` }).valid).toBe(
			true,
		);
		expect(run({ ...vector, 'webhook-signature': `v2,xyz ${VECTOR.signature}` }).valid).toBe(true);
		expect(run({ ...vector, 'webhook-signature': `${VECTOR.signature} ${other}` }).valid).toBe(
			true,
		);
		expect(reasonOf(run({ ...vector, 'webhook-signature': `${other} ${other}` }))).toBe(
			'signature does not match',
		);
	});

	test('a wrong secret is refused', () => {
		expect(reasonOf(run(vector, { secret: SECRET }))).toBe('signature does not match');
	});
});

describe('GitHub-style', () => {
	const headers = { 'x-hub-signature-256': githubSignature(SECRET, BODY) };

	test('accepts a valid signature in the default header', () => {
		expect(verify({ scheme: 'github', headers })).toEqual({
			valid: true,
			form: { description: 'GitHub-style (header X-Hub-Signature-256)' },
		});
	});

	test('the key is the whole secret as UTF-8 (whsec_ included)', () => {
		const base64Keyed = `sha256=${createHmac('sha256', standardWebhooksKey(SECRET)).update(BODY).digest('hex')}`;
		expect(
			verify({ scheme: 'github', headers: { 'x-hub-signature-256': base64Keyed } }).valid,
		).toBe(false);
	});

	test('upper-case hex is accepted', () => {
		const value = `sha256=${headers['x-hub-signature-256'].slice('sha256='.length).toUpperCase()}`;
		expect(verify({ scheme: 'github', headers: { 'x-hub-signature-256': value } }).valid).toBe(
			true,
		);
	});

	test('a prefix counts only where a value starts (after a space or comma), under GitHub- and Stripe-style', () => {
		const value = headers['x-hub-signature-256'];
		expect(
			reasonOf(verify({ scheme: 'github', headers: { 'x-hub-signature-256': `x${value}` } })),
		).toBe('malformed X-Hub-Signature-256 header');
		expect(
			verify({ scheme: 'github', headers: { 'x-hub-signature-256': `a,${value}` } }).valid,
		).toBe(true);
		const stripe = `t=${NOW},xv1=${stripeV1(SECRET, NOW, BODY)}`;
		expect(reasonOf(verify({ scheme: 'stripe', headers: { 'stripe-signature': stripe } }))).toBe(
			'malformed Stripe-Signature header',
		);
	});

	test('a configured header is read instead of the default', () => {
		const custom = { 'x-signature': githubSignature(SECRET, BODY) };
		expect(
			verify({ scheme: 'github', headers: custom, signatureHeader: 'X-Signature' }).valid,
		).toBe(true);
		expect(reasonOf(verify({ scheme: 'github', headers, signatureHeader: 'X-Signature' }))).toBe(
			'missing X-Signature header',
		);
	});

	test('tampered body, wrong secret, missing and malformed headers are refused', () => {
		expect(
			reasonOf(
				verify({ scheme: 'github', headers, rawBody: Buffer.from(BODY.replace('inv_1', 'inv_2')) }),
			),
		).toBe('signature does not match');
		expect(reasonOf(verify({ scheme: 'github', headers, secret: 'another-secret-of-20' }))).toBe(
			'signature does not match',
		);
		expect(reasonOf(verify({ scheme: 'github', headers: {} }))).toBe(
			'missing X-Hub-Signature-256 header',
		);
		const hex = headers['x-hub-signature-256'].slice('sha256='.length);
		for (const bad of [hex, `sha1=${hex}`, `sha256=${hex.slice(2)}`, `sha256=${hex}zz`]) {
			expect(reasonOf(verify({ scheme: 'github', headers: { 'x-hub-signature-256': bad } }))).toBe(
				'malformed X-Hub-Signature-256 header',
			);
		}
	});
});

describe('Stripe-style', () => {
	const headers = { 'stripe-signature': stripeSignature(SECRET, NOW, BODY) };

	test('accepts a valid signature', () => {
		expect(verify({ scheme: 'stripe', headers })).toEqual({
			valid: true,
			form: { description: 'Stripe-style (header Stripe-Signature)' },
			timestamp: NOW,
		});
	});

	test('several v1 signatures: one valid is enough; other schemes in the header are ignored', () => {
		const value = `t=${NOW},v1=${'0'.repeat(64)},v0=abc,v1=${stripeV1(SECRET, NOW, BODY)}`;
		expect(verify({ scheme: 'stripe', headers: { 'Stripe-Signature': value } }).valid).toBe(true);
		const none = `t=${NOW},v1=${'0'.repeat(64)},v1=${'1'.repeat(64)}`;
		expect(reasonOf(verify({ scheme: 'stripe', headers: { 'stripe-signature': none } }))).toBe(
			'signature does not match',
		);
	});

	test('stale and future timestamps are refused', () => {
		const stale = { 'stripe-signature': stripeSignature(SECRET, NOW - 301, BODY) };
		const future = { 'stripe-signature': stripeSignature(SECRET, NOW + 301, BODY) };
		expect(reasonOf(verify({ scheme: 'stripe', headers: stale }))).toBe('timestamp too old');
		expect(reasonOf(verify({ scheme: 'stripe', headers: future }))).toBe('timestamp in the future');
		expect(verify({ scheme: 'stripe', headers: stale, toleranceSeconds: 600 }).valid).toBe(true);
	});

	test('a changed t (signed value moved) is refused', () => {
		const moved = { 'stripe-signature': `t=${NOW + 1},v1=${stripeV1(SECRET, NOW, BODY)}` };
		expect(reasonOf(verify({ scheme: 'stripe', headers: moved }))).toBe('signature does not match');
	});

	test('missing and malformed headers are refused', () => {
		const v1 = stripeV1(SECRET, NOW, BODY);
		expect(reasonOf(verify({ scheme: 'stripe', headers: {} }))).toBe(
			'missing Stripe-Signature header',
		);
		for (const bad of [
			`v1=${v1}`,
			`t=${NOW}`,
			`t=${NOW},t=${NOW + 1},v1=${v1}`,
			`t=${NOW},v1=xyz`,
			'garbage',
		]) {
			expect(reasonOf(verify({ scheme: 'stripe', headers: { 'stripe-signature': bad } }))).toBe(
				'malformed Stripe-Signature header',
			);
		}
		expect(
			reasonOf(verify({ scheme: 'stripe', headers: { 'stripe-signature': `t=soon,v1=${v1}` } })),
		).toBe('malformed timestamp');
	});

	test('tampered body and wrong secret are refused; a configured header is read', () => {
		expect(reasonOf(verify({ scheme: 'stripe', headers, rawBody: Buffer.from(`${BODY} `) }))).toBe(
			'signature does not match',
		);
		expect(reasonOf(verify({ scheme: 'stripe', headers, secret: 'whsec_another-secret' }))).toBe(
			'signature does not match',
		);
		const custom = { 'x-bo-signature': stripeSignature(SECRET, NOW, BODY) };
		expect(
			verify({ scheme: 'stripe', headers: custom, signatureHeader: 'X-BO-Signature' }).valid,
		).toBe(true);
	});
});

describe('Auto: finds the API form without weakening the check', () => {
	const ID = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
	/** Forms an API might use, beyond the three named schemes: header names, value forms, contents, keys. */
	const FORMS: Array<[string, FormSpec]> = [
		[
			'Standard Webhooks',
			{
				header: 'webhook-signature',
				value: 'v1,base64',
				content: 'id.timestamp.body',
				key: 'whsec',
				timestampHeader: 'webhook-timestamp',
				idHeader: 'webhook-id',
			},
		],
		[
			'GitHub-style under another header',
			{ header: 'X-BusinessOps-Signature', value: 'sha256=hex', content: 'body', key: 'secret' },
		],
		[
			'Stripe-style under another header',
			{ header: 'X-Signature', value: 't=,v1=hex', content: 'timestamp.body', key: 'secret' },
		],
		['bare hex of the body', { header: 'Signature', value: 'hex', content: 'body', key: 'secret' }],
		[
			'bare base64, timestamp header',
			{
				header: 'X-Webhook-Signature',
				value: 'base64',
				content: 'timestamp.body',
				key: 'secret',
				timestampHeader: 'X-Webhook-Timestamp',
			},
		],
		['bare hex, whsec key, id and timestamp headers', BARE_HEX_WITH_ID],
		[
			'v1,<base64> of timestamp.body with the whole secret',
			{
				header: 'BO-Signature',
				value: 'v1,base64',
				content: 'timestamp.body',
				key: 'secret',
				timestampHeader: 'BO-Timestamp',
			},
		],
		[
			'sha256=<hex> of id.timestamp.body (Svix-like headers)',
			{
				header: 'svix-signature',
				value: 'sha256=hex',
				content: 'id.timestamp.body',
				key: 'whsec',
				timestampHeader: 'svix-timestamp',
				idHeader: 'svix-id',
			},
		],
	];

	test.each(FORMS)('%s: accepted, and the form it names verifies under Custom', (_name, spec) => {
		const headers = formHeaders(spec, SECRET, ID, NOW, BODY);
		const result = verify({ headers });
		expect(result.valid).toBe(true);
		if (!result.valid) return;
		// exactly the Custom settings that accept this form, as the log names them
		const prefixes: Record<FormSpec['value'], string> = {
			'v1,base64': 'v1,',
			'sha256=hex': 'sha256=',
			't=,v1=hex': 'v1=',
			hex: '',
			base64: '',
		};
		const contents = {
			body: '{body}',
			'timestamp.body': '{timestamp}.{body}',
			'id.timestamp.body': '{ID}.{timestamp}.{body}',
		} as const;
		const custom: CustomSignature = {
			header: spec.header,
			prefix: prefixes[spec.value],
			encoding: spec.value.endsWith('base64') ? 'base64' : 'hex',
			content: contents[spec.content],
			key: spec.key === 'whsec' ? 'whsecBase64' : 'secret',
			timestampHeader: spec.timestampHeader ?? '',
			idHeader: spec.idHeader ?? '',
			algorithm: 'sha256',
		};
		expect(result.form.custom).toEqual(custom);
		expect(result.form.signedId).toBe(spec.idHeader ? ID : undefined);
		expect(result.timestamp).toBe(spec.content === 'body' ? undefined : NOW);
		expect(verify({ scheme: 'custom', custom, headers })).toMatchObject({ valid: true });
		// the same form, tampered or signed with another secret, is refused
		expect(reasonOf(verify({ headers, rawBody: Buffer.from(`${BODY} `) }))).toBe(
			'signature does not match',
		);
		expect(reasonOf(verify({ headers: formHeaders(spec, 'whsec_b3RoZXI=', ID, NOW, BODY) }))).toBe(
			'signature does not match',
		);
	});

	test('a signed timestamp outside the window is refused, from a header or from t=', () => {
		for (const spec of [FORMS[1 + 1][1], FORMS[4][1], FORMS[0][1]]) {
			// outside the window a timestamp is not even hashed; the reason says why nothing matched
			expect(reasonOf(verify({ headers: formHeaders(spec, SECRET, ID, NOW - 301, BODY) }))).toMatch(
				/^signature does not match \(and timestamp too old/,
			);
			expect(reasonOf(verify({ headers: formHeaders(spec, SECRET, ID, NOW + 301, BODY) }))).toMatch(
				/^signature does not match \(and timestamp in the future/,
			);
			expect(
				verify({ headers: formHeaders(spec, SECRET, ID, NOW - 301, BODY), toleranceSeconds: 400 })
					.valid,
			).toBe(true);
		}
	});

	test('ts= in the signature value is a signed timestamp too, and the pinned Custom form reads it', () => {
		const headers = { 'X-Sig-Signature': `ts=${NOW} v1=${stripeV1(SECRET, NOW, BODY)}` };
		const result = verify({ headers });
		expect(result).toMatchObject({ valid: true, timestamp: NOW });
		if (!result.valid) return;
		expect(verify({ scheme: 'custom', custom: result.form.custom, headers })).toMatchObject({
			valid: true,
			timestamp: NOW,
		});
		const stale = { 'X-Sig-Signature': `ts=${NOW - 400} v1=${stripeV1(SECRET, NOW - 400, BODY)}` };
		expect(reasonOf(verify({ headers: stale }))).toMatch(/timestamp too old/);
	});

	test('a signature over timestamp.body does not verify once the timestamp is changed or left out', () => {
		const headers = formHeaders(FORMS[4][1], SECRET, ID, NOW, BODY);
		expect(
			reasonOf(verify({ headers: { ...headers, 'X-Webhook-Timestamp': String(NOW + 1) } })),
		).toBe('signature does not match');
		const withoutTimestamp = { ...headers };
		delete (withoutTimestamp as Record<string, string>)['X-Webhook-Timestamp'];
		expect(reasonOf(verify({ headers: withoutTimestamp }))).toBe('signature does not match');
	});

	test('several signatures (rotation), separated by spaces or commas: one valid is enough', () => {
		const good = formHeaders(FORMS[3][1], SECRET, ID, NOW, BODY).Signature;
		const other = formHeaders(FORMS[3][1], 'whsec_b3RoZXI=', ID, NOW, BODY).Signature;
		expect(verify({ headers: { Signature: `${other} ${good}` } }).valid).toBe(true);
		expect(verify({ headers: { Signature: `${other},${good}` } }).valid).toBe(true);
		expect(verify({ headers: { Signature: [other, good] } }).valid).toBe(true);
		expect(reasonOf(verify({ headers: { Signature: `${other} ${other}` } }))).toBe(
			'signature does not match',
		);
	});

	test('a header set under Signature Header is searched even without "signature" in its name', () => {
		const headers = { 'X-BO-Sig': githubSignature(SECRET, BODY) };
		expect(reasonOf(verify({ headers }))).toBe(
			'missing signature header (no header name contains "signature")',
		);
		expect(verify({ headers, signatureHeader: 'X-BO-Sig' }).valid).toBe(true);
	});

	test('missing and malformed signature headers are refused with a reason', () => {
		expect(reasonOf(verify({ headers: { 'content-type': 'application/json' } }))).toBe(
			'missing signature header (no header name contains "signature")',
		);
		expect(reasonOf(verify({ headers: { 'X-Signature': 'nonsense' } }))).toBe(
			'malformed X-Signature header: no HMAC-SHA256 value in hex or base64',
		);
		expect(reasonOf(verify({ headers: { 'X-Signature': 'sha256=abc' } }))).toMatch(
			/^malformed X-Signature header/,
		);
		// a header name without a value (Node's IncomingMessage never gives one, a caller might) is no header
		expect(reasonOf(verify({ headers: { 'X-Signature': undefined } }))).toBe(
			'missing signature header (no header name contains "signature")',
		);
	});

	test('the secret used the way of another form does not verify (key forms are not mixed up)', () => {
		const keyedWithText = createHmac('sha256', Buffer.from('whsec_other', 'utf8'))
			.update(BODY)
			.digest('hex');
		expect(reasonOf(verify({ headers: { Signature: keyedWithText } }))).toBe(
			'signature does not match',
		);
		const mac = createHmac('sha512', Buffer.from(SECRET, 'utf8')).update(BODY).digest('hex');
		expect(reasonOf(verify({ headers: { Signature: mac } }))).toMatch(
			/^malformed Signature header/,
		);
	});
});

describe('Custom', () => {
	const base: CustomSignature = {
		...X_SIG,
		prefix: 'sha512=',
		content: '{ID}:{timestamp}:{body}',
		idHeader: 'X-Sig-Id',
		algorithm: 'sha512',
	};
	const signed = (custom = base, timestamp = NOW, body = BODY) => {
		const mac = createHmac('sha512', Buffer.from(SECRET, 'utf8'))
			.update(`evt_9:${timestamp}:${body}`)
			.digest('hex');
		return {
			'X-Sig': `${custom.prefix}${mac}`,
			'X-Sig-Time': String(timestamp),
			'X-Sig-Id': 'evt_9',
		};
	};

	test('every part set by hand, HMAC-SHA512 with a template of its own', () => {
		expect(verify({ scheme: 'custom', custom: base, headers: signed() })).toEqual({
			valid: true,
			form: { description: 'Custom (header X-Sig)', custom: base, signedId: 'evt_9' },
			timestamp: NOW,
		});
		expect(
			reasonOf(verify({ scheme: 'custom', custom: base, headers: signed(base, NOW - 301) })),
		).toBe('timestamp too old');
		expect(
			reasonOf(
				verify({ scheme: 'custom', custom: base, headers: { ...signed(), 'X-Sig-Id': 'evt_8' } }),
			),
		).toBe('signature does not match');
		expect(
			reasonOf(
				verify({ scheme: 'custom', custom: { ...base, algorithm: 'sha256' }, headers: signed() }),
			),
		).toMatch(/^malformed X-Sig header: expected sha512=<hex HMAC-SHA256>/);
		expect(reasonOf(verify({ scheme: 'custom', custom: base, headers: {} }))).toBe(
			'missing X-Sig header',
		);
	});

	test('the timestamp from t= of the signature header when no timestamp header is set', () => {
		const custom: CustomSignature = { ...X_SIG, prefix: 'v1=', timestampHeader: '' };
		const headers = { 'X-Sig': stripeSignature(SECRET, NOW, BODY) };
		expect(verify({ scheme: 'custom', custom, headers })).toMatchObject({
			valid: true,
			timestamp: NOW,
		});
		expect(
			reasonOf(
				verify({
					scheme: 'custom',
					custom,
					headers: { 'X-Sig': `v1=${stripeV1(SECRET, NOW, BODY)}` },
				}),
			),
		).toBe('missing timestamp (t= in X-Sig)');
	});

	test('settings that cannot work are refused with what to fix', () => {
		expect(customProblem({ ...base, header: ' ' })).toBe(
			'Custom signature: set "Signature Header"',
		);
		expect(customProblem({ ...base, content: '{timestamp}' })).toMatch(
			/must contain \{body\} exactly once/,
		);
		expect(customProblem({ ...base, content: '{body}{body}' })).toMatch(
			/must contain \{body\} exactly once/,
		);
		expect(customProblem({ ...base, content: '{ts}.{body}' })).toBe(
			'Custom signature: "Signed Content" has {ts}; use {body}, {timestamp} and {ID}',
		);
		expect(customProblem({ ...base, idHeader: '' })).toBe(
			'Custom signature: "Signed Content" uses {ID}, so set "ID Header"',
		);
		expect(customProblem(base)).toBeUndefined();
		expect(
			reasonOf(verify({ scheme: 'custom', custom: { ...base, header: '' }, headers: signed() })),
		).toBe('Custom signature: set "Signature Header"');
		// Custom without settings checks nothing against nothing: refused as unset
		expect(verify({ scheme: 'custom', headers: signed() })).toEqual({
			valid: false,
			kind: 'settings',
			reason: 'Custom signature: set "Signature Header"',
		});
	});
});

describe('a signature header that arrives twice (a proxy, or the API during key rotation): one valid entry verifies', () => {
	const custom = X_SIG;
	const junkHex = (fill: number) => Buffer.alloc(32, fill).toString('hex');
	const junkBase64 = (fill: number) => Buffer.alloc(32, fill).toString('base64');
	const standard = standardHeaders(SECRET, 'msg_1', NOW, BODY);
	const standardRest = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(NOW) };
	/** Per scheme: the signature header, a genuine value, other values (an old key's), and the other headers the delivery carries. */
	const CASES: Array<
		[
			string,
			Partial<VerifyOptions>,
			string,
			string,
			(fill: number) => string,
			Record<string, string>,
		]
	> = [
		[
			'Standard Webhooks',
			{ scheme: 'standardWebhooks' },
			'webhook-signature',
			standard['webhook-signature'],
			(fill) => `v1,${junkBase64(fill)}`,
			standardRest,
		],
		[
			'GitHub-style',
			{ scheme: 'github' },
			'x-hub-signature-256',
			githubSignature(SECRET, BODY),
			(fill) => `sha256=${junkHex(fill)}`,
			{},
		],
		[
			'Stripe-style',
			{ scheme: 'stripe' },
			'stripe-signature',
			stripeSignature(SECRET, NOW, BODY),
			(fill) => `t=${NOW},v1=${junkHex(fill)}`,
			{},
		],
		[
			'Custom',
			{ scheme: 'custom', custom },
			'x-sig',
			`sha256=${stripeV1(SECRET, NOW, BODY)}`,
			(fill) => `sha256=${junkHex(fill)}`,
			{ 'x-sig-time': String(NOW) },
		],
		[
			'Auto, Standard Webhooks form',
			{},
			'webhook-signature',
			standard['webhook-signature'],
			(fill) => `v1,${junkBase64(fill)}`,
			standardRest,
		],
		[
			'Auto, GitHub-style form',
			{},
			'x-hub-signature-256',
			githubSignature(SECRET, BODY),
			(fill) => `sha256=${junkHex(fill)}`,
			{},
		],
		[
			'Auto, Stripe-style form',
			{},
			'stripe-signature',
			stripeSignature(SECRET, NOW, BODY),
			(fill) => `t=${NOW},v1=${junkHex(fill)}`,
			{},
		],
	];
	/** As Node's HTTP server joins a header sent twice, and as an array (other servers, frameworks). */
	const twice = (first: string, second: string): Array<string | string[]> => [
		`${first}, ${second}`,
		[first, second],
	];

	test.each(CASES)(
		'%s: the genuine value first or second, joined by Node or as an array',
		(_name, scheme, header, genuine, other, rest) => {
			for (const [first, second] of [
				[genuine, other(7)],
				[other(7), genuine],
				[genuine, genuine],
			]) {
				for (const value of twice(first, second)) {
					expect([
						value,
						verify({ ...scheme, headers: { ...rest, [header]: value } }).valid,
					]).toEqual([value, true]);
				}
			}
		},
	);

	test.each(CASES)(
		'%s: twice, neither genuine, is refused as not matching',
		(_name, scheme, header, _genuine, other, rest) => {
			for (const value of twice(other(7), other(8))) {
				expect([
					value,
					reasonOf(verify({ ...scheme, headers: { ...rest, [header]: value } })),
				]).toEqual([value, 'signature does not match']);
			}
		},
	);

	test('Stripe-style: two headers with different t= are refused as malformed (one delivery is signed at one time)', () => {
		const value = `${stripeSignature(SECRET, NOW, BODY)}, ${stripeSignature(SECRET, NOW - 1, BODY)}`;
		expect(reasonOf(verify({ scheme: 'stripe', headers: { 'stripe-signature': value } }))).toBe(
			'malformed Stripe-Signature header',
		);
	});
});

describe('fails closed, never throws', () => {
	const headers = standardHeaders(SECRET, 'evt_1', NOW, BODY);

	test('no stored secret', () => {
		for (const secret of [undefined, '']) {
			expect(reasonOf(verify({ headers, secret }))).toBe('no signing secret is stored');
		}
	});

	test('no raw body (the parsed body is never re-serialised)', () => {
		expect(reasonOf(verify({ headers, rawBody: undefined }))).toBe(
			'the raw request body is not available',
		);
	});

	test('None accepts anything, with or without secret and body', () => {
		expect(verify({ scheme: 'none', headers: {}, secret: undefined, rawBody: undefined })).toEqual({
			valid: true,
			form: { description: 'None (not checked)' },
		});
	});

	test('found: a Signature Scheme named like an Object key ("constructor", "toString", "__proto__") is read as an empty Custom form, not refused as an unknown scheme', () => {
		// 305b58f: "unknown signature scheme"; the presets table of presetOf answers these names
		// from Object.prototype, so the reason sends the author to Custom's "Signature Header"
		for (const scheme of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
			expect(reasonOf(verify({ scheme: scheme as never, headers }))).toBe(
				'unknown signature scheme',
			);
		}
	});

	test('odd inputs give a refusal, not an exception', () => {
		const odd: Array<Partial<VerifyOptions>> = [
			{ headers: { 'webhook-signature': ['v1,a', 'v1,b'], 'webhook-id': undefined } },
			{ headers: { 'stripe-signature': ['t=1', 'v1=2'] } },
			{ headers: headers, secret: 42 as unknown as string },
			{ headers: headers, rawBody: 12 as unknown as Buffer },
			{ headers: null as unknown as Record<string, string> },
			{ scheme: 'sha1' as never, headers },
		];
		for (const options of odd) {
			expect(() => verify(options)).not.toThrow();
			expect(verify(options).valid).toBe(false);
		}
	});

	test('no refusal reason contains the secret or an expected signature', () => {
		const expected = [
			headers['webhook-signature'].slice(3),
			githubSignature(SECRET, BODY).slice(7),
			stripeV1(SECRET, NOW, BODY),
		];
		const failures = [
			verify({ headers, rawBody: Buffer.from('{}') }),
			verify({
				scheme: 'github',
				headers: { 'x-hub-signature-256': githubSignature(SECRET, '{}') },
			}),
			verify({
				scheme: 'stripe',
				headers: { 'stripe-signature': stripeSignature(SECRET, NOW, '{}') },
			}),
			verify({
				scheme: 'stripe',
				headers: { 'stripe-signature': stripeSignature(SECRET, 1, BODY) },
			}),
			verify({ headers: {} }),
		];
		for (const result of failures) {
			const reason = reasonOf(result);
			expect(reason).not.toContain(SECRET);
			expect(reason).not.toContain(SECRET.slice('whsec_'.length));
			for (const signature of expected) expect(reason).not.toContain(signature);
		}
	});
});

describe('every scheme compares digests in constant time (crypto.timingSafeEqual)', () => {
	const compared = crypto.timingSafeEqual as jest.MockedFunction<typeof crypto.timingSafeEqual>;
	const custom = X_SIG;
	const standard = standardHeaders(SECRET, 'msg_1', NOW, BODY);
	const CASES: Array<[string, Partial<VerifyOptions>, Record<string, string>]> = [
		['Standard Webhooks', { scheme: 'standardWebhooks' }, standard],
		[
			'GitHub-style',
			{ scheme: 'github' },
			{ 'x-hub-signature-256': githubSignature(SECRET, BODY) },
		],
		[
			'Stripe-style',
			{ scheme: 'stripe' },
			{ 'stripe-signature': stripeSignature(SECRET, NOW, BODY) },
		],
		[
			'Custom',
			{ scheme: 'custom', custom },
			{ 'X-Sig': `sha256=${stripeV1(SECRET, NOW, BODY)}`, 'X-Sig-Time': String(NOW) },
		],
		['Auto, searching', {}, standard],
		[
			'Auto, learned',
			{ learned: { content: '{ID}.{timestamp}.{body}', key: 'whsecBase64' } },
			standard,
		],
	];

	test.each(CASES)(
		'%s: the matching digest is found by timingSafeEqual, and a forged one is compared by it too',
		(_name, scheme, headers) => {
			compared.mockClear();
			expect(verify({ ...scheme, headers }).valid).toBe(true);
			expect(compared).toHaveReturnedWith(true);
			compared.mockClear();
			expect(verify({ ...scheme, headers, rawBody: Buffer.from(`${BODY} `) }).valid).toBe(false);
			expect(compared).toHaveBeenCalled();
			expect(compared).not.toHaveReturnedWith(true);
		},
	);
});

describe('interoperates with the sandbox API signer', () => {
	test.each(['standard', 'github', 'stripe'] as const)(
		'%s deliveries verify, explicitly and under Auto',
		(form) => {
			const body = Buffer.from(BODY);
			const signed = signDelivery({ form }, SECRET, 'evt_1', NOW, body);
			const explicit = { standard: 'standardWebhooks', github: 'github', stripe: 'stripe' }[
				form
			] as VerifyOptions['scheme'];
			expect(verify({ scheme: explicit, headers: signed, rawBody: body }).valid).toBe(true);
			expect(verify({ scheme: 'auto', headers: signed, rawBody: body }).valid).toBe(true);
			expect(
				verify({ scheme: explicit, headers: signed, rawBody: Buffer.from(`${BODY}\n`) }).valid,
			).toBe(false);
		},
	);

	test.each(
		SIGNING_FORMS.flatMap((form) =>
			(['body', 'timestamp.body', 'id.timestamp.body'] as const).map(
				(content) => [form, content] as const,
			),
		),
	)(
		'sandbox form %s over %s, under another header and with rotation: Auto accepts, tampering is refused',
		(form, content) => {
			const body = Buffer.from(BODY);
			const signed = signDelivery(
				{ form, content, signatureHeader: 'X-Api-Signature', rotate: true },
				SECRET,
				'evt_1',
				NOW,
				body,
			);
			expect(verify({ headers: signed, rawBody: body }).valid).toBe(true);
			expect(verify({ headers: signed, rawBody: Buffer.from(`${BODY} `) }).valid).toBe(false);
			const stale = signDelivery(
				{ form, content, signatureHeader: 'X-Api-Signature' },
				SECRET,
				'evt_1',
				NOW - 3600,
				body,
			);
			expect(verify({ headers: stale, rawBody: body }).valid).toBe(content === 'body');
		},
	);
});

describe('hostile traffic (issue 19): bounded work, nothing unusable decides', () => {
	const ID = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
	/** Counts the HMACs a verification makes (every one goes through crypto.createHmac). */
	function hmacsOf(run: () => VerifyResult): { result: VerifyResult; hmacs: number } {
		const counted = crypto.createHmac as jest.MockedFunction<typeof crypto.createHmac>;
		counted.mockClear();
		const result = run();
		return { result, hmacs: counted.mock.calls.length };
	}
	const junk = (count: number, name: (i: number) => string, value: (i: number) => string) =>
		Object.fromEntries(Array.from({ length: count }, (_, i) => [name(i), value(i)]));
	/** A forged request's many headers: 20 signature headers, 10 timestamps in the window, 10 ids. */
	const JUNK_HEADERS = {
		...junk(
			20,
			(i) => `x-${i}-signature`,
			(i) => `v1,${Buffer.alloc(32, i).toString('base64')} sha256=${'ab'.repeat(32)}`,
		),
		...junk(
			10,
			(i) => `x-${i}-timestamp`,
			(i) => String(NOW - i),
		),
		...junk(
			10,
			(i) => `x-${i}-id`,
			(i) => `id-${i}`,
		),
	};

	test('Auto before pinning: a forged request full of signature, timestamp and id headers costs at most 8 HMACs', () => {
		const headers = JUNK_HEADERS;
		const { result, hmacs } = hmacsOf(() => verify({ headers }));
		expect(reasonOf(result)).toBe('signature does not match');
		expect(hmacs).toBeGreaterThan(0);
		expect(hmacs).toBeLessThanOrEqual(MAX_SEARCH_HMACS);
	});

	test('Auto: timestamps outside the window are dropped before anything is hashed', () => {
		const headers = {
			'x-signature': `sha256=${'ab'.repeat(32)}`,
			...junk(
				10,
				(i) => `x-${i}-timestamp`,
				(i) => String(NOW - 10_000 - i),
			),
			'x-message-id': 'msg_1',
		};
		const { result, hmacs } = hmacsOf(() => verify({ headers }));
		expect(reasonOf(result)).toMatch(/timestamp too old/);
		// only the body alone, under each key form (whole secret, whsec_ base64)
		expect(hmacs).toBe(2);
	});

	test('Auto before learning, a large body: the named schemes verify with the first HMAC, a forged one costs one more, a rarer form waits for a smaller delivery', () => {
		const large = Buffer.from(
			JSON.stringify({ id: 'evt_1', type: 'invoice.paid', pad: 'x'.repeat(300 * 1024) }),
		);
		const forms: Array<[string, Record<string, string>]> = [
			['Standard Webhooks', standardHeaders(SECRET, ID, NOW, large)],
			// Stripe's secrets start with whsec_ too, and Stripe keys with the whole secret
			['Stripe-style', { 'stripe-signature': stripeSignature(SECRET, NOW, large) }],
			['GitHub-style', { 'x-hub-signature-256': githubSignature(SECRET, large) }],
		];
		for (const [name, headers] of forms) {
			const genuine = hmacsOf(() => verify({ headers, rawBody: large }));
			expect([name, genuine.result.valid, genuine.hmacs]).toEqual([name, true, 1]);
			const forgedHeaders = Object.fromEntries(
				Object.entries(headers).map(([header, value]) => [
					header,
					value.replace(/[0-9a-f]{64}|[A-Za-z0-9+/]{43}=/, (digest) =>
						digest.endsWith('=') ? Buffer.alloc(32, 9).toString('base64') : 'cd'.repeat(32),
					),
				]),
			);
			const forged = hmacsOf(() => verify({ headers: forgedHeaders, rawBody: large }));
			expect([name, forged.result.valid, forged.hmacs]).toEqual([name, false, 2]);
		}
		// the body alone signed, although a timestamp header is there: third in line, past the budget of a large body
		const rare = {
			'x-api-signature': githubSignature(SECRET, large).slice('sha256='.length),
			'x-api-timestamp': String(NOW),
			'x-api-delivery': ID,
		};
		expect(reasonOf(verify({ headers: rare, rawBody: large }))).toMatch(
			/tried only the 2 most likely forms over a body this large; a smaller delivery/,
		);
		const small = Buffer.from(BODY);
		expect(
			verify({
				headers: {
					...rare,
					'x-api-signature': githubSignature(SECRET, small).slice('sha256='.length),
				},
				rawBody: small,
			}).valid,
		).toBe(true);
	});

	test('Auto does not search a body over 1 MiB without a learned form; with one it checks any size with one HMAC', () => {
		const big = Buffer.alloc(MAX_SEARCH_BODY_BYTES + 1, 'a');
		const headers = formHeaders(
			{ header: 'X-Api-Signature', value: 'sha256=hex', content: 'body', key: 'secret' },
			SECRET,
			ID,
			NOW,
			big,
		);
		const searched = hmacsOf(() => verify({ headers, rawBody: big }));
		expect(reasonOf(searched.result)).toMatch(/does not search a body over 1048576 bytes/);
		expect(searched.hmacs).toBe(0);
		const small = verify({
			headers: formHeaders(
				{ header: 'X-Api-Signature', value: 'sha256=hex', content: 'body', key: 'secret' },
				SECRET,
				ID,
				NOW,
				BODY,
			),
		});
		if (!small.valid) throw new Error(small.reason);
		expect(small.form.custom).toMatchObject({ content: '{body}', key: 'secret' });
		const checked = hmacsOf(() => verify({ headers, rawBody: big, learned: small.form.custom }));
		expect(checked.result.valid).toBe(true);
		expect(checked.hmacs).toBe(1);
	});

	test('with a learned form, a forged request costs at most one HMAC more than a genuine one (2 in all), whatever its headers', () => {
		const learned: SignedForm = { content: '{ID}.{timestamp}.{body}', key: 'whsecBase64' };
		const genuine = standardHeaders(SECRET, ID, NOW, BODY);
		const forged = {
			'webhook-id': 'msg_forged',
			'webhook-timestamp': String(NOW),
			'webhook-signature': `v1,${Buffer.alloc(32, 1).toString('base64')}`,
			'stripe-signature': `t=${NOW},v1=${'ab'.repeat(32)}`,
			...JUNK_HEADERS,
			'x-delivery-id': 'd-1',
			'x-request-id': 'r-1',
		};
		const valid = hmacsOf(() => verify({ headers: genuine, learned }));
		const refused = hmacsOf(() => verify({ headers: forged, learned }));
		expect(valid.result.valid).toBe(true);
		expect(reasonOf(refused.result)).toMatch(
			/^signature does not match \(checked as HMAC-SHA256 of \{ID\}\.\{timestamp\}\.\{body\}/,
		);
		// the best-named candidates first, then one more (a header a proxy added may have pushed the genuine one back)
		expect([valid.hmacs, refused.hmacs]).toEqual([1, 2]);
	});

	test('a learned form checks every signature header, value prefix and candidate: unsigned aspects never decide', () => {
		const learned: SignedForm = { content: '{ID}.{timestamp}.{body}', key: 'whsecBase64' };
		const {
			'webhook-id': id,
			'webhook-timestamp': ts,
			'webhook-signature': sig,
		} = standardHeaders(SECRET, ID, NOW, BODY);
		const bare = sig.slice('v1,'.length);
		for (const headers of [
			{ 'x-poison-signature': sig, 'webhook-id': id, 'webhook-timestamp': ts },
			{ 'webhook-signature': sig, 'x-attacker-delivery-id': id, 'webhook-timestamp': ts },
			{ 'webhook-signature': bare, 'webhook-id': id, 'webhook-timestamp': ts },
			{ 'webhook-timestamp': ts, 'webhook-signature': `v9,${bare}`, 'webhook-id': id },
			{
				'x-vercel-id': 'fra1::abc',
				'x-arr-log-id': 'log-1',
				'x-request-id': 'r',
				traceparent: '00-1-2-01',
				'cf-ray': '8a',
				'svix-id': id,
				'svix-timestamp': ts,
				'svix-signature': sig,
			},
		]) {
			expect(verify({ headers, learned })).toMatchObject({
				valid: true,
				form: { signedId: ID, custom: learned },
			});
		}
	});

	test('proxy and tracing ids before the real one do not push it out (point 9)', () => {
		const spec = BARE_HEX_WITH_ID;
		const headers = {
			'x-request-id': 'b2f1c0de-1111-2222-3333-444455556666',
			'x-amzn-trace-id': 'Root=1-67891233-abcdef012345678912345678',
			'x-correlation-id': 'corr-1',
			'x-client-id': 'client-7',
			'x-empty-id': '',
			'x-long-id': 'x'.repeat(500),
			...formHeaders(spec, SECRET, ID, NOW, BODY),
		};
		const result = verify({ headers });
		expect(result).toMatchObject({
			valid: true,
			form: { signedId: ID, custom: { idHeader: 'X-Message-Id' } },
		});
	});

	test('a tolerance that is not a number of seconds never turns the replay window off (point 4)', () => {
		const stale = { 'stripe-signature': stripeSignature(SECRET, NOW - 365 * 86_400, BODY) };
		for (const tolerance of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
			expect(verify({ scheme: 'stripe', headers: stale, toleranceSeconds: tolerance }).valid).toBe(
				false,
			);
			expect(verify({ headers: stale, toleranceSeconds: tolerance }).valid).toBe(false);
		}
		expect(toleranceOf('5m')).toEqual({
			problem: expect.stringMatching(
				/^"Timestamp Tolerance \(Seconds\)" must be a number of seconds, 0 or more, e\.g\. 300 \(it is "5m"\)/,
			),
		});
		expect(toleranceOf(-5)).toEqual({ problem: expect.stringContaining('(it is -5)') });
		expect(toleranceOf(Number.NaN)).toEqual({
			problem: expect.stringContaining('Timestamp Tolerance'),
		});
		expect(toleranceOf('600')).toBe(600);
		expect(toleranceOf(0)).toBe(0);
		expect(toleranceOf(undefined)).toBe(300);
	});

	test('a signing key shorter than 16 bytes never verifies, even a signature made with that key (point 7)', () => {
		const emptyKeyMac = (content: string) =>
			createHmac('sha256', Buffer.alloc(0)).update(content).digest();
		const standard = {
			'webhook-id': ID,
			'webhook-timestamp': String(NOW),
			'webhook-signature': `v1,${emptyKeyMac(`${ID}.${NOW}.${BODY}`).toString('base64')}`,
		};
		for (const secret of ['whsec_', 'whsec_!!!!', 'whsec_AAAAAAAAAAA=']) {
			expect(reasonOf(verify({ scheme: 'standardWebhooks', secret, headers: standard }))).toBe(
				'the signing key is shorter than 16 bytes after decoding',
			);
		}
		const github = { 'x-hub-signature-256': githubSignature('short', BODY) };
		expect(reasonOf(verify({ scheme: 'github', secret: 'short', headers: github }))).toBe(
			'the signing key is shorter than 16 bytes after decoding',
		);
		expect(reasonOf(verify({ secret: 'short', headers: github }))).toBe(
			'the signing key is shorter than 16 bytes after decoding',
		);
		// Auto with `whsec_`: the decoded key is empty, so only the whole secret (6 bytes) is left: refused
		expect(reasonOf(verify({ secret: 'whsec_', headers: standard }))).toBe(
			'the signing key is shorter than 16 bytes after decoding',
		);
		const custom: CustomSignature = {
			...X_SIG,
			prefix: '',
			content: '{body}',
			key: 'whsecBase64',
			timestampHeader: '',
		};
		const signed = { 'X-Sig': emptyKeyMac(BODY).toString('hex') };
		expect(reasonOf(verify({ scheme: 'custom', custom, secret: 'whsec_', headers: signed }))).toBe(
			'the signing key is shorter than 16 bytes after decoding',
		);
	});
});

describe('Auto: headers added by proxies, in any order and number, never push out the genuine timestamp or id', () => {
	/** Signed 4 s before it is received (the network), so the signed timestamp and the receive time differ. */
	const SIGNED = NOW - 4;
	const ID = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
	// (a) the signature header and its timestamp header share a stem; (b) the id has a name of the API's own
	const TIMESTAMPED: FormSpec = {
		header: 'X-Signature',
		value: 'sha256=hex',
		content: 'timestamp.body',
		key: 'secret',
		timestampHeader: 'X-Signature-Timestamp',
	};
	const WITH_ID: FormSpec = {
		header: 'X-Business-Ops-Signature',
		value: 'sha256=hex',
		content: 'id.timestamp.body',
		key: 'secret',
		timestampHeader: 'X-Business-Ops-Timestamp',
		idHeader: 'X-Business-Ops-Id',
	};
	const LEARNED: Record<string, SignedForm> = {
		[TIMESTAMPED.header]: { content: '{timestamp}.{body}', key: 'secret' },
		[WITH_ID.header]: { content: '{ID}.{timestamp}.{body}', key: 'secret' },
	};
	const TIMESTAMP_NAMES = [
		'x-request-timestamp',
		'x-edge-timestamp',
		'x-forwarded-timestamp',
		'x-proxy-timestamp',
		'x-received-timestamp',
	];
	const TIMESTAMP_VALUES: Array<[string, (i: number) => number]> = [
		['stale', (i) => NOW - 3600 - i],
		['future', (i) => NOW + 3600 + i],
		['equal to the signed one', () => SIGNED],
		['the receive time, inside the window', (i) => NOW - i],
		['mixed', (i) => [NOW - 3600, NOW + 3600, SIGNED, NOW, NOW - 299][i % 5]],
	];
	const ID_NAMES = ['X-Event-Id', 'X-Message-Id', 'X-Delivery-Id', 'X-Client-Id', 'X-Upstream-Id'];
	const ID_VALUES: Array<[string, (i: number) => string]> = [
		['an event bus id', (i) => `bus-7f3a${i}`],
		['equal to the real one', () => ID],
	];
	const COUNTS = [1, 2, 5];
	const ORDERS = ['before', 'after', 'around'] as const;

	/** The genuine headers with `extra` before them, after them, or the genuine ones in the middle. */
	function arranged(
		genuine: Record<string, string>,
		extra: Record<string, string>,
		order: (typeof ORDERS)[number],
	): Record<string, string> {
		if (order === 'before') return { ...extra, ...genuine };
		if (order === 'after') return { ...genuine, ...extra };
		const entries = Object.entries(extra);
		const half = Math.ceil(entries.length / 2);
		return {
			...Object.fromEntries(entries.slice(0, half)),
			...genuine,
			...Object.fromEntries(entries.slice(half)),
		};
	}
	const proxyTimestamps = (count: number, value: (i: number) => number) =>
		Object.fromEntries(TIMESTAMP_NAMES.slice(0, count).map((name, i) => [name, String(value(i))]));
	const proxyIds = (count: number, value: (i: number) => string) =>
		Object.fromEntries(ID_NAMES.slice(0, count).map((name, i) => [name, value(i)]));

	/** Verifies before learning and with the form learned; both must accept, naming the genuine headers. */
	function expectGenuine(spec: FormSpec, headers: Record<string, string>) {
		for (const learned of [undefined, LEARNED[spec.header]]) {
			const result = verify({ headers, learned });
			expect({ learned: learned?.content, result }).toEqual({
				learned: learned?.content,
				result: {
					valid: true,
					timestamp: SIGNED,
					form: expect.objectContaining({
						custom: expect.objectContaining({
							header: spec.header,
							timestampHeader: spec.timestampHeader,
							idHeader: spec.idHeader ?? '',
						}),
						...(spec.idHeader ? { signedId: ID } : {}),
					}),
				},
			});
		}
	}

	test('each form verifies alone, before and after learning', () => {
		expectGenuine(TIMESTAMPED, formHeaders(TIMESTAMPED, SECRET, ID, SIGNED, BODY));
		expectGenuine(WITH_ID, formHeaders(WITH_ID, SECRET, ID, SIGNED, BODY));
	});

	test.each(TIMESTAMP_VALUES)(
		'(a) timestamp headers of proxies with %s values, 1, 2 or 5 of them, before, after or around the genuine one',
		(_kind, value) => {
			for (const count of COUNTS) {
				for (const order of ORDERS) {
					for (const spec of [TIMESTAMPED, WITH_ID]) {
						expectGenuine(
							spec,
							arranged(
								formHeaders(spec, SECRET, ID, SIGNED, BODY),
								proxyTimestamps(count, value),
								order,
							),
						);
					}
				}
			}
		},
	);

	test.each(ID_VALUES)(
		'(b) id headers of proxies and event buses with %s, 1, 2 or 5 of them, before, after or around the genuine one',
		(_kind, value) => {
			for (const count of COUNTS) {
				for (const order of ORDERS) {
					expectGenuine(
						WITH_ID,
						arranged(formHeaders(WITH_ID, SECRET, ID, SIGNED, BODY), proxyIds(count, value), order),
					);
					// with timestamp headers of proxies too
					const both = {
						...proxyTimestamps(count, TIMESTAMP_VALUES[4][1]),
						...proxyIds(count, value),
					};
					expectGenuine(
						WITH_ID,
						arranged(formHeaders(WITH_ID, SECRET, ID, SIGNED, BODY), both, order),
					);
				}
			}
		},
	);

	/** A form whose headers share no stem: X-Signature, X-Timestamp. */
	const NO_STEM: FormSpec = {
		header: 'X-Signature',
		value: 'hex',
		content: 'timestamp.body',
		key: 'secret',
		timestampHeader: 'X-Timestamp',
	};
	/** Verifies before learning and with `learned`, as the delivery signed at SIGNED, in a form matching `form`. */
	function expectVerified(headers: Record<string, string>, learned: SignedForm, form: object) {
		for (const known of [undefined, learned])
			expect(verify({ headers, learned: known })).toMatchObject({
				valid: true,
				timestamp: SIGNED,
				form,
			});
	}

	test('(a) a timestamp header that shares no stem with the signature header is still found behind stale and future ones, however many', () => {
		const spec = NO_STEM;
		const learned: SignedForm = { content: '{timestamp}.{body}', key: 'secret' };
		for (const count of COUNTS) {
			for (const order of ORDERS) {
				const headers = arranged(
					formHeaders(spec, SECRET, ID, SIGNED, BODY),
					proxyTimestamps(count, (i) => (i % 2 ? NOW + 3600 : NOW - 3600)),
					order,
				);
				expectVerified(headers, learned, { custom: { timestampHeader: 'X-Timestamp' } });
			}
		}
	});

	test('(b) an id whose name shares no stem with the signature header is still tried after one event bus id', () => {
		const spec: FormSpec = {
			...NO_STEM,
			content: 'id.timestamp.body',
			idHeader: 'X-Business-Ops-Id',
		};
		const learned: SignedForm = { content: '{ID}.{timestamp}.{body}', key: 'secret' };
		for (const order of ORDERS) {
			const headers = arranged(
				formHeaders(spec, SECRET, ID, SIGNED, BODY),
				{ 'X-Event-Id': 'bus-7f3a' },
				order,
			);
			expectVerified(headers, learned, { signedId: ID });
		}
	});
});

describe('Auto: what a forged request costs against a genuine one, counted in HMACs, with proxy headers', () => {
	const SIGNED = NOW - 4;
	const ID = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
	const LARGE = Buffer.from(
		JSON.stringify({ id: 'evt_1', type: 'invoice.paid', pad: 'x'.repeat(300 * 1024) }),
	);
	const SMALL = Buffer.from(BODY);
	const counted = crypto.createHmac as jest.MockedFunction<typeof crypto.createHmac>;
	function hmacsOf(
		headers: Record<string, string>,
		rawBody: Buffer,
		learned?: SignedForm,
	): { valid: boolean; hmacs: number } {
		counted.mockClear();
		const result = verify({ headers, rawBody, learned });
		return { valid: result.valid, hmacs: counted.mock.calls.length };
	}
	/** The same request with every signature value replaced by one no secret made. */
	const forgedFrom = (headers: Record<string, string>) =>
		Object.fromEntries(
			Object.entries(headers).map(([name, value]) => [
				name,
				name.toLowerCase().includes('signature')
					? value.replace(/[0-9a-f]{64}/, 'cd'.repeat(32))
					: value,
			]),
		);
	const proxies = {
		'x-request-timestamp': String(NOW - 3600),
		'x-edge-timestamp': String(NOW),
		'x-proxy-timestamp': String(NOW + 1),
		'X-Event-Id': 'bus-7f3a',
		'X-Message-Id': 'sns-1',
		'X-Delivery-Id': 'cdn-2',
	};
	const SHAPES: Array<[string, FormSpec, SignedForm]> = [
		[
			'(a) {timestamp}.{body}, timestamp header sharing the stem',
			{
				header: 'X-Signature',
				value: 'sha256=hex',
				content: 'timestamp.body',
				key: 'secret',
				timestampHeader: 'X-Signature-Timestamp',
			},
			{ content: '{timestamp}.{body}', key: 'secret' },
		],
		[
			'(b) {ID}.{timestamp}.{body}, X-Business-Ops-Id',
			{
				header: 'X-Business-Ops-Signature',
				value: 'sha256=hex',
				content: 'id.timestamp.body',
				key: 'secret',
				timestampHeader: 'X-Business-Ops-Timestamp',
				idHeader: 'X-Business-Ops-Id',
			},
			{ content: '{ID}.{timestamp}.{body}', key: 'secret' },
		],
	];

	test.each(SHAPES)(
		'%s, learned: the genuine delivery with proxy headers costs 1 HMAC, a forged one of its shape at most 2',
		(_name, spec, learned) => {
			for (const rawBody of [SMALL, LARGE]) {
				const genuine = { ...proxies, ...formHeaders(spec, SECRET, ID, SIGNED, rawBody) };
				expect(hmacsOf(genuine, rawBody, learned)).toEqual({ valid: true, hmacs: 1 });
				const forged = hmacsOf(forgedFrom(genuine), rawBody, learned);
				expect(forged.valid).toBe(false);
				expect(forged.hmacs).toBeLessThanOrEqual(2);
			}
		},
	);

	test.each(SHAPES)(
		'%s, not learned yet, over a large body: the genuine delivery costs 1 HMAC, a forged one of its shape at most 1 more',
		(_name, spec) => {
			const timestampProxies = {
				'x-request-timestamp': proxies['x-request-timestamp'],
				'x-edge-timestamp': proxies['x-edge-timestamp'],
			};
			const idProxies: Record<string, string> = spec.idHeader ? { 'X-Event-Id': 'bus-7f3a' } : {};
			const genuine = {
				...timestampProxies,
				...idProxies,
				...formHeaders(spec, SECRET, ID, SIGNED, LARGE),
			};
			const cost = {
				genuine: hmacsOf(genuine, LARGE),
				forged: hmacsOf(forgedFrom(genuine), LARGE),
			};
			expect(cost.genuine).toEqual({ valid: true, hmacs: 1 });
			expect(cost.forged.valid).toBe(false);
			expect(cost.forged.hmacs).toBeLessThanOrEqual(cost.genuine.hmacs + 1);
		},
	);

	test("a request full of timestamp and id headers, in the signature header's family or not, buys no extra HMAC", () => {
		const crowd: Record<string, string> = {
			'x-signature': `sha256=${'ab'.repeat(32)}`,
			'x-business-ops-signature': `v1=${'cd'.repeat(32)}`,
		};
		for (let i = 0; i < 40; i++) {
			crowd[`x-signature-${i}-timestamp`] = String(NOW - i);
			crowd[`x-business-ops-${i}-id`] = `id-${i}`;
			crowd[`x-${i}-timestamp`] = String(NOW + i);
			crowd[`x-${i}-event-id`] = `ev-${i}`;
		}
		for (const learned of SHAPES.map(([, , form]) => form)) {
			expect(hmacsOf(crowd, LARGE, learned)).toEqual({ valid: false, hmacs: 2 });
			expect(hmacsOf(crowd, SMALL, learned)).toEqual({ valid: false, hmacs: 2 });
		}
		expect(hmacsOf(crowd, LARGE)).toEqual({ valid: false, hmacs: 2 });
		expect(hmacsOf(crowd, SMALL).hmacs).toBeLessThanOrEqual(MAX_SEARCH_HMACS);
	});
});

describe("Auto with several signature headers (the API's and a relay's)", () => {
	/**
	 * Auto with several signature headers (the API's and a relay's): each header's tries come in turn,
	 * and a signed content and key form two headers share is hashed once.
	 */
	const SECRET = 'production-secret-of-the-trigger';
	const NOW = 1_700_000_000;
	const BODY = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'invoice.paid' }));
	const junk = (byte: number) => `sha256=${Buffer.alloc(32, byte).toString('hex')}`;

	const hmacsOf = (headers: Record<string, string>) => autoHmacs(SECRET, headers, BODY, NOW);

	test('a second signature header of the same form adds no HMAC to a forged request', () => {
		const one = hmacsOf({ 'x-hub-signature-256': junk(1) });
		const two = hmacsOf({ 'x-hub-signature-256': junk(1), 'x-relay-signature': junk(2) });
		expect(one).toEqual({ valid: false, hmacs: 1 });
		expect(two).toEqual(one);
	});

	test("the API's signature verifies whichever header comes first", () => {
		const genuine = `sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}`;
		expect(
			hmacsOf({
				'x-relay-signature': `t=${NOW},v1=${Buffer.alloc(32, 3).toString('hex')}`,
				'x-hub-signature-256': genuine,
			}),
		).toEqual({ valid: true, hmacs: 2 });
	});

	test("a stale delivery behind a relay header naming its own fresh t= is refused for the API's timestamp", () => {
		const key = Buffer.from('production-signing-key-bytes');
		const secret = `whsec_${key.toString('base64')}`;
		const sent = NOW - 3600;
		const headers = {
			'webhook-id': 'msg_1',
			'webhook-timestamp': String(sent),
			'webhook-signature': `v1,${createHmac('sha256', key).update(`msg_1.${sent}.`).update(BODY).digest('base64')}`,
			'x-relay-signature': `t=${NOW},v1=${Buffer.alloc(32, 4).toString('hex')}`,
		};
		const result = verifyDelivery({
			scheme: 'auto',
			secret,
			headers,
			rawBody: BODY,
			nowSeconds: NOW,
			toleranceSeconds: 300,
		});
		expect(result).toEqual({
			valid: false,
			kind: 'window',
			reason:
				'signature does not match (and timestamp too old: a timestamp outside the window is not tried)',
		});
	});
});
