// One poll of the Business Ops Polling Trigger over 10,000 invoices with 3 changes (issue 30):
// its requests, its wall time against a fetch loop reading the same pages (bench/fetch-loop.js)
// in the same run, the static data it keeps and the process's RSS. The poll runs in its own
// process (bench/poll-once.js) through n8n-core's PollContext of the pinned n8n runtime, on the
// same Node as the fetch loop; neither shares the sandbox's event loop.
'use strict';

const { runBenchScript } = require('./lib/child');
const { median, min, max, fmtMs } = require('./lib/stats');
const { atMost } = require('./lib/table');

const TOTAL = 10_000;
const PAGES = TOTAL / 100;

const runChild = (ctx, script, env) => runBenchScript(ctx, script, env, 180_000);

async function run(ctx) {
	const sandbox = await ctx.startSandbox({
		seed: false,
		rateLimit: { limit: 1_000_000, windowMs: 60_000 },
	});
	sandbox.control.seed({ resource: 'invoices', count: TOTAL });
	const pollKey = sandbox.control.createKey({
		scopes: ['*'],
		organization: 'primary',
		name: 'bench poll',
	});
	const fetchKey = sandbox.control.createKey({
		scopes: ['*'],
		organization: 'primary',
		name: 'bench fetch loop',
	});
	const changeKey = sandbox.control.createKey({
		scopes: ['*'],
		organization: 'primary',
		name: 'bench changes',
	});
	const invoiceReads = (keyId) =>
		sandbox.control
			.requestLog()
			.filter((e) => e.keyId === keyId && e.method === 'GET' && e.path.endsWith('/invoices'))
			.length;
	const rounds = ctx.quick ? 3 : 7;
	const times = { poll: [], fetch: [] };
	const ratios = [];
	let last;
	for (let round = 0; round < rounds; round++) {
		const readsBefore = invoiceReads(pollKey.id);
		const fetchRun = () =>
			runChild(ctx, 'fetch-loop.js', {
				BENCH_BASE_URL: sandbox.baseUrl,
				BENCH_API_KEY: fetchKey.key,
				BENCH_PAGE_SIZE: '100',
				BENCH_PATH: '/invoices',
			});
		const pollRun = () =>
			runChild(ctx, 'poll-once.js', {
				BENCH_N8N_DIR: ctx.runtime.dir,
				BENCH_BASE_URL: sandbox.baseUrl,
				BENCH_API_KEY: pollKey.key,
				BENCH_CHANGE_KEY: changeKey.key,
				BENCH_ROUNDS: '1',
			});
		let fetched;
		let polled;
		if (round % 2 === 0) {
			fetched = await fetchRun();
			polled = await pollRun();
		} else {
			polled = await pollRun();
			fetched = await fetchRun();
		}
		const [timed] = polled.rounds;
		if (!timed.correct || timed.events !== 3)
			ctx.fail(
				'polling: events',
				`round ${round}: ${timed.events} events, the 3 paid invoices expected`,
			);
		if (fetched.records < TOTAL)
			ctx.fail('polling: fetch loop', `read ${fetched.records} invoices`);
		const requests = (invoiceReads(pollKey.id) - readsBefore) / 2; // the baseline poll and the timed one
		if (requests !== PAGES)
			ctx.fail(
				'polling: requests',
				`round ${round}: ${requests} requests per poll, ${PAGES} expected`,
			);
		times.poll.push(timed.ms);
		times.fetch.push(fetched.ms);
		ratios.push(timed.ms / fetched.ms);
		last = { ...polled, requests };
	}
	const section = 'Polling trigger: one poll over 10,000 invoices, 3 changed';
	const spread = (k) => `min ${fmtMs(min(times[k]))}, max ${fmtMs(max(times[k]))}`;
	ctx.row({
		section,
		name: 'Requests per poll',
		measured: String(last.requests),
		baseline: `fetch loop ${PAGES}`,
		ratio: last.requests / PAGES,
		target: `exactly ${PAGES}`,
		verdict: last.requests === PAGES ? 'met' : 'missed',
		detail:
			"GET /invoices answers in the sandbox request log for the poller's key, per poll (pageSize 100)",
	});
	ctx.row({
		section,
		name: 'Wall time, one poll vs fetch loop',
		measured: fmtMs(median(times.poll)),
		baseline: `fetch loop ${fmtMs(median(times.fetch))}`,
		ratio: median(ratios),
		target: '<= 1.10x',
		verdict: atMost(median(ratios), 1.1),
		detail: `${rounds} rounds, order alternated; the ratio is the median of the per-round ratios; poll = poll() through n8n-core's PollContext (${ctx.runtime.n8nVersion}) in its own process after a baseline poll, from the call to the emitted items, state written (${spread('poll')}); fetch loop = plain Node ${ctx.runtime.nodeVersion}, first request to all records parsed (${spread('fetch')})`,
	});
	ctx.row({
		section,
		name: 'Static data kept for 10,000 invoices',
		measured: `${(last.staticBytes / 1000).toFixed(1)} kB`,
		target: '< 200 kB',
		verdict: last.staticBytes < 200_000 ? 'met' : 'missed',
		detail: "JSON of the workflow's static data after the poll (what n8n saves)",
	});
	ctx.row({
		section,
		name: 'RSS of the polling process',
		measured: `${(last.rss / 2 ** 20).toFixed(0)} MiB`,
		target: '-',
		verdict: 'info',
		detail:
			"process.memoryUsage().rss after the poll, n8n-core and n8n-workflow loaded (n8n's own process holds them anyway)",
	});
}

module.exports = { run };
