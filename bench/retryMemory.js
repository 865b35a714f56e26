// Retry On Fail and copies. (1) Copies made after one transient failure: 10 creates, the API
// answers the 6th POST once with 503, Retry On Fail (3 tries, 100 ms apart); n8n re-runs the whole
// node, so n8n's HTTP Request node POSTs again every item the first try had written (copies, the
// API letting contacts share an e-mail), while Business Ops is to make none. (2) The same when the
// API stores the 6th contact and its answer is lost (the connection closed without one): the HTTP
// Request node sends it again too; Business Ops looks the address up instead (one list read, and
// none after the 503, whose error body says nothing was written). (3) What remembering the written
// items costs on 500 creates: the node's time against the same less the memory's bookkeeping,
// measured on the built sendWrite in this process (the memory has no off switch, so no n8n run goes
// without it).
'use strict';

const path = require('node:path');

const nw = require('./lib/n8n');
const { median, fmtMs } = require('./lib/stats');
const { atMost } = require('./lib/table');
const { warmKey } = require('./rateLimit');

const ITEMS = 10;
const FAILED_ITEM = 5;
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 100 };
const CREATES = 500;
const COST_TARGET = 1.02;

function itemsNode(prefix, count) {
	return nw.node(
		'Items',
		'n8n-nodes-base.code',
		{
			jsCode: `return Array.from({ length: ${count} }, (_, i) => ({ json: { name: ${JSON.stringify(prefix)} + ' ' + i, email: ${JSON.stringify(prefix)} + '-' + i + '@example.com' } }));`,
		},
		{ typeVersion: 2 },
	);
}

function businessOps(prefix, count, cred, nodeOptions) {
	return nw.workflow(`bench: retry ${prefix}`, [
		nw.manualTrigger(),
		itemsNode(prefix, count),
		nw.node(
			'Business Ops',
			nw.rt.NODE_TYPES.action,
			{
				resource: 'contact',
				operation: 'create',
				name: '={{ $json.name }}',
				additionalFields: { email: '={{ $json.email }}' },
			},
			{ credentials: nw.businessOpsCredential(cred), ...nodeOptions },
		),
	]);
}

function httpRequest(prefix, count, sandbox, cred) {
	return nw.workflow(`bench: retry ${prefix}`, [
		nw.manualTrigger(),
		itemsNode(prefix, count),
		nw.node(
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			{
				method: 'POST',
				url: `${sandbox.baseUrl}/contacts`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendBody: true,
				bodyParameters: {
					parameters: [
						{ name: 'name', value: '={{ $json.name }}' },
						{ name: 'email', value: '={{ $json.email }}' },
					],
				},
				options: {},
			},
			{
				typeVersion: 4.2,
				credentials: { httpHeaderAuth: { id: cred.id, name: cred.name } },
				...RETRY,
			},
		),
	]);
}

/** Contacts whose name starts with `<prefix> `: how many in all, and how many names more than once. */
async function copiesOf(sandbox, prefix) {
	const headers = { authorization: `Bearer ${sandbox.keys.admin}` };
	const names = [];
	for (let page = 1; page <= 500; page++) {
		const body = await (
			await fetch(`${sandbox.baseUrl}/contacts?pageSize=100&page=${page}`, { headers })
		).json();
		names.push(...body.data.map((c) => c.name).filter((n) => n.startsWith(`${prefix} `)));
		if (!body.meta.hasMore) break;
	}
	return {
		created: names.length,
		distinct: new Set(names).size,
		copies: names.length - new Set(names).size,
	};
}

/**
 * Median ms for `writes` writes through the built sendWrite (the memory: key, lookup, store) and for
 * the same stand-in HTTP call made directly; the stand-in answers 201 at once.
 */
