#!/usr/bin/env node
// Release check: `node scripts/release-check.js [root]` fails while package.json's repository is
// still the placeholder address the project started with, or while a link users open from n8n
// (the credential's and the codex files' documentation links) or package.json's homepage and bugs
// name another repository. The README and docs link relatively, so they follow package.json.
// Meant as a step of the release workflow before `npm publish` (docs/publishing.md, "Publishing").
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/** The address the repository was filled in with before its real one was known. */
const PLACEHOLDER = 'https://github.com/business-ops/n8n-nodes-business-ops';

const root = path.resolve(process.argv[2] || path.join(__dirname, '..'));
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
const repo = String((pkg.repository && pkg.repository.url) || '')
	.replace(/^git\+/, '')
	.replace(/\.git$/, '');

const failures = [];
if (!/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/.test(repo))
	failures.push(`package.json: repository.url "${repo}" is not a GitHub repository`);
if (repo === PLACEHOLDER)
	failures.push(
		`package.json: repository.url is still the placeholder ${PLACEHOLDER}: set the repository the package is published from`,
	);
if (pkg.homepage !== `${repo}#readme`)
	failures.push(`package.json: homepage "${pkg.homepage}" is not ${repo}#readme`);
if (!pkg.bugs || pkg.bugs.url !== `${repo}/issues`)
	failures.push(`package.json: bugs.url is not ${repo}/issues`);

const linked = [
	'credentials/BusinessOpsApi.credentials.ts',
	...fs
		.readdirSync(path.join(root, 'nodes'))
		.map((dir) => `nodes/${dir}/${dir}.node.json`)
		.filter((file) => fs.existsSync(path.join(root, file))),
];
for (const file of linked) {
	const addresses =
		read(file).match(/https:\/\/(?:github\.com|raw\.githubusercontent\.com)\/[^\s'"`)#]+/g) || [];
	const other = addresses.filter((address) => address !== repo && !address.startsWith(`${repo}/`));
	if (other.length)
		failures.push(`${file}: links to ${[...new Set(other)].join(', ')}, not to ${repo}`);
}

if (failures.length) {
	for (const failure of failures) console.error(`[release-check] ${failure}`);
	process.exit(1);
}
console.log(`[release-check] every repository address names ${repo}`);
