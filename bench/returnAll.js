// Return All of 20,000 contacts: requests and wall time of the Business Ops node (Contact → Get
// Many, Return All) in real n8n, against a hand-written fetch loop (bench/fetch-loop.js, plain
// Node, same Node version as n8n) and against n8n's HTTP Request node with its pagination, all
// over the same sandbox in the same run.
//
// Wall time of a node = the node's own execution time as n8n records it in the execution
// (runData[node][0].executionTime: from the moment n8n calls the node until it has returned
// its items). Wall time of the fetch loop = from its first request until every record is parsed
// into an array. Requests = GET /contacts answers in the sandbox's request log for the key that
// contender used (each contender has its own key, so nothing is counted twice).
//
// Then the same Return All under the API's limit, scaled in time (120 requests per 6 s instead of
// per minute; the credential's Requests per Minute 120, its window scaled to 6 s by the harness), once with refused
// requests counted against the window and once not: 200 pages cannot finish before one window plus
// the time the fetch loop needs for the 80 pages beyond the first window's 120.
'use strict';

const { runBenchScript } = require('./lib/child');
const nw = require('./lib/n8n');
const { median, min, max, sleep, fmtMs } = require('./lib/stats');
const { atMost } = require('./lib/table');

const TOTAL = 20_000;
const LIMITED = { limit: 120, windowMs: 6000 };
const PAGE_SIZE = 100;
const MIN_REQUESTS = TOTAL / PAGE_SIZE;

function runFetchLoop(ctx, baseUrl, key) {
	return runBenchScript(ctx, 'fetch-loop.js', {
		BENCH_BASE_URL: baseUrl,
		BENCH_API_KEY: key,
		BENCH_PAGE_SIZE: String(PAGE_SIZE),
	});
}

function contactPages(control, keyId) {
	return control
		.requestLog()
		.filter((e) => e.keyId === keyId && e.method === 'GET' && /\/contacts$/.test(e.path));
}

/** Resolves once the sandbox has answered `count` page requests of a key, plus a moment for the node to finish. */
function pagesAnswered(control, keyId, count) {
	return async () => {
		while (contactPages(control, keyId).length < count) await sleep(20);
		await sleep(300);
	};
}

