// The e2e step modules, in the order they run. Each module exports
//   { area: string, steps: [{ name: string, run: async (ctx) => string | void, timeoutMs?: number }] }
// and may export `before(ctx)` (runs once before its steps, not counted). A step passes when
// `run` resolves (its string is printed after "ok"), fails when it throws. `ctx` is described in
// scripts/e2e.js. To add an area: write test/e2e/<area>.js and list it here.
'use strict';

module.exports = [
	require('./startup'),
	require('./credentials'),
	require('./contacts'),
	require('./organization'),
	require('./quotes'),
	require('./invoices'),
	require('./agents'),
	require('./requests'),
	require('./webhooks'),
	require('./trigger'),
	require('./instances'),
	require('./demo'),
	require('./writes'),
];
