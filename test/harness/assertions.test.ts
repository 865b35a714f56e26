/**
 * The guard of test/harness/assertions.ts is on for every jest suite: a test that reads a file or
 * the environment and finds it missing cannot pass by asserting nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(join(ROOT, 'jest.config.js')) as {
	roots: string[];
	setupFilesAfterEnv: string[];
	testPathIgnorePatterns: string[];
};

function testFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
		return entry.name.endsWith('.test.ts') ? [path] : [];
	});
}

test('every test of every suite expects at least one assertion', () => {
	expect(expect.getState().isExpectingAssertions).toBe(true);
	expect(config.setupFilesAfterEnv).toContain('<rootDir>/test/harness/assertions.ts');
	expect(readFileSync(join(ROOT, 'test', 'harness', 'assertions.ts'), 'utf8')).toMatch(
		/^beforeEach\(\(\) => expect\.hasAssertions\(\)\);$/m,
	);
});

test('every test file that reads files or the environment runs under that guard', () => {
	const roots = config.roots.map((root) => root.replace('<rootDir>', ROOT));
	const reading = roots
		.flatMap(testFiles)
		.filter((file) =>
			/\b(readFileSync|readdirSync|existsSync|process\.env)\b/.test(readFileSync(file, 'utf8')),
		)
		.map((file) => relative(ROOT, file));
	expect(reading.length).toBeGreaterThan(5);
	// jest runs these with the setup files above unless a pattern leaves them out
	const ignored = reading.filter((file) =>
		config.testPathIgnorePatterns.some((pattern) => new RegExp(pattern).test(`/${file}`)),
	);
	expect(ignored).toEqual([]);
	// none returns early when its input is missing (as the spec comparison once did)
	const early = reading.filter((file) =>
		/if \(!existsSync\([^)]*\)\)\s*return\b/.test(readFileSync(join(ROOT, file), 'utf8')),
	);
	expect(early).toEqual([]);
});
