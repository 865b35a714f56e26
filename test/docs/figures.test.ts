// One table of record for measured figures: docs/benchmarks.md's bench table (written by the
// bench). Any other page, and the prose of benchmarks.md itself, links to its rows instead of
// copying numbers, so a new run cannot leave a page behind: a figure outside the table must be
// one of the table's. A figure is a ratio (`1.17x`) or a decimal quantity with a unit (`8.70 s`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { documents, ROOT } from './markdown';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

const FIGURE = /(?<![\w.])\d+\.\d+(?:x\b| ?(?:ms|µs|s|kB|MiB|MB|\/s)(?![\w]))/g;

function table(): string {
	const parts = read('docs/benchmarks.md').split(
		/<!-- bench table:[^\n]*-->\n|<!-- end of bench table -->/,
	);
	return parts[1];
}

function strayFigures(file: string, text: string, of: string): string[] {
	const inTable = new Set(of.match(FIGURE) ?? []);
	return [...new Set(text.match(FIGURE) ?? [])]
		.filter((f) => !inTable.has(f))
		.map((f) => `${file}: ${f}`);
}

test('the figure finder finds ratios and decimal quantities, not behaviour constants', () => {
	expect('1.08x and 48.7 ms, 4.5 /s, 65 µs, 120 s, 5 attempts, 0.74x'.match(FIGURE)).toEqual([
		'1.08x',
		'48.7 ms',
		'4.5 /s',
		'0.74x',
	]);
	expect(strayFigures('a.md', 'ran 1.41x, then 1.99x', '| x | 1.41x |')).toEqual(['a.md: 1.99x']);
	expect(table()).toContain('| Area |');
});

const pages = [...documents(), 'bench/README.md'];

test('no page quotes a measured figure that is not in the table of docs/benchmarks.md', () => {
	const stray = pages.flatMap((file) =>
		strayFigures(
			file,
			file === 'docs/benchmarks.md' ? read(file).replace(table(), '') : read(file),
			table(),
		),
	);
	expect(stray).toEqual([]);
});
