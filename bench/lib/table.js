// The benchmark table: one row per measured figure, printed as aligned text (terminal) and as
// Markdown (bench/RESULTS.md, docs/benchmarks.md). Standard library only.
//
// A row: { section, name, measured, baseline, ratio, target, verdict, detail }
//   measured, baseline  display strings (the baseline says what it is: "fetch loop 1.23 s")
//   ratio               number (measured / baseline, lower is better) or undefined
//   target              display string ("<= 1.15x", "100", "<= 100 kB") or "-" (reported only)
//   verdict             'met' | 'missed' | 'info' | 'FAIL' (FAIL = a correctness failure)
//   detail              one short line shown under the table (how it was measured, spread)
'use strict';

const { fmtRatio } = require('./stats');

const VERDICT_TEXT = {
	met: 'within target',
	missed: 'OVER TARGET',
	info: 'reported',
	FAIL: 'FAILED',
};

const COLUMNS = [
	['name', 'Benchmark'],
	['measured', 'Measured'],
	['baseline', 'Baseline (same run)'],
	['ratio', 'Ratio'],
	['target', 'Target'],
	['verdict', 'Verdict'],
];

function cells(row) {
	return {
		name: row.name,
		measured: row.measured ?? '',
		baseline: row.baseline ?? '-',
		ratio: row.ratio === undefined || row.ratio === null ? '-' : fmtRatio(row.ratio),
		target: row.target ?? '-',
		verdict: VERDICT_TEXT[row.verdict] ?? row.verdict ?? '',
	};
}

/** Verdict for a ratio (or value) that must stay at or below `limit`. */
function atMost(value, limit) {
	return Number.isFinite(value) ? (value <= limit ? 'met' : 'missed') : 'missed';
}

function toText(rows) {
	const data = rows.map(cells);
	const widths = COLUMNS.map(([key, title]) =>
		Math.max(title.length, ...data.map((d) => String(d[key]).length)),
	);
	const line = (values) =>
		values
			.map((v, i) => String(v).padEnd(widths[i]))
			.join('  ')
			.trimEnd();
	const out = [
		line(COLUMNS.map(([, title]) => title)),
		widths.map((w) => '-'.repeat(w)).join('  '),
	];
	let section;
	rows.forEach((row, i) => {
		if (row.section !== section) {
			section = row.section;
			out.push(`[${section}]`);
		}
		out.push(line(COLUMNS.map(([key]) => data[i][key])));
	});
	return out.join('\n');
}

function escapeMd(text) {
	return String(text).replace(/\|/g, '\\|');
}

function toMarkdown(rows, { withSection = true } = {}) {
	const cols = withSection ? [['section', 'Area'], ...COLUMNS] : COLUMNS;
	const out = [`| ${cols.map(([, t]) => t).join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`];
	for (const row of rows) {
		const c = { section: row.section, ...cells(row) };
		out.push(`| ${cols.map(([key]) => escapeMd(c[key])).join(' | ')} |`);
	}
	return out.join('\n');
}

/** The rows' details as a list ("name: detail"). */
function detailsText(rows, bullet = '  - ') {
	return rows
		.filter((r) => r.detail)
		.map((r) => `${bullet}${r.name}: ${r.detail}`)
		.join('\n');
}

module.exports = { toText, toMarkdown, detailsText, atMost, VERDICT_TEXT };
