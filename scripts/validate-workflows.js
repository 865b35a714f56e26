#!/usr/bin/env node
// `npm run test:workflows`: the GitHub Actions workflows in .github/workflows validate against
// GitHub's schema (@action-validator/cli, offline), and do what the README says they do:
// ci.yml runs the README's test command on every push to main and every pull request;
// publish.yml runs on a version tag, lints, builds, scans and tests before it publishes with
// npm provenance, with the OIDC token (`id-token: write`) that trusted publishing needs.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const DIR = path.join(ROOT, '.github', 'workflows');
const CLI = require.resolve('@action-validator/cli/cli.mjs');

const failures = [];
const check = (ok, what) => {
	if (!ok) failures.push(what);
	return ok;
};

/** Index of `needle` in `text`, failing the check when it is absent. */
function at(text, needle, file) {
	const i = text.indexOf(needle);
	check(i >= 0, `${file}: no "${needle}"`);
	return i;
}

const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)).sort() : [];
check(files.includes('ci.yml') && files.includes('publish.yml'), `.github/workflows holds ${files.join(', ') || 'nothing'}; expected ci.yml and publish.yml`);

for (const f of files) {
	const r = spawnSync(process.execPath, [CLI, path.join(DIR, f)], { encoding: 'utf8' });
	if (check(r.status === 0, `${f}: action-validator exit ${r.status}\n${r.stdout}${r.stderr}`)) console.log(`[workflows] ${f}: valid (action-validator)`);
}

const ci = fs.readFileSync(path.join(DIR, 'ci.yml'), 'utf8');
check(/^on:\n(?:.*\n)*?\s+push:\n\s+branches:\n\s+- main\n\s+pull_request:/m.test(ci), 'ci.yml: not triggered on push to main and on pull requests');
at(ci, 'run: npm test', 'ci.yml');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
check(/npm test\s+#/.test(readme), 'README.md no longer names `npm test` as the test command');

const pub = fs.readFileSync(path.join(DIR, 'publish.yml'), 'utf8');
check(/^on:\n\s+push:\n\s+tags:\n\s+- '\*\.\*\.\*'/m.test(pub), 'publish.yml: not triggered by version tags');
at(pub, 'id-token: write', 'publish.yml');
const order = ['run: npm ci', 'run: npm run lint', 'run: npm run build', 'run: npm run test:scan', 'run: npm test', 'run: npm publish --provenance --access public'].map((s) => [s, at(pub, s, 'publish.yml')]);
for (let i = 1; i < order.length; i++) check(order[i - 1][1] < order[i][1], `publish.yml: "${order[i - 1][0]}" does not come before "${order[i][0]}"`);
check(!/NPM_TOKEN|NODE_AUTH_TOKEN/.test(pub), 'publish.yml uses a token: trusted publishing needs none');

if (failures.length) {
	for (const f of failures) console.log(`[workflows] FAILED: ${f}`);
	process.exit(1);
}
console.log('[workflows] ci.yml runs `npm test` on push and pull request; publish.yml: tag → npm ci, lint, build, scan, tests → npm publish --provenance (id-token: write)');
