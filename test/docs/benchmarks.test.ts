// docs/benchmarks.md shows the table of one bench run: the one `npm run bench -- --out=bench/RESULTS.md`
// wrote into bench/RESULTS.md, copied between its markers by the same run (bench/run.js). A
// table typed or assembled by hand, or a page left behind by a newer run, fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const docs = readFileSync(join(ROOT, 'docs', 'benchmarks.md'), 'utf8');
const results = readFileSync(join(ROOT, 'bench', 'RESULTS.md'), 'utf8');

const tableRows = (text: string) => text.split('\n').filter((line) => line.startsWith('|'));

test("docs/benchmarks.md's table is bench/RESULTS.md's, from the run it names", () => {
	const parts = docs.split(/<!-- bench table:[^\n]*-->\n|<!-- end of bench table -->/);
	expect(parts).toHaveLength(3); // one opening and one closing marker, in that order
	const [, inside] = parts;
	const runLine = inside.split('\n')[0];
	expect(runLine).toMatch(
		/^Run of \d{4}-\d{2}-\d{2}: `npm run bench -- [^`]*--out=bench\/RESULTS\.md`, /,
	);
	expect(results).toContain(runLine);
	expect(tableRows(inside).length).toBeGreaterThan(2);
	expect(tableRows(inside)).toEqual(tableRows(results.split('\n## ')[0]));
	// no other results table on the page
	expect(tableRows(docs.replace(inside, ''))).toEqual([]);
});
