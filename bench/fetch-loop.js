#!/usr/bin/env node
// The baseline of the Return All benchmark: what a developer would write by hand without n8n.
// Reads every contact (or the list at BENCH_PATH, e.g. /invoices) with a plain fetch loop (page 1, 2, … at pageSize 100 until meta.hasMore
// is false) and prints one JSON line: { ms, records, requests, distinct }.
//
// Started by bench/returnAll.js as its own process, on the same Node as n8n, so that neither the
// baseline nor n8n shares the sandbox's event loop.
//   BENCH_BASE_URL=http://127.0.0.1:<port>/v1 BENCH_API_KEY=svc_… node bench/fetch-loop.js
'use strict';

async function main() {
	const base = process.env.BENCH_BASE_URL;
	const key = process.env.BENCH_API_KEY;
	const pageSize = Number(process.env.BENCH_PAGE_SIZE || 100);
	const list = process.env.BENCH_PATH || '/contacts';
	if (!base || !key) throw new Error('BENCH_BASE_URL and BENCH_API_KEY are required');
	const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };

	const started = process.hrtime.bigint();
	const records = [];
	let requests = 0;
	for (let page = 1; page <= 10_000; page++) {
		const res = await fetch(`${base}${list}?page=${page}&pageSize=${pageSize}`, {
			headers,
			signal: AbortSignal.timeout(30_000),
		});
		requests++;
		if (!res.ok)
			throw new Error(
				`GET ${list} page ${page} -> ${res.status}: ${(await res.text()).slice(0, 200)}`,
			);
		const body = await res.json();
		records.push(...body.data);
		if (!body.meta || !body.meta.hasMore) break;
	}
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const distinct = new Set(records.map((r) => r.id)).size;
	process.stdout.write(`${JSON.stringify({ ms, records: records.length, requests, distinct })}\n`);
}

main().catch((e) => {
	process.stderr.write(`${e.stack || e}\n`);
	process.exit(1);
});