async function memoryBookkeeping(writes, rounds) {
	const dist = nw.rt.DIST_DIR;
	const transport = require(path.join(dist, 'nodes', 'shared', 'api', 'transport.js'));
	const { sendWrite } = require(path.join(dist, 'nodes', 'BusinessOps', 'shared', 'itemOrder.js'));
	const real = transport.sendRequest;
	let n = 0;
	const standIn = async () => ({
		statusCode: 201,
		headers: {},
		body: { data: { id: `ctc_${++n}` } },
	});
	transport.sendRequest = standIn;
	const options = (i) => ({
		method: 'POST',
		baseURL: 'http://127.0.0.1/v1',
		url: '/contacts',
		body: { name: `bench ${i}`, email: `bench-${i}@example.com` },
	});
	const withMemory = [];
	const without = [];
	try {
		for (let r = 0; r < rounds; r++) {
			const executeData = {};
			const ctx = {
				getExecuteData: () => executeData,
				getNode: () => ({ type: 'n8n-nodes-business-ops.businessOps' }),
			};
			let t = process.hrtime.bigint();
			for (let i = 0; i < writes; i++) await sendWrite(ctx, options(i), i);
			withMemory.push(Number(process.hrtime.bigint() - t) / 1e6);
			t = process.hrtime.bigint();
			for (let i = 0; i < writes; i++) await standIn(ctx, options(i), i);
			without.push(Number(process.hrtime.bigint() - t) / 1e6);
		}
	} finally {
		transport.sendRequest = real;
	}
	return { withMemory: median(withMemory), without: median(without) };
}

