import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	anchors,
	brokenLink,
	documents,
	githubSlug,
	links,
	packageJson,
	REPO_URL,
	ROOT,
} from './markdown';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the link checker', () => {
	test("makes GitHub's anchors", () => {
		expect(githubSlug('Verification and n8n 3.0')).toBe('verification-and-n8n-30');
		expect(githubSlug('Try it, test it')).toBe('try-it-test-it');
		expect(githubSlug('What each process keeps to itself: the rate-limit budget')).toBe(
			'what-each-process-keeps-to-itself-the-rate-limit-budget',
		);
		expect(githubSlug('The `refusals` count [here](x.md)')).toBe('the-refusals-count-here');
		expect([...anchors('# A\n## A\n```\n# Not a heading\n```\n### B!')]).toEqual(['a', 'a-1', 'b']);
	});

	test('finds links outside code and reports the broken ones', () => {
		expect(links('[a](x.md) `[b](y.md)` ![c](d.png "t")\n```\n[e](f.md)\n```')).toEqual([
			'x.md',
			'd.png',
		]);
		expect(brokenLink('./ops.md', 'docs/troubleshooting.md')).toMatch(/no file docs\/ops\.md/);
		expect(brokenLink('../README.md#no-such-heading', 'docs/scale.md')).toMatch(/has no heading/);
		expect(brokenLink(`${REPO_URL}/blob/main/docs/missing.md`, 'README.md')).toMatch(
			/no file docs\/missing\.md/,
		);
		expect(brokenLink('../README.md#credentials', 'docs/scale.md')).toBeUndefined();
		expect(brokenLink('https://docs.n8n.io/', 'README.md')).toBeUndefined();
		expect(documents().flatMap((file) => links(read(file))).length).toBeGreaterThan(30);
	});
});

test.each(documents())('every link in %s resolves, anchors included', (file) => {
	expect(
		links(read(file))
			.map((link) => brokenLink(link, file))
			.filter(Boolean),
	).toEqual([]);
});

test("the README links into the repository relatively (npm resolves them against package.json's repository), so the address lives in package.json only", () => {
	const readme = read('README.md');
	const intoRepository = links(readme).filter((link) =>
		/^https:\/\/(github\.com|raw\.githubusercontent\.com)\//.test(link),
	);
	expect(intoRepository).toEqual([]);
	const owner = REPO_URL.replace('https://github.com/', '');
	expect(readme.includes(owner)).toBe(false);
});

test('every docs page is linked from the README', () => {
	const readme = read('README.md');
	const unlinked = documents()
		.filter((file) => file.startsWith('docs/'))
		.filter((file) => !readme.includes(`](${file}`));
	expect(unlinked).toEqual([]);
});

describe("the README's commands are the package's", () => {
	const readme = read('README.md');

	test('`npm test` and every `npm run <script>` in the README and docs/ name a script of package.json', () => {
		expect(readme).toMatch(/npm test\s+#/);
		expect(packageJson.scripts.test).toBe(
			'node scripts/ensure-install.js && node scripts/test-all.js',
		);
		const named = documents().flatMap((file) =>
			[...read(file).matchAll(/npm run ([\w:-]+)/g)].map((m) => ({ file, script: m[1] })),
		);
		expect(named.length).toBeGreaterThan(0);
		expect(named.filter(({ script }) => !(script in packageJson.scripts))).toEqual([]);
	});

	test("the install instructions install package.json's name", () => {
		const installs = [...readme.matchAll(/npm install (?:--[\w-]+ )*(\S+)/g)].map((m) =>
			m[1].replace(/@[^@/]*$/, ''),
		);
		expect(installs.length).toBeGreaterThanOrEqual(2);
		expect(installs.filter((name) => name !== packageJson.name)).toEqual([]);
		expect(readme).toContain(
			`*Settings → Community Nodes → Install*, enter \`${packageJson.name}\``,
		);
	});
});
