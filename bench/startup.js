// n8n start time with and without this package: `n8n start` on one database (migrated by a
// warm-up start that is not measured), alternately with N8N_CUSTOM_EXTENSIONS pointing at the
// package's dist/ and at an empty folder. Start time = from the spawn until /healthz/readiness
// answers 200 (n8n says "fully ready" only after loading every node), polled every 25 ms.
// Returns a running n8n with the package loaded, on the same database, for the other benchmarks.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { rt } = require('./lib/n8n');
const { median, min, max, sleep, fmtMs } = require('./lib/stats');

/** Starts n8n and measures the time until readiness with a fine-grained poller of its own. */
async function timedStart(ctx, common, extensionsDir) {
	const port = await rt.freePort(0);
	const t0 = process.hrtime.bigint();
	let readyMs;
	let stop = false;
	const poller = (async () => {
		const deadline = Date.now() + 180_000;
		while (!stop && Date.now() < deadline) {
			try {
				const res = await fetch(`http://127.0.0.1:${port}/healthz/readiness`, {
					signal: AbortSignal.timeout(1000),
				});
				if (res.status === 200) {
					readyMs = Number(process.hrtime.bigint() - t0) / 1e6;
					return;
				}
			} catch {
				/* not listening yet */
			}
			await sleep(25);
		}
	})();
	let handle;
	try {
		handle = await rt.startN8n({ ...common, extensionsDir, port });
	} finally {
		await poller.catch(() => {});
		stop = true;
	}
	if (handle.port !== port) throw new Error(`n8n took port ${handle.port} instead of ${port}`);
	if (readyMs === undefined) throw new Error('the readiness poller saw no 200');
	return { handle, ms: readyMs };
}

async function run(ctx) {
	const { log } = ctx;
	const starts = ctx.quick ? 2 : 4;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-'));
	const emptyExtensions = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-no-ext-'));
	ctx.ownFolder(userFolder);
	ctx.ownFolder(emptyExtensions);
	const common = {
		runtime: ctx.runtime,
		userFolder,
		encryptionKey: crypto.randomBytes(24).toString('hex'),
		env: ctx.n8nEnv,
	};

	const warm = await timedStart(ctx, common, rt.DIST_DIR);
	log(`warm-up start (new database, migrations): ${fmtMs(warm.ms)}`);
	await warm.handle.stop();

	const times = { with: [], without: [] };
	for (let i = 0; i < starts; i++) {
		const order = i % 2 ? ['without', 'with'] : ['with', 'without'];
		for (const variant of order) {
			const r = await timedStart(ctx, common, variant === 'with' ? rt.DIST_DIR : emptyExtensions);
			times[variant].push(r.ms);
			log(`start ${i + 1}/${starts} ${variant} the package: ${fmtMs(r.ms)}`);
			await r.handle.stop();
		}
	}
	const final = await rt.startN8n({ ...common, extensionsDir: rt.DIST_DIR, port: 0 });

	const w = median(times.with);
	const wo = median(times.without);
	ctx.row({
		section: 'Package',
		name: 'n8n start time with the package',
		measured: fmtMs(w),
		baseline: `without: ${fmtMs(wo)}`,
		ratio: w / wo,
		target: '-',
		verdict: 'info',
		detail: `medians of ${starts} starts each, alternating, on one migrated SQLite database (with ${fmtMs(min(times.with))}–${fmtMs(max(times.with))}, without ${fmtMs(min(times.without))}–${fmtMs(max(times.without))}; difference of medians ${fmtMs(w - wo)}); spawn of \`n8n start\` until /healthz/readiness answers 200, package loaded through N8N_CUSTOM_EXTENSIONS`,
	});
	return final;
}

module.exports = { name: 'startup', run };
