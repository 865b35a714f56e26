// Scaled rate windows for the harness's n8n processes (see budget-windows-preload.js): the file of
// this harness process, the environment that loads the preload into n8n, and `useBudgetWindow`.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const FILE = path.join(os.tmpdir(), `business-ops-budget-windows-${process.pid}.json`);
const PRELOAD = path.join(__dirname, 'budget-windows-preload.js');

/** What every n8n started by this process gets in its environment. */
function budgetWindowsEnv() {
	return { NODE_OPTIONS: `--require ${PRELOAD}`, BUSINESS_OPS_BUDGET_WINDOWS: FILE };
}

/**
 * The budget of `apiKey` in every n8n of this harness runs on `windowMs` instead of the API's
 * minute. Only a key n8n has not used yet: a budget keeps the window it was made with.
 */
function useBudgetWindow(apiKey, windowMs) {
	let windows = {};
	try {
		windows = JSON.parse(fs.readFileSync(FILE, 'utf8'));
	} catch {
		// first entry
	}
	windows[apiKey] = windowMs;
	fs.writeFileSync(FILE, JSON.stringify(windows));
}

process.on('exit', () => fs.rmSync(FILE, { force: true }));

module.exports = { budgetWindowsEnv, useBudgetWindow };
