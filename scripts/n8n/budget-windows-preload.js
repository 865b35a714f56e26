// Preloaded into every n8n the harness starts (NODE_OPTIONS=--require, see budgetWindows.js). The
// package reads no window setting (its budget runs on the API's minute, and n8n's community lint
// forbids `process`, so no environment variable can give one); this lets e2e steps and benchmarks
// run a new key's budget on a shorter window, the same limit scaled in time. When n8n loads the
// package's budget module, it makes the budget of each key in the file the harness writes (API key →
// window in ms) itself, on that window. Keys not in the file keep the API's minute.
'use strict';

const fs = require('node:fs');
const Module = require('node:module');

const file = process.env.BUSINESS_OPS_BUDGET_WINDOWS;
const load = Module._load;
const wrapped = new WeakSet();

function windowsNow() {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return {};
	}
}

Module._load = function loadWithBudgetWindows(...args) {
	const exports = load.apply(this, args);
	// Only the package's budget module (required as './rateBudget'); other modules' exports are not
	// touched (reading a module's exports mid-cycle makes Node warn).
	const request = args[0];
	if (!file || typeof request !== 'string' || !/(^|\/)rateBudget(\.js)?$/.test(request))
		return exports;
	if (
		exports &&
		typeof exports.budgetFor === 'function' &&
		typeof exports.budgetKeyOf === 'function' &&
		!wrapped.has(exports)
	) {
		wrapped.add(exports);
		const budgetFor = exports.budgetFor;
		const scaled = new Map();
		exports.budgetFor = (key, limit) => {
			const match = Object.entries(windowsNow()).find(
				([apiKey]) => exports.budgetKeyOf(apiKey) === key,
			);
			if (!match) return budgetFor(key, limit);
			const budget = scaled.get(key);
			if (budget) budget.useLimit(limit);
			else scaled.set(key, new exports.RateBudget(limit, match[1]));
			return scaled.get(key);
		};
	}
	return exports;
};
