#!/usr/bin/env node
// Installs the dev dependencies when node_modules is missing or older than package-lock.json,
// so `npm test` and `npm run demo` each work on a fresh clone. Standard library only: it runs
// before anything is installed.
'use strict';
const { createHash } = require('node:crypto');
const { execSync } = require('node:child_process');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stampFile = join(root, 'node_modules', '.install-stamp');
const lockHash = () =>
	createHash('sha256')
		.update(readFileSync(join(root, 'package-lock.json')))
		.digest('hex');

/** Whether node_modules matches package-lock.json (as its stamp says). */
function devDependenciesInstalled() {
	return existsSync(stampFile) && readFileSync(stampFile, 'utf8') === lockHash();
}

function ensureDevDependencies() {
	if (devDependenciesInstalled()) return;
	console.log('Installing dependencies (npm ci)…');
	execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
	writeFileSync(stampFile, lockHash());
}

module.exports = { ensureDevDependencies, devDependenciesInstalled };

if (require.main === module) ensureDevDependencies();
