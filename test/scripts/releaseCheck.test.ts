// `node scripts/release-check.js` fails a release while the repository's address is still the
// placeholder the project started with, or while a link a user clicks in n8n (the credential's
// and the codex files' documentation links) names another repository than package.json.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'release-check.js');
const PLACEHOLDER = 'business-ops/n8n-nodes-business-ops';
const FILES = [
	'package.json',
	'credentials/BusinessOpsApi.credentials.ts',
	'nodes/BusinessOps/BusinessOps.node.json',
	'nodes/BusinessOpsTrigger/BusinessOpsTrigger.node.json',
	'nodes/BusinessOpsPollingTrigger/BusinessOpsPollingTrigger.node.json',
];

function check(root: string) {
	const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
	return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

/** A copy of the files the check reads, with the placeholder replaced in `replaced` of them. */
function copy(replaced: string[]): string {
	const dir = mkdtempSync(join(tmpdir(), 'bizops-release-check-'));
	for (const file of FILES) {
		cpSync(join(ROOT, file), join(dir, file), { recursive: true });
		if (replaced.includes(file)) {
			writeFileSync(
				join(dir, file),
				readFileSync(join(dir, file), 'utf8').replaceAll(
					PLACEHOLDER,
					'acme-gmbh/n8n-nodes-business-ops',
				),
			);
		}
	}
	return dir;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

test('fails while package.json names the placeholder repository', () => {
	const { code, output } = check(ROOT);
	expect(code).toBe(1);
	expect(output).toContain(`placeholder`);
	expect(output).toContain(`https://github.com/${PLACEHOLDER}`);
});

test('passes once every file names the real repository', () => {
	const dir = copy(FILES);
	dirs.push(dir);
	expect(check(dir)).toEqual({
		code: 0,
		output: expect.stringContaining('https://github.com/acme-gmbh/n8n-nodes-business-ops'),
	});
});

test('fails naming a file whose links still name another repository', () => {
	const dir = copy(FILES.filter((file) => !file.endsWith('BusinessOpsTrigger.node.json')));
	dirs.push(dir);
	const { code, output } = check(dir);
	expect(code).toBe(1);
	expect(output).toContain('nodes/BusinessOpsTrigger/BusinessOpsTrigger.node.json');
	expect(output).not.toContain('BusinessOpsPollingTrigger.node.json');
});
