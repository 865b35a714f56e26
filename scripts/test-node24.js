#!/usr/bin/env node
// Runs the build, the lint and the unit and engine tests on Node 24 (the Node.js n8n 2.x runs
// on), with the Node 24 of the cached n8n runtime, so the README's commands are proven on both.
'use strict';
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const { ensureRuntime, node24Env } = require('./n8n/install');

const { nodeHome } = ensureRuntime();
const env = node24Env(nodeHome);
const root = join(__dirname, '..');
const version = execFileSync(join(nodeHome, 'bin', 'node'), ['--version'], { env })
	.toString()
	.trim();
console.log(`[node24] running build, lint, unit and engine tests on Node ${version}`);
for (const script of ['build', 'lint', 'test:unit', 'test:engine']) {
	execFileSync('npm', ['run', '--silent', script], { cwd: root, env, stdio: 'inherit' });
}