async function run(ctx) {
	const { client, log } = ctx;
	const sandbox = ctx.sandbox;
	const control = sandbox.control;
	const rounds = ctx.quick ? 2 : 7;

	// The benchmark's sandbox starts without seed data (seed: false), so it then holds exactly TOTAL.
	const seeded = control.seed({ resource: 'contacts', count: TOTAL });
	if (seeded.total !== TOTAL)
		throw new Error(`the benchmark sandbox holds ${seeded.total} contacts, expected ${TOTAL}`);
	log(`sandbox holds ${TOTAL} contacts`);

	const keyFor = (name) => control.createKey({ scopes: ['contacts.read'], name });
	const fetchKey = keyFor('bench-fetch-loop');
	const nodeKey = keyFor('bench-business-ops-node');
	const httpKey = keyFor('bench-http-request-node');

	// The sandbox here has no real limit; so has this credential's budget (else the default 120
	// requests per minute, the API's limit, would set the pace of 200 pages: see the rows under the limit).
	const nodeCred = await client.createCredential({
		name: 'bench Return All (Business Ops)',
		type: nw.rt.CREDENTIAL_TYPE,
		data: { ...nw.rt.credentialData(sandbox, nodeKey.key), requestsPerMinute: 1_000_000 },
	});
	const httpCred = await nw.createHeaderAuthCredential(
		client,
		httpKey.key,
		'bench Return All (Header Auth)',
	);

	const pkgWf = await client.createWorkflow(
		nw.workflow('bench: Return All with the Business Ops node', [
			nw.manualTrigger(),
			nw.node(
				'Business Ops',
				nw.rt.NODE_TYPES.action,
				{ resource: 'contact', operation: 'getAll', returnAll: true },
				{ credentials: nw.businessOpsCredential(nodeCred) },
			),
		]),
	);
	const httpWf = await client.createWorkflow(
		nw.workflow('bench: Return All with the HTTP Request node', [
			nw.manualTrigger(),
			nw.node(
				'HTTP Request',
				'n8n-nodes-base.httpRequest',
				{
					method: 'GET',
					url: `${sandbox.baseUrl}/contacts`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpHeaderAuth',
					sendQuery: true,
					queryParameters: { parameters: [{ name: 'pageSize', value: String(PAGE_SIZE) }] },
					options: {
						pagination: {
							pagination: {
								paginationMode: 'updateAParameterInEachRequest',
								parameters: {
									parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
								},
								paginationCompleteWhen: 'other',
								completeExpression: '={{ $response.body.meta.hasMore === false }}',
							},
						},
					},
				},
				{
					typeVersion: 4.2,
					credentials: { httpHeaderAuth: { id: httpCred.id, name: httpCred.name } },
				},
			),
			nw.node('Split Out', 'n8n-nodes-base.splitOut', {
				fieldToSplitOut: 'data',
				include: 'noOtherFields',
				options: {},
			}),
		]),
	);

	const results = { fetch: [], node: [], http: [], splitOut: [] };
	const requests = { fetch: [], node: [], http: [] };

	const contenders = {
		fetch: async () => {
			const r = await runFetchLoop(ctx, sandbox.baseUrl, fetchKey.key);
			if (r.records !== TOTAL || r.distinct !== TOTAL)
				throw new Error(
					`fetch loop read ${r.records} records (${r.distinct} distinct), expected ${TOTAL}`,
				);
			return { ms: r.ms, requests: contactPages(control, fetchKey.id).length };
		},
		node: async () => {
			const ex = await nw.runWorkflow(client, pkgWf.id, {
				quietUntil: pagesAnswered(control, nodeKey.id, MIN_REQUESTS),
			});
			const r = nw.nodeRun(ex, 'Business Ops');
			if (ex.status !== 'success' || !r)
				throw new Error(`Business Ops Return All ended "${ex.status}": ${r?.error || ''}`);
			const distinct = new Set(r.items.map((i) => i.id)).size;
			if (r.items.length !== TOTAL || distinct !== TOTAL) {
				ctx.fail(
					'Return All (Business Ops node)',
					`returned ${r.items.length} items (${distinct} distinct ids), expected ${TOTAL}`,
				);
			}
			return { ms: r.executionTime, requests: contactPages(control, nodeKey.id).length };
		},
		http: async () => {
			const ex = await nw.runWorkflow(client, httpWf.id, {
				quietUntil: pagesAnswered(control, httpKey.id, MIN_REQUESTS),
			});
			const r = nw.nodeRun(ex, 'HTTP Request');
			const s = nw.nodeRun(ex, 'Split Out');
			if (ex.status !== 'success' || !r || !s)
				throw new Error(`HTTP Request pagination ended "${ex.status}": ${r?.error || ''}`);
			if (s.items.length !== TOTAL)
				throw new Error(`HTTP Request + Split Out gave ${s.items.length} items, expected ${TOTAL}`);
			return {
				ms: r.executionTime,
				splitOutMs: s.executionTime,
				requests: contactPages(control, httpKey.id).length,
				pages: r.items.length,
			};
		},
	};

	// One warm-up run each (first use of a node type, JIT), not counted.
	for (const name of Object.keys(contenders)) {
		control.clearRequestLog();
		await contenders[name]();
	}
	const order = Object.keys(contenders);
	for (let round = 0; round < rounds; round++) {
		const rotated = order.slice(round % order.length).concat(order.slice(0, round % order.length));
		for (const name of rotated) {
			control.clearRequestLog();
			const r = await contenders[name]();
			results[name].push(r.ms);
			requests[name].push(r.requests);
			if (name === 'http') results.splitOut.push(r.splitOutMs);
			log(`round ${round + 1}/${rounds} ${name}: ${fmtMs(r.ms)}, ${r.requests} requests`);
		}
	}

	const med = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, median(v)]));
	// Ratios are taken within each round (the runs of one round are seconds apart, so they share
	// the machine's load at that moment), then the median over the rounds.
	const paired = (a, b) => median(results[a].map((x, i) => x / results[b][i]));
	const spread = (k) => `${fmtMs(min(results[k]))}–${fmtMs(max(results[k]))}`;
	const reqText = (k) => [...new Set(requests[k])].join('/');
	const nodeRequests = max(requests.node);
	const section = 'Return All 20,000 contacts';
	ctx.row({
		section,
		name: 'Requests, Business Ops node (Return All)',
		measured: reqText('node'),
		baseline: `fetch loop ${reqText('fetch')}; HTTP Request node ${reqText('http')}`,
		ratio: nodeRequests / median(requests.fetch),
		target: `exactly ${MIN_REQUESTS}`,
		verdict: requests.node.every((n) => n === MIN_REQUESTS) ? 'met' : 'missed',
		detail: `GET /contacts answers in the sandbox request log for the node's own key, pageSize ${PAGE_SIZE}; ${rounds} runs`,
	});
	ctx.row({
		section,
		name: 'Wall time, Business Ops node vs fetch loop',
		measured: fmtMs(med.node),
		baseline: `fetch loop ${fmtMs(med.fetch)}`,
		ratio: paired('node', 'fetch'),
		target: '<= 1.15x',
		verdict: atMost(paired('node', 'fetch'), 1.15),
		detail: `${rounds} rounds after a warm-up, order rotated; times are medians, the ratio is the median of the per-round ratios; node = its executionTime in n8n's execution record (${spread('node')}); fetch loop = plain Node ${ctx.runtime.nodeVersion} process, first request to all records parsed (${spread('fetch')})`,
	});
	ctx.row({
		section,
		name: 'Wall time, Business Ops node vs HTTP Request node',
		measured: fmtMs(med.node),
		baseline: `HTTP Request node ${fmtMs(med.http)}`,
		ratio: paired('node', 'http'),
		target: '-',
		verdict: 'info',
		detail: `HTTP Request node 4.2 with pagination (page = $pageCount + 1, complete when meta.hasMore is false), Header Auth; it outputs ${MIN_REQUESTS} page items, and a Split Out node (${fmtMs(med.splitOut)} more) is needed to get the same ${TOTAL} contact items (${spread('http')})`,
	});

	// Under the limit: a key of its own, a credential paced to the limit (saved as the editor saves
	// it), one run per counting mode.
	const limitedSection = `Return All 20,000 contacts under ${LIMITED.limit} req / ${LIMITED.windowMs / 1000} s (the API's limit, 10x faster)`;
	const beyondFirstWindow = MIN_REQUESTS - LIMITED.limit;
	const minimum = LIMITED.windowMs + (med.fetch * beyondFirstWindow) / MIN_REQUESTS;
	const previousLimit = control.rateLimit();
	for (const countRefused of [false, true]) {
		const key = keyFor(`bench-limited-${countRefused}`);
		nw.rt.useBudgetWindow(key.key, LIMITED.windowMs);
		const data = { ...nw.rt.credentialData(sandbox, key.key), requestsPerMinute: LIMITED.limit };
		const cred = await client.rest('POST', '/credentials', {
			name: `bench Return All limited ${countRefused}`,
			type: nw.rt.CREDENTIAL_TYPE,
			data,
		});
		const wf = await client.createWorkflow(
			nw.workflow(`bench: Return All under the limit ${countRefused}`, [
				nw.manualTrigger(),
				nw.node(
					'Business Ops',
					nw.rt.NODE_TYPES.action,
					{ resource: 'contact', operation: 'getAll', returnAll: true },
					{ credentials: nw.businessOpsCredential({ id: cred.id, name: cred.name }) },
				),
			]),
		);
		// The key's first use runs scrypt in the sandbox; keep that out of the measurement.
		await fetch(`${sandbox.baseUrl}/contacts?pageSize=1`, {
			headers: { authorization: `Bearer ${key.key}` },
		});
		// ...and let that request leave the window: the node's budget cannot know of it.
		await sleep(LIMITED.windowMs + 100);
		control.clearRequestLog();
		control.setRateLimit(LIMITED);
		control.setCountRefused(countRefused);
		let ex;
		try {
			ex = await nw.runWorkflow(client, wf.id, {
				timeoutMs: 300_000,
				quietUntil: pagesAnswered(control, key.id, MIN_REQUESTS),
			});
		} finally {
			control.setRateLimit(previousLimit);
			control.setCountRefused(false);
		}
		const r = nw.nodeRun(ex, 'Business Ops');
		const pages = contactPages(control, key.id);
		const refused = pages.filter((e) => e.status === 429).length;
		const distinct = new Set((r?.items || []).map((i) => i.id)).size;
		const good = ex.status === 'success' && r?.items.length === TOTAL && distinct === TOTAL;
		if (!good)
			ctx.fail(
				`${limitedSection} (refusals counted: ${countRefused})`,
				`execution ${ex.status}; ${r?.items.length} items (${distinct} distinct), expected ${TOTAL}${r?.error ? `; ${r.error}` : ''}`,
			);
		log(
			`under the limit, refusals ${countRefused ? '' : 'not '}counted: ${ex.status}, ${fmtMs(r?.executionTime)}, ${pages.length} requests, ${refused} refused`,
		);
		ctx.row({
			section: limitedSection,
			name: `Wall time vs minimum, refusals ${countRefused ? '' : 'not '}counted by the API`,
			measured: `${fmtMs(r?.executionTime)}; ${distinct} of ${TOTAL} records, ${refused} refused`,
			baseline: `minimum ${fmtMs(minimum)}`,
			ratio: r?.executionTime / minimum,
			target: '<= 1.05x, 0 failures',
			verdict: good ? atMost(r.executionTime / minimum, 1.05) : 'FAIL',
			detail: `minimum = one window (${LIMITED.windowMs / 1000} s) + the fetch loop's median time for ${beyondFirstWindow} of its ${MIN_REQUESTS} pages (${fmtMs(med.fetch)} for all); ${pages.length} page requests`,
		});
	}
	return { medians: med, requests };
}

module.exports = { name: 'returnAll', run };
