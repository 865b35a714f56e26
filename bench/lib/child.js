// Runs one of bench/'s scripts in a process of its own, on n8n's Node, and returns the JSON of
// its last output line.
'use strict';

const path = require('node:path');
const { spawn } = require('node:child_process');

function runBenchScript(ctx, script, env, timeoutMs = 120_000) {
	return new Promise((resolve, reject) => {
		const child = spawn(ctx.runtime.nodeBin, [path.join(__dirname, '..', script)], {
			env: { ...process.env, ...env, NODE_OPTIONS: '' },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let out = '';
		let err = '';
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (err += d));
		child.on('error', reject);
		child.on('exit', (code) => {
			clearTimeout(timer);
			if (code !== 0) return reject(new Error(`${script} exited ${code}: ${err.slice(-500)}`));
			resolve(JSON.parse(out.trim().split('\n').pop()));
		});
	});
}

module.exports = { runBenchScript };
