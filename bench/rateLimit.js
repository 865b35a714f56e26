// Rate limit: 100 Create Contact items through the Business Ops node in real n8n against a
// sandbox limited to 20 requests per 5 s (sliding window per key). Checks that every item is
// created exactly once, and compares the node's wall time with the theoretical minimum
// (the limit lets 20 through at t = 0, 5, 10, 15 and 20 s, so the job cannot finish before
// 20 s plus the time of the last 20 requests). The same job through n8n's HTTP Request node with
// Retry On Fail (5 tries, 5 s apart: the most n8n allows) shows what users get without the package.
'use strict';

const nw = require('./lib/n8n');
const { median, min, max, fmtMs } = require('./lib/stats');
const { atMost } = require('./lib/table');

const ITEMS = 100;
const LIMIT = { limit: 20, windowMs: 5000 };

/** Every contact of the primary organization (admin key; the caller lifts the rate limit first). */
async function allContacts(sandbox) {
	const headers = { authorization: `Bearer ${sandbox.keys.admin}` };
	const out = [];
	for (let page = 1; page <= 100; page++) {
		const res = await fetch(`${sandbox.baseUrl}/contacts?pageSize=100&page=${page}`, { headers });
		const body = await res.json();
		if (!res.ok) throw new Error(`GET /contacts -> ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
		out.push(...body.data);
		if (!body.meta.hasMore) break;
	}
	return out;
}

/** How the names `<prefix> 0..ITEMS-1` came out: created, distinct, missing, twice. */
function tally(contacts, prefix) {
	const counts = new Map();
	for (const c of contacts) if (c.name.startsWith(`${prefix} `)) counts.set(c.name, (counts.get(c.name) || 0) + 1);
	let missing = 0;
	for (let i = 0; i < ITEMS; i++) if (!counts.has(`${prefix} ${i}`)) missing++;
	const created = [...counts.values()].reduce((a, b) => a + b, 0);
	const twice = [...counts.values()].filter((n) => n > 1).length;
	return { created, distinct: counts.size, missing, twice, extra: created - counts.size };
}

/**
 * A new key that the sandbox has already verified once (its first use runs scrypt, which would
 * otherwise land in the measurement), then a reset: no contacts, empty logs and rate windows,
 * the limit back to 20 per 5 s. Keys and their verification stay across a reset.
 */
async function warmKey(sandbox, name) {
	const control = sandbox.control;
	control.reset();
	const key = control.createKey({ scopes: ['contacts.*'], name });
	const res = await fetch(`${sandbox.baseUrl}/contacts?pageSize=1`, { headers: { authorization: `Bearer ${key.key}` } });
	if (res.status !== 200) throw new Error(`warm-up GET /contacts with a new key -> ${res.status}`);
	control.reset();
	return key;
}

/** Time for a burst of 20 concurrent Create Contact requests with a fresh key (the last window's work). */
async function lastWindowMs(sandbox) {
	const key = await warmKey(sandbox, 'bench-rate-burst');
	const headers = { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' };
	const t = process.hrtime.bigint();
	const answers = await Promise.all(
		Array.from({ length: LIMIT.limit }, (_, i) =>
			fetch(`${sandbox.baseUrl}/contacts`, { method: 'POST', headers, body: JSON.stringify({ name: `bench-burst ${i}` }) }).then((r) => r.status),
		),
	);
	const ms = Number(process.hrtime.bigint() - t) / 1e6;
	if (!answers.every((s) => s === 201)) throw new Error(`burst of ${LIMIT.limit} creates answered ${answers.join(',')}`);
	return ms;
}

async function run(ctx) {
	const { client, log } = ctx;
	const sandbox = await ctx.startSandbox({ seed: false, rateLimit: LIMIT });
	const control = sandbox.control;
	const packageRuns = ctx.quick ? 1 : 3;

	/** One job: fresh sandbox state, fresh key and n8n credential (so nothing learned before carries over). */
	async function job(kind, i) {
		const prefix = `bench-rl-${kind}-${i}`;
		const key = await warmKey(sandbox, prefix);
		let wf;
		if (kind === 'node') {
			const cred = await nw.createBusinessOpsCredential(client, sandbox, key.key, `bench ${prefix}`);
			wf = nw.workflow(`bench: rate limit ${prefix}`, [
				nw.manualTrigger(),
				nw.namesNode('Items', prefix, ITEMS),
				nw.node('Business Ops', nw.rt.NODE_TYPES.action, { resource: 'contact', operation: 'create', name: '={{ $json.name }}', additionalFields: {} }, { credentials: nw.businessOpsCredential(cred) }),
			]);
		} else {
			const cred = await nw.createHeaderAuthCredential(client, key.key, `bench ${prefix}`);
			wf = nw.workflow(`bench: rate limit ${prefix}`, [
				nw.manualTrigger(),
				nw.namesNode('Items', prefix, ITEMS),
				nw.node(
					'HTTP Request',
					'n8n-nodes-base.httpRequest',
					{
						method: 'POST',
						url: `${sandbox.baseUrl}/contacts`,
						authentication: 'genericCredentialType',
						genericAuthType: 'httpHeaderAuth',
						sendBody: true,
						bodyParameters: { parameters: [{ name: 'name', value: '={{ $json.name }}' }] },
						options: {},
					},
					{
						typeVersion: 4.2,
						credentials: { httpHeaderAuth: { id: cred.id, name: cred.name } },
						retryOnFail: true,
						maxTries: 5,
						waitBetweenTries: 5000,
					},
				),
			]);
		}
		const nodeName = kind === 'node' ? 'Business Ops' : 'HTTP Request';
		const created = await client.createWorkflow(wf);
		// n8n is polled once a second (it is mostly waiting here); the node's run is not slowed by it.
		const ex = await nw.runWorkflow(client, created.id, { timeoutMs: 180_000, intervalMs: 1000 });
		const r = nw.nodeRun(ex, nodeName);
		const posts = control.requestLog().filter((e) => e.keyId === key.id && e.method === 'POST');
		if (process.env.BENCH_DEBUG) require('node:fs').writeFileSync(`/tmp/bench-${prefix}.json`, JSON.stringify({ posts, run: r }, null, 1));
		const t0 = min(posts.map((e) => Date.parse(e.time)));
		const ok = posts.filter((e) => e.status === 201);
		const lastEnd = max(ok.map((e) => Date.parse(e.time) + (e.durationMs || 0)));
		control.setRateLimit({ limit: 1_000_000, windowMs: 60_000 });
		const t = tally(await allContacts(sandbox), prefix);
		return {
			status: ex.status,
			error: r?.error,
			ms: r?.executionTime,
			apiSpanMs: lastEnd - t0,
			requests: posts.length,
			refused: posts.filter((e) => e.status === 429).length,
			...t,
		};
	}

	const bursts = [];
	for (let i = 0; i < 3; i++) bursts.push(await lastWindowMs(sandbox));
	const burst = median(bursts);
	const theoretical = (Math.ceil(ITEMS / LIMIT.limit) - 1) * LIMIT.windowMs + burst;
	log(`theoretical minimum ${fmtMs(theoretical)} (4 × 5 s + a burst of 20 creates, ${fmtMs(burst)})`);

	const nodeRuns = [];
	for (let i = 0; i < packageRuns; i++) {
		const r = await job('node', i);
		nodeRuns.push(r);
		log(`Business Ops run ${i + 1}/${packageRuns}: ${r.status}, ${fmtMs(r.ms)}, ${r.created} created (${r.distinct} distinct, ${r.missing} missing), ${r.requests} requests, ${r.refused} answered 429`);
		if (r.status !== 'success' || r.created !== ITEMS || r.distinct !== ITEMS || r.missing !== 0) {
			ctx.fail('Rate limit (Business Ops node)', `run ${i + 1}: execution ${r.status}; ${r.created} contacts created for ${ITEMS} items (${r.distinct} distinct, ${r.missing} missing, ${r.twice} created more than once)${r.error ? `; ${r.error}` : ''}`);
		}
	}
	const http = await job('http', 0);
	log(`HTTP Request + Retry On Fail: ${http.status}, ${fmtMs(http.ms)}, ${http.created} created (${http.distinct} distinct, ${http.missing} missing, ${http.twice} more than once), ${http.requests} requests, ${http.refused} answered 429`);
	await sandbox.stop();

	const section = 'Rate limit 20 req / 5 s, 100 Create Contact items';
	const nodeMs = median(nodeRuns.map((r) => r.ms));
	const worst = nodeRuns.reduce((a, b) => (b.created !== ITEMS || b.distinct !== ITEMS ? b : a), nodeRuns[0]);
	const allGood = nodeRuns.every((r) => r.status === 'success' && r.created === ITEMS && r.distinct === ITEMS);
	ctx.row({
		section,
		name: 'Items created, Business Ops node',
		measured: `${worst.distinct} of ${ITEMS}, ${worst.extra} twice`,
		baseline: `HTTP Request + Retry On Fail: ${http.distinct} of ${ITEMS}, ${http.extra} extra`,
		target: `all ${ITEMS}, none twice`,
		verdict: allGood ? 'met' : 'FAIL',
		detail: `contacts counted by name in the sandbox after each run (${packageRuns} node runs, worst shown); the node sent ${nodeRuns.map((r) => r.requests).join('/')} requests of which ${nodeRuns.map((r) => r.refused).join('/')} were answered 429; the HTTP Request node ended "${http.status}" after ${http.requests} requests (${http.refused} answered 429): each retry re-sends every item, so the first ~20 items are created on every try and the rest never`,
	});
	ctx.row({
		section,
		name: 'Wall time, Business Ops node vs theoretical minimum',
		measured: fmtMs(nodeMs),
		baseline: `minimum ${fmtMs(theoretical)}`,
		ratio: nodeMs / theoretical,
		target: '<= 1.10x',
		verdict: atMost(nodeMs / theoretical, 1.1),
		detail: `node executionTime, median of ${packageRuns} (${nodeRuns.map((r) => fmtMs(r.ms)).join(', ')}; first to last accepted request at the API: ${nodeRuns.map((r) => fmtMs(r.apiSpanMs)).join(', ')}); minimum = 4 windows × 5 s + a burst of 20 concurrent creates measured with fetch (${fmtMs(burst)})`,
	});
	ctx.row({
		section,
		name: 'Wall time, HTTP Request node + Retry On Fail',
		measured: `${fmtMs(http.ms)} (${http.status})`,
		baseline: `minimum ${fmtMs(theoretical)}`,
		ratio: http.ms / theoretical,
		target: '-',
		verdict: 'info',
		detail: `HTTP Request 4.2, Header Auth, Retry On Fail with Max Tries 5 and Wait Between Tries 5000 ms (n8n's maximum); ${http.created} contacts created for ${ITEMS} items: ${http.distinct} distinct, ${http.missing} never created, ${http.twice} created more than once`,
	});
	return { nodeRuns, http, theoretical };
}

module.exports = { name: 'rateLimit', run };
