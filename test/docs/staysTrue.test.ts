// Claims of the docs that a reader acts on and that went stale before: the editor's Limit hint, the
// Requests per Minute divisor in queue mode, the README's length, and machine paths in the repository.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { getManyFields } from '../../nodes/BusinessOps/shared/getMany';
import { documents, ROOT } from './markdown';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

test("the Limit hint says what a Limit read does: it is read again when the list changes, not 'in one pass'", () => {
	const limit = getManyFields().find((field) => field.name === 'limit');
	const hint = String(limit?.hint ?? '');
	expect(hint).not.toMatch(/one pass/i);
	expect(hint).toMatch(/read again/);
});

test('the Return All hint does not say a read waits when it fits in the rate limit (the budget is a sliding window)', () => {
	const hints = new BusinessOps().description.hints ?? [];
	const returnAll = hints.find((hint) => /Return All reads every page/.test(hint.message));
	expect(returnAll?.message).toMatch(/only the requests past that limit within a minute wait/);
	expect(returnAll?.message).not.toMatch(/almost a minute/);
});

/** Paragraphs, list items and table rows: a wrapped line belongs to the block above it. */
function blocks(markdown: string): string[] {
	return markdown.split(/\n(?=\s*(?:[-*] |\d+\. |\||#|\n))/);
}

test('wherever the docs divide Requests per Minute among processes, the main is counted', () => {
	const pages = [...documents(), 'CHANGELOG.md', 'bench/README.md'];
	const divisors = pages.flatMap((file) =>
		blocks(read(file))
			.filter((block) => /Requests per Minute/i.test(block) && /÷|divided by/.test(block))
			.map((block) => ({ file, block })),
	);
	expect(divisors.length).toBeGreaterThanOrEqual(3);
	const withoutMain = divisors
		.filter(({ block }) => !/\bmain\b/.test(block))
		.map(({ file, block }) => `${file}: ${block.trim().slice(0, 100)}…`);
	expect(withoutMain).toEqual([]);
});

test('README.md is at most 20 kB (20,000 bytes): depth goes to docs/', () => {
	expect(statSync(join(ROOT, 'README.md')).size).toBeLessThanOrEqual(20_000);
});

/** A path that only exists on one machine; `/home/node/` is n8n's Docker image's home. */
const MACHINE_PATH = /(?<![\w.~-])\/(?:work|root|tmp)\/|(?<![\w.~-])\/home\/(?!node\/)[\w.-]+\//;

/** Files that may name such a path: stubbed machines of the browser lookup, and this test. */
const ALLOWED = ['test/scripts/browserLookup.test.ts', 'test/docs/staysTrue.test.ts'];

test('the machine-path finder finds absolute paths of a machine, not URLs or n8n’s Docker home', () => {
	expect('see /work/shared/api-spec.md').toMatch(MACHINE_PATH);
	expect('in /home/alice/n8n').toMatch(MACHINE_PATH);
	expect('written to /tmp/x.log').toMatch(MACHINE_PATH);
	expect('/home/node/.n8n/nodes and https://example.com/root/ and ~/tmp/').not.toMatch(
		MACHINE_PATH,
	);
});

test('no tracked file names an absolute path of a machine', () => {
	const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
		.split('\0')
		.filter((file) => file && !ALLOWED.includes(file));
	expect(files.length).toBeGreaterThan(100);
	const found = files.flatMap((file) => {
		const buffer = readFileSync(join(ROOT, file));
		if (buffer.includes(0)) return [];
		return buffer
			.toString('utf8')
			.split('\n')
			.flatMap((line, i) => (MACHINE_PATH.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
	});
	expect(found).toEqual([]);
});
