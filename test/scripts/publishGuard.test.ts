// A manual `npm publish` from a checkout is refused before anything is uploaded: package.json's
// publishConfig asks for provenance, which npm can only sign in a CI system (publish.yml on
// GitHub Actions). The deliberate first publish by hand (docs/publishing.md) says
// `--provenance=false` and goes through. A local registry stub records what reaches it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

let server: Server;
let registry: string;
let home: string;
const received: string[] = [];

beforeAll(async () => {
	home = mkdtempSync(join(tmpdir(), 'bizops-publish-guard-'));
	server = createServer((req: IncomingMessage, res) => {
		received.push(`${req.method} ${req.url}`);
		req.resume();
		req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{}'));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('no port');
	registry = `http://127.0.0.1:${address.port}/`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
	rmSync(home, { recursive: true, force: true });
});

/** `npm publish` in the checkout as on a maintainer's machine: no CI variables, a token for the stub. */
function publish(...args: string[]): Promise<{ code: number | null; output: string }> {
	const env = { PATH: process.env.PATH ?? '', HOME: home, npm_config_update_notifier: 'false' };
	const auth = `--${registry.replace(/^http:/, '')}:_authToken=test-token`;
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['publish', `--registry=${registry}`, auth, ...args], {
			cwd: ROOT,
			env,
		});
		let output = '';
		child.stdout.on('data', (d) => (output += d));
		child.stderr.on('data', (d) => (output += d));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, output }));
	});
}

describe('npm publish outside CI', () => {
	it('is refused for want of provenance, and nothing is uploaded (npm only reads the package metadata)', async () => {
		const { code, output } = await publish();
		expect(output).toContain('Automatic provenance generation not supported for provider: null');
		expect(code).not.toBe(0);
		expect(received.filter((r) => !r.startsWith('GET '))).toEqual([]);
	}, 60_000);

	it('goes through with --provenance=false (the deliberate first publish by hand)', async () => {
		const { code, output } = await publish('--provenance=false');
		expect({ code, output }).toMatchObject({ code: 0 });
		expect(received).toContainEqual(expect.stringMatching(/^PUT \/n8n-nodes-business-ops$/));
	}, 60_000);
});
