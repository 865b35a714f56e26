#!/usr/bin/env node
// `npm run test:workflows`: the GitHub Actions workflows in .github/workflows validate against
// GitHub's schema (@action-validator/cli, offline), and do what the README says they do:
// ci.yml runs the README's test command on every push to main and every pull request;
// publish.yml runs on a version tag, lints, builds, scans and tests before it publishes with
// npm provenance, with the OIDC token (`id-token: write`) that trusted publishing needs; both
// name what every phase of `npm test` needs on GitHub's ubuntu-latest (docs/publishing.md,
// "What the workflows need on GitHub's runners"). Nothing here runs a workflow.
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

const files = fs.existsSync(DIR)
	? fs
			.readdirSync(DIR)
			.filter((f) => /\.ya?ml$/.test(f))
			.sort()
	: [];
check(
	files.includes('ci.yml') && files.includes('publish.yml'),
	`.github/workflows holds ${files.join(', ') || 'nothing'}; expected ci.yml and publish.yml`,
);

for (const f of files) {
	const r = spawnSync(process.execPath, [CLI, path.join(DIR, f)], { encoding: 'utf8' });
	if (check(r.status === 0, `${f}: action-validator exit ${r.status}\n${r.stdout}${r.stderr}`))
		console.log(`[workflows] ${f}: valid (action-validator)`);
}

const ci = fs.readFileSync(path.join(DIR, 'ci.yml'), 'utf8');
check(
	/^on:\n(?:.*\n)*?\s+push:\n\s+branches:\n\s+- main\n\s+pull_request:/m.test(ci),
	'ci.yml: not triggered on push to main and on pull requests',
);
at(ci, 'run: npm test', 'ci.yml');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
check(/npm test\s+#/.test(readme), 'README.md no longer names `npm test` as the test command');

const pub = fs.readFileSync(path.join(DIR, 'publish.yml'), 'utf8');
check(
	/^on:\n\s+push:\n\s+tags:\n\s+- '\*\.\*\.\*'/m.test(pub),
	'publish.yml: not triggered by version tags',
);
at(pub, 'id-token: write', 'publish.yml');
const order = [
	'run: npm ci',
	'run: node scripts/release-check.js',
	'run: npm run lint',
	'run: npm run build',
	'run: npm run test:scan',
	'run: npm test',
	'run: npm publish --provenance --access public',
].map((s) => [s, at(pub, s, 'publish.yml')]);
for (let i = 1; i < order.length; i++)
	check(
		order[i - 1][1] < order[i][1],
		`publish.yml: "${order[i - 1][0]}" does not come before "${order[i][0]}"`,
	);
check(
	!/NPM_TOKEN|NODE_AUTH_TOKEN/.test(pub),
	'publish.yml uses a token: trusted publishing needs none',
);

// Every phase's prerequisites on the runner, in both workflows that run `npm test`.
const PREREQUISITES = [
	['Node.js', /uses: actions\/setup-node@v4\n\s+with:\n\s+node-version: (20|24)\n\s+cache: npm/],
	[
		'the n8n runtimes cache (Node 24, n8n 2.41 and 1.123, the registry)',
		/path: ~\/\.cache\/n8n-nodes-business-ops\n\s+key: n8n-runtimes-.*scripts\/n8n\/runtime\/package-lock\.json.*scripts\/n8n\/runtime-1\.123\/package-lock\.json.*scripts\/n8n\/registry\/package-lock\.json/,
	],
	["sqlite3's build tools", /run: python3 --version && make --version .*g\+\+ --version/],
	[
		'PostgreSQL and Redis (the runner is not root: scripts/queue/services.js cannot install them)',
		/sudo apt-get install -y -qq --no-install-recommends postgresql redis-server/,
	],
	[
		"the browser: the image's Google Chrome",
		/^ {4}env:\n {6}CHROMIUM_PATH: \/usr\/bin\/google-chrome$/m,
	],
	['the browser checked before the tests', /run: '"\$CHROMIUM_PATH" --version'/],
];
for (const [file, text] of [
	['ci.yml', ci],
	['publish.yml', pub],
]) {
	for (const [what, re] of PREREQUISITES) check(re.test(text), `${file}: does not name ${what}`);
	const testStep = text.indexOf('run: npm test');
	for (const step of [
		'run: python3 --version',
		'postgresql redis-server',
		'"$CHROMIUM_PATH" --version',
		'path: ~/.cache/n8n-nodes-business-ops',
	]) {
		const i = text.indexOf(step);
		check(i < 0 || i < testStep, `${file}: "${step}" comes after "run: npm test"`);
	}
}

if (failures.length) {
	for (const f of failures) console.log(`[workflows] FAILED: ${f}`);
	process.exit(1);
}
console.log(
	'[workflows] ci.yml runs `npm test` on push and pull request; publish.yml: tag → npm ci, lint, build, scan, tests → npm publish --provenance (id-token: write)',
);
console.log(
	`[workflows] both name, before \`npm test\`: ${PREREQUISITES.map(([what]) => what.replace(/ \(.*\)$/, '')).join('; ')}`,
);