async function run(ctx) {
	const { client, log } = ctx;
	const sandbox = await ctx.startSandbox({ seed: false });
	const control = sandbox.control;
	const key = await warmKey(sandbox, 'bench-retry');
	const UNLIMITED = 1_000_000;
	control.setRateLimit({ limit: UNLIMITED, windowMs: 60_000 });
	control.setReadings({ duplicateContactEmails: true });
	const cred = await client.rest('POST', '/credentials', {
		name: 'bench retry',
		type: nw.rt.CREDENTIAL_TYPE,
		data: { ...nw.rt.credentialData(sandbox, key.key), requestsPerMinute: UNLIMITED },
	});
	const header = await nw.createHeaderAuthCredential(client, key.key, 'bench retry header');

	/** List reads of /contacts the node made with the bench key (the bench's own counting uses the admin key). */
	const listReads = () =>
		control
			.requestLog()
			.filter((e) => e.keyId === key.id && e.method === 'GET' && e.path === '/v1/contacts').length;
	/** Both contenders under one fail-next rule: copies, execution status and list reads of each. */
	async function copiesAfter(fault, what) {
		const result = {};
		for (const [who, make] of [
			['HTTP Request', (prefix) => httpRequest(prefix, ITEMS, sandbox, header)],
			['Business Ops', (prefix) => businessOps(prefix, ITEMS, cred, RETRY)],
		]) {
			const prefix = `bench-retry-${who.replace(/ /g, '-').toLowerCase()}-${Date.now()}`;
			const wf = await client.createWorkflow(make(prefix));
			control.clearRequestLog();
			control.failNext({ ...fault, skip: FAILED_ITEM, method: 'POST', path: '/contacts' });
			const ex = await nw.runWorkflow(client, wf.id, { timeoutMs: 120_000 });
			control.clearFailures();
			const reads = listReads();
			result[who] = { ...(await copiesOf(sandbox, prefix)), status: ex.status, reads };
			log(
				`${what}, ${who}: ${ex.status}, ${result[who].created} created, ${result[who].copies} copies, ${reads} list reads`,
			);
			if (result[who].distinct !== ITEMS)
				ctx.fail(
					`Retry On Fail, ${what}, ${who}`,
					`${result[who].distinct} of ${ITEMS} items created (execution ${ex.status})`,
				);
		}
		return result;
	}

	// (1) copies after one 503
	const copies = await copiesAfter({ status: 503 }, '503');
	const section = `Retry On Fail (3 tries): ${ITEMS} creates, the API answers the ${FAILED_ITEM + 1}th POST once with 503`;
	ctx.row({
		section,
		name: 'Copies made after one transient failure',
		measured: `${copies['Business Ops'].copies} (Business Ops)`,
		baseline: `HTTP Request node ${copies['HTTP Request'].copies}`,
		target: '0',
		verdict: copies['Business Ops'].copies === 0 ? 'met' : 'FAIL',
		detail: `n8n re-runs the whole node on a retry; the API lets contacts share an e-mail (duplicateContactEmails), so a repeated POST is a copy; executions: HTTP Request ${copies['HTTP Request'].status}, Business Ops ${copies['Business Ops'].status}`,
	});

	// (2) copies after one lost answer, and the requests Business Ops spends finding out
	const lost = await copiesAfter({ mode: 'drop-after-write' }, 'lost answer');
	const lostSection = `Retry On Fail (3 tries): ${ITEMS} creates, the API stores the ${FAILED_ITEM + 1}th contact and its connection closes without an answer`;
	ctx.row({
		section: lostSection,
		name: 'Copies made after one lost answer',
		measured: `${lost['Business Ops'].copies} (Business Ops)`,
		baseline: `HTTP Request node ${lost['HTTP Request'].copies}`,
		target: '0',
		verdict: lost['Business Ops'].copies === 0 ? 'met' : 'FAIL',
		detail: `the API's answer to one stored create is lost (sandbox fail-next drop-after-write); n8n re-runs the whole node; executions: HTTP Request ${lost['HTTP Request'].status}, Business Ops ${lost['Business Ops'].status}`,
	});
	const proof = { lost: lost['Business Ops'].reads, known: copies['Business Ops'].reads };
	ctx.row({
		section: lostSection,
		name: 'Requests spent proving an unknown outcome (Contact create)',
		measured: `${proof.lost} list read(s) after the lost answer`,
		baseline: `${proof.known} after the 503 with the API's error body`,
		target: '1 after an unknown outcome, 0 otherwise',
		verdict: proof.lost === 1 && proof.known === 0 ? 'met' : 'FAIL',
		detail: `GET /contacts list reads with the node's key in the whole execution (3 tries); the 503 carries the API's { error } body, so that POST is known not written and is sent again without a read; the 500 creates below make none either`,
	});

	// (3) the memory's cost. The memory records every write's 2xx answer of a node run whatever the
	// settings, so no workflow in n8n runs without it; its bookkeeping is measured in this process on
	// the built node's own sendWrite (dist), around a stand-in for the HTTP call, against that
	// stand-in called directly, and set against the node's real time for the same 500 creates.
	const times = [];
	control.clearRequestLog();
	for (let p = 0; p < (ctx.quick ? 1 : 3); p++) {
		const prefix = `bench-memory-${p}-${Date.now()}`;
		const wf = await client.createWorkflow(businessOps(prefix, CREATES, cred, RETRY));
		const ex = await nw.runWorkflow(client, wf.id, { timeoutMs: 300_000, intervalMs: 500 });
		const tally = await copiesOf(sandbox, prefix);
		if (ex.status !== 'success' || tally.distinct !== CREATES || tally.copies)
			ctx.fail(
				'retry memory, 500 creates',
				`execution ${ex.status}; ${tally.distinct} of ${CREATES} created, ${tally.copies} copies`,
			);
		times.push(nw.nodeRun(ex, 'Business Ops')?.executionTime);
	}
	if (listReads() !== 0)
		ctx.fail('retry memory, 500 creates', `${listReads()} list reads without an unknown outcome`);
	const nodeMs = median(times);
	const { withMemory, without } = await memoryBookkeeping(CREATES, ctx.quick ? 11 : 41);
	const overheadMs = Math.max(0, withMemory - without);
	const ratio = nodeMs / (nodeMs - overheadMs);
	log(
		`retry memory: node ${times.map(fmtMs).join(', ')}; ${CREATES} writes through sendWrite ${fmtMs(withMemory)}, the stand-in alone ${fmtMs(without)}`,
	);
	ctx.row({
		section: `Business Ops Contact → Create, ${CREATES} items, Retry On Fail on, no failure`,
		name: 'Cost of the retry memory',
		measured: `${fmtMs(nodeMs)} (node, memory on)`,
		baseline: `${fmtMs(nodeMs - overheadMs)} (the same less the memory's ${fmtMs(overheadMs)})`,
		ratio,
		target: `<= ${COST_TARGET}x`,
		verdict: atMost(ratio, COST_TARGET),
		detail: `node executionTime, median of ${times.length}; the memory's bookkeeping for ${CREATES} writes = the built sendWrite (dist/nodes/BusinessOps/shared/itemOrder.js) around a stand-in answer minus the stand-in called directly, medians of the same number of rounds in this process`,
	});
	await sandbox.stop();
	return { copies, lost, ratio };
}

module.exports = { name: 'retryMemory', run };
