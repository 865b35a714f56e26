// Small numeric helpers for the benchmarks. Standard library only.
'use strict';

/** Median of a list of numbers (NaN for an empty list). */
function median(values) {
	const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
	if (v.length === 0) return NaN;
	const mid = v.length >> 1;
	return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** p-th percentile (0..100), nearest rank. */
function percentile(values, p) {
	const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
	if (v.length === 0) return NaN;
	const rank = Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1));
	return v[rank];
}

function min(values) {
	return Math.min(...values.filter((x) => Number.isFinite(x)));
}

function max(values) {
	return Math.max(...values.filter((x) => Number.isFinite(x)));
}

/** Milliseconds since an hrtime.bigint() mark. */
function msSince(start) {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Formats a duration: 0.012 ms, 3.4 ms, 1.23 s. */
function fmtMs(ms) {
	if (!Number.isFinite(ms)) return 'n/a';
	if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 100_000 ? 0 : 2)} s`;
	if (ms >= 100) return `${ms.toFixed(0)} ms`;
	if (ms >= 10) return `${ms.toFixed(1)} ms`;
	if (ms >= 1) return `${ms.toFixed(2)} ms`;
	if (ms >= 0.001) return `${(ms * 1000).toFixed(ms >= 0.01 ? 1 : 2)} µs`;
	return `${(ms * 1e6).toFixed(0)} ns`;
}

function fmtBytes(bytes) {
	if (!Number.isFinite(bytes)) return 'n/a';
	if (bytes >= 1000 * 1000) return `${(bytes / 1e6).toFixed(2)} MB`;
	if (bytes >= 1000) return `${(bytes / 1000).toFixed(1)} kB`;
	return `${bytes} B`;
}

function fmtRatio(r) {
	return Number.isFinite(r) ? `${r.toFixed(2)}x` : 'n/a';
}

module.exports = { median, percentile, min, max, msSince, sleep, fmtMs, fmtBytes, fmtRatio };
