#!/usr/bin/env node
// Cost of the trigger's signature check per delivery: verifyDelivery() from the built package
// (dist/nodes/BusinessOpsTrigger/signatures/verify.js) on deliveries signed by the sandbox's own signer,
// for each scheme, against the bare HMAC-SHA256 of the same bytes (the least any check must do).
// Prints one JSON line: { bodyBytes, perCallMs: { hmac, standardWebhooks, github, stripe, auto } }.
//   node bench/signature-cost.js [iterations]
'use strict';

const crypto = require('node:crypto');
const path = require('node:path');

const { SAMPLE_INVOICE } = require('./lib/sampleEvent');

const ROOT = path.resolve(__dirname, '..');
const { verifyDelivery } = require(
	path.join(ROOT, 'dist', 'nodes', 'BusinessOpsTrigger', 'signatures', 'verify.js'),
);
const { openSecret, sealSecret } = require(
	path.join(ROOT, 'dist', 'nodes', 'BusinessOpsTrigger', 'secretBox.js'),
);
const { signatureHeaders } = require(path.join(ROOT, 'build', 'sandbox', 'signing.js'));

const iterations = Number(process.argv[2] || 20_000);
const secret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
const id = 'evt_bench0000000001';
const now = Math.floor(Date.now() / 1000);
// A delivery body of the usual size: an invoice.paid event with two lines.
const body = Buffer.from(
	JSON.stringify({
		id,
		type: 'invoice.paid',
		timestamp: new Date(now * 1000).toISOString(),
		data: SAMPLE_INVOICE,
	}),
);

/** Lower-cased header names, as Node's HTTP server hands them to n8n. */
function headersFor(scheme) {
	const h = { 'content-type': 'application/json', 'user-agent': 'BusinessOps-Webhooks/1.0' };
	for (const [k, v] of Object.entries(signatureHeaders(scheme, secret, id, now, body)))
		h[k.toLowerCase()] = v;
	return h;
}

/** Median per-call time (ms) over 7 batches of `iterations` calls. */
function time(fn) {
	for (let i = 0; i < Math.min(2000, iterations); i++) fn(); // warm-up (JIT)
	const batches = [];
	for (let b = 0; b < 7; b++) {
		const t = process.hrtime.bigint();
		for (let i = 0; i < iterations; i++) fn();
		batches.push(Number(process.hrtime.bigint() - t) / 1e6 / iterations);
	}
	batches.sort((a, b) => a - b);
	return batches[3];
}

const cases = {
	standardWebhooks: ['standardWebhooks', headersFor('standard')],
	github: ['github', headersFor('github')],
	stripe: ['stripe', headersFor('stripe')],
	auto: ['auto', headersFor('standard')],
};

const perCallMs = {};
const hmacKey = Buffer.from(secret.slice('whsec_'.length), 'base64');
perCallMs.hmac = time(() =>
	crypto.createHmac('sha256', hmacKey).update(`${id}.${now}.`).update(body).digest(),
);
for (const [name, [scheme, headers]] of Object.entries(cases)) {
	const options = {
		scheme,
		secret,
		headers,
		rawBody: body,
		nowSeconds: now,
		toleranceSeconds: 300,
	};
	const check = verifyDelivery(options);
	if (!check.valid)
		throw new Error(`${name}: the sandbox-signed delivery did not verify: ${check.reason}`);
	perCallMs[name] = time(() => verifyDelivery(options));
}
// Opening the sealed secret (HKDF-SHA256 + AES-256-GCM), done once per delivery before the check.
const sealed = sealSecret(secret, 'svc_bench-api-key', 'whk_bench');
if (openSecret(sealed, 'svc_bench-api-key', 'whk_bench') !== secret)
	throw new Error('the sealed secret did not open');
perCallMs.openSecret = time(() => openSecret(sealed, 'svc_bench-api-key', 'whk_bench'));
process.stdout.write(`${JSON.stringify({ bodyBytes: body.length, iterations, perCallMs })}\n`);
