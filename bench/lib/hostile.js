// Hostile traffic against the Business Ops Trigger's public URL, shared by the e2e area
// `hostile` (test/e2e/hostile.js) and the benchmark bench/hostile.js: forged deliveries with
// junk signature, timestamp and id headers, genuine ones signed with the subscription's secret
// (opened from the workflow's static data with the credential's API key, as the node does),
// plain or gzip-compressed, and what n8n's process spent (CPU time and RSS from /proc).
// Plain CommonJS, standard library only.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');

const KiB = 1024;
const MiB = 1024 * KiB;

/** An event body of about `size` bytes (padding inside `data`). */
function eventBody(id, type, size) {
	const base = {
		id,
		type,
		timestamp: new Date().toISOString(),
		data: { id: `inv_${id}`, padding: '' },
	};
	const overhead = Buffer.byteLength(JSON.stringify(base));
	base.data.padding = 'x'.repeat(Math.max(0, size - overhead));
	return Buffer.from(JSON.stringify(base));
}

const randomName = () => crypto.randomBytes(6).toString('hex');

/**
 * A forged delivery: signature, timestamp and id headers full of junk (`names`: random header
 * names), never signed with the subscription's secret.
 */
function forgedDelivery({ size, gzip = false, type = 'invoice.paid', names = false }) {
	const id = `evt_forged_${randomName()}`;
	const body = eventBody(id, type, size);
	const now = Math.floor(Date.now() / 1000);
	const headers = {
		'content-type': 'application/json',
		'webhook-id': id,
		'webhook-timestamp': String(now),
		'webhook-signature': `v1,${crypto.randomBytes(32).toString('base64')} v1,${crypto.randomBytes(32).toString('base64')}`,
		'x-hub-signature-256': `sha256=${crypto.randomBytes(32).toString('hex')}`,
		'stripe-signature': `t=${now},v1=${crypto.randomBytes(32).toString('hex')}`,
		'x-request-id': crypto.randomUUID(),
		'x-amzn-trace-id': `Root=1-${randomName()}`,
		'x-delivery-id': randomName(),
		'x-signature-timestamp': String(now - 1),
	};
	for (let i = 0; i < 4; i++) {
		const name = names ? `x-${randomName()}` : `x-${i}`;
		headers[`${name}-signature`] = crypto.randomBytes(32).toString('hex');
		headers[`${name}-timestamp`] = String(now - i);
		headers[`${name}-id`] = randomName();
	}
	return pack(body, headers, gzip);
}

/** The Standard Webhooks key: the base64 after `whsec_`. */
const standardKey = (secret) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/** A genuine delivery in the Standard Webhooks form (the sandbox's default), signed with `secret`. */
function genuineDelivery({ secret, size, gzip = false, type = 'invoice.paid' }) {
	const id = `evt_genuine_${randomName()}`;
	const body = eventBody(id, type, size);
	const ts = Math.floor(Date.now() / 1000);
	const mac = crypto
		.createHmac('sha256', standardKey(secret))
		.update(`${id}.${ts}.`)
		.update(body)
		.digest('base64');
	return pack(
		body,
		{
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(ts),
			'webhook-signature': `v1,${mac}`,
		},
		gzip,
	);
}

function pack(body, headers, gzip) {
	if (!gzip) return { body, headers, bytes: body.length };
	return {
		body: zlib.gzipSync(body, { level: 9 }),
		headers: { ...headers, 'content-encoding': 'gzip' },
		bytes: body.length,
	};
}

/** POSTs `count` deliveries made by `make(i)`, `concurrency` at a time; answers the status counts. */
async function sendMany(url, count, make, concurrency = 4) {
	const statuses = {};
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const delivery = make(next++);
			let status;
			try {
				const res = await fetch(url, {
					method: 'POST',
					headers: delivery.headers,
					body: delivery.body,
					signal: AbortSignal.timeout(60_000),
				});
				await res.arrayBuffer();
				status = res.status;
			} catch (error) {
				// fetch's TypeError says only "fetch failed"; the socket's code says why
				status = `error ${error.name}${error.cause?.code ? ` ${error.cause.code}` : ''}`;
			}
			statuses[status] = (statuses[status] || 0) + 1;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return statuses;
}

/** The trigger's stored subscription record (production slot) from n8n's public API. */
async function storedRecord(client, workflowId, nodeName) {
	const { staticData } = await client.getWorkflow(workflowId);
	return staticData?.[`node:${nodeName}`]?.subscriptions?.production;
}

/**
 * The subscription's signing secret, opened with the credential's API key by the secretBox built
 * in `root`/dist (the e2e: the packed build's copy, `ctx.pkg.root`; the benchmarks: this repo).
 */
function openRecordSecret(record, apiKey, root) {
	const { openSecret } = require(
		path.join(root, 'dist', 'nodes', 'BusinessOpsTrigger', 'secretBox.js'),
	);
	const secret = openSecret(record.sealedSecret, apiKey, record.id);
	if (!secret)
		throw new Error(
			`the sealed secret of subscription ${record.id} does not open with the credential's key`,
		);
	return secret;
}

/** CPU time (user + system, ms) a process has used so far. */
function cpuMs(pid) {
	const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const ticks = Number(fields[11]) + Number(fields[12]);
	return (ticks * 1000) / 100;
}

/** Resident set size (MiB) of a process. */
function rssMiB(pid) {
	const line = fs
		.readFileSync(`/proc/${pid}/status`, 'utf8')
		.split('\n')
		.find((l) => l.startsWith('VmRSS:'));
	return Number(line.replace(/\D+/g, '')) / 1024;
}

/** The workflow row as n8n's SQLite database holds it: `staticData` (text) and `updatedAt`. */
function workflowRow(userFolder, workflowId) {
	const db = path.join(userFolder, '.n8n', 'database.sqlite');
	if (!fs.existsSync(db)) throw new Error(`no SQLite database at ${db}`);
	const safeId = String(workflowId).replace(/[^A-Za-z0-9_-]/g, '');
	// n8n may hold the write lock at that moment: wait for it (up to 10 s) instead of failing
	const out = execFileSync(
		'sqlite3',
		[
			'-cmd',
			'.timeout 10000',
			'-json',
			db,
			`select staticData, updatedAt from workflow_entity where id = '${safeId}'`,
		],
		{ encoding: 'utf8' },
	);
	const [row] = JSON.parse(out || '[]');
	if (!row) throw new Error(`workflow ${workflowId} is not in ${db}`);
	return row;
}

module.exports = {
	KiB,
	MiB,
	forgedDelivery,
	genuineDelivery,
	sendMany,
	storedRecord,
	openRecordSecret,
	cpuMs,
	rssMiB,
	workflowRow,
};
