import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { BusinessOpsApi } from '../../credentials/BusinessOpsApi.credentials';
import { brokenLink, packageJson, REPO_URL, ROOT } from './markdown';

interface Codex {
	node: string;
	categories: string[];
	subcategories?: unknown;
	alias: string[];
	resources: Record<string, Array<{ url: string }>>;
}

const codexFiles = [
	'nodes/BusinessOps/BusinessOps.node.json',
	'nodes/BusinessOpsTrigger/BusinessOpsTrigger.node.json',
	'nodes/BusinessOpsPollingTrigger/BusinessOpsPollingTrigger.node.json',
];
const codex = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Codex;

/** The categories of n8n's nodes panel (those of n8n-nodes-base's codex files). */
const N8N_CATEGORIES = [
	'AI',
	'Analytics',
	'Communication',
	'Core Nodes',
	'Data & Storage',
	'Development',
	'Finance & Accounting',
	'Marketing',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
];

test("package.json's addresses all name the repository", () => {
	expect(REPO_URL).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
	expect(packageJson.homepage).toBe(`${REPO_URL}#readme`);
	expect(packageJson.bugs.url).toBe(`${REPO_URL}/issues`);
});

test.each(codexFiles)('%s: its documentation links resolve to the README on GitHub', (file) => {
	const urls = Object.values(codex(file).resources).flatMap((entries) =>
		entries.map((entry) => entry.url),
	);
	expect(urls.length).toBeGreaterThanOrEqual(2);
	expect(urls.filter((url) => !url.startsWith(`${REPO_URL}#`))).toEqual([]);
	expect(urls.map((url) => brokenLink(url, 'README.md')).filter(Boolean)).toEqual([]);
});

/** Acronyms an alias may keep in capitals, as users type them into n8n's search. */
const ALIAS_ACRONYMS = ['CRM'];

test.each(codexFiles)(
	"%s: categories are n8n's, no invented subcategories, aliases in lower-case English words (or a listed acronym)",
	(file) => {
		const { categories, subcategories, alias } = codex(file);
		expect(categories.filter((category) => !N8N_CATEGORIES.includes(category))).toEqual([]);
		expect(subcategories).toBeUndefined();
		expect(alias.length).toBeGreaterThan(0);
		expect(
			alias.filter((word) => !/^[a-z]+( [a-z]+)*$/.test(word) && !ALIAS_ACRONYMS.includes(word)),
		).toEqual([]);
		expect(
			alias.filter((word) => ['offerte', 'factuur', 'klant'].includes(word.toLowerCase())),
		).toEqual([]);
	},
);

test("the node's codex points at the package's homepage; the credential's links resolve", () => {
	expect(codex(codexFiles[0]).resources.primaryDocumentation[0].url).toBe(packageJson.homepage);
	const credential = new BusinessOpsApi();
	const urls = [credential.documentationUrl, credential.httpRequestNode.docsUrl];
	expect(urls.filter((url) => !url.startsWith(`${REPO_URL}#`))).toEqual([]);
	expect(urls.map((url) => brokenLink(url, 'README.md')).filter(Boolean)).toEqual([]);
	for (const file of codexFiles) {
		expect(codex(file).resources.credentialDocumentation[0].url).toBe(credential.documentationUrl);
	}
});
