'use strict';
// What the single-process (scripts/e2e.js) and queue-mode (scripts/e2e-queue.js) runners share:
// running the step modules in order with a progress line each, and the checks steps use to
// make sure the node they exercise is loaded in n8n.

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

function withTimeout(promise, ms, what) {
	let timer;
	return Promise.race([
		promise,
		new Promise((_, reject) => {
			timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
		}),
	]).finally(() => clearTimeout(timer));
}

/**
 * `ctx.requireOperation(resource, operation)` fails a step when n8n's copy of the node lacks the
 * resource or the operation it exercises, naming what the node has instead.
 */
function requireOperationOf(nodeType, nodeTypeName) {
	return (resource, operation) => {
		if (!nodeType) throw new Error(`n8n does not know ${nodeTypeName}`);
		const resources = nodeType.properties.find((p) => p.name === 'resource')?.options?.map((o) => o.value) || [];
		if (!resources.includes(resource)) throw new Error(`the node has no resource "${resource}"`);
		const ops = nodeType.properties
			.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))
			.flatMap((p) => p.options || [])
			.map((o) => o.value);
		if (!ops.includes(operation)) {
			throw new Error(`the node's ${resource} resource has no operation "${operation}" (has: ${ops.join(', ')})`);
		}
	};
}

/**
 * Runs the steps in order: `[prefix] i/n area: name … ok (1.2 s) detail`, or FAILED with the
 * error and what the processes logged during the step (`markLogs` / `printLogsSince`).
 */
async function runSteps({ steps, ctx, prefix, counts, out, isInterrupted, markLogs, printLogsSince }) {
	const beforeDone = new Set();
	for (const [index, step] of steps.entries()) {
		if (isInterrupted()) return;
		const label = `[${prefix}] ${index + 1}/${steps.length} ${step.module.area}: ${step.name}`;
		const started = Date.now();
		const mark = markLogs();
		try {
			if (step.module.before && !beforeDone.has(step.module)) {
				beforeDone.add(step.module);
				await withTimeout(Promise.resolve(step.module.before(ctx)), 120_000, `${step.module.area} before()`);
			}
			const detail = await withTimeout(Promise.resolve(step.run(ctx)), step.timeoutMs || 180_000, 'step');
			if (isInterrupted()) return;
			counts.passed++;
			out(`${label} … ok (${secs(Date.now() - started)})${detail ? ` ${detail}` : ''}`);
		} catch (e) {
			if (isInterrupted()) return;
			counts.failed++;
			out(`${label} … FAILED (${secs(Date.now() - started)})`);
			for (const line of String(e && e.stack ? e.message : e).split('\n')) out(`    ${line}`);
			printLogsSince(mark);
		}
	}
}

module.exports = { runSteps, requireOperationOf, withTimeout, secs };
