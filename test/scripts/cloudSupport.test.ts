// docs/publishing.md says n8n's node tool finds this package eligible for n8n Cloud verification:
// strict mode on and n8n's default eslint.config.mjs, which `n8n-node lint` (npm run lint) then
// holds the shipped code to. This asks the tool itself.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

it("n8n-node cloud-support: eligible (strict mode, n8n's default ESLint config)", () => {
	const bin = join(ROOT, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');
	const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
	delete env.FORCE_COLOR;
	const res = spawnSync(process.execPath, [bin, 'cloud-support'], {
		cwd: ROOT,
		encoding: 'utf8',
		env,
	});
	const output = `${res.stdout}${res.stderr}`;
	expect(output).toContain('Strict mode: enabled');
	expect(output).toContain('ESLint config: using default config');
	expect(output).toContain('Status: eligible for n8n Cloud verification');
	expect(output).not.toContain('NOT eligible');
}, 60_000);
