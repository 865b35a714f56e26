// The e2e step modules of the single-process runs (scripts/e2e.js, n8n 2.x and 1.123), in the
// order they run. Each module exports
//   { area: string, steps: [{ name: string, run: async (ctx) => string | void, timeoutMs?: number, template?: string }] }
// (`template`: the file of templates/ the step imports and runs; test/templates checks every one has a step)
// and may export `before(ctx)` (runs once before its steps, not counted). A step passes when
// `run` resolves (its string is printed after "ok"), fails when it throws. `ctx` is described in
// test/e2e/README.md. To add an area: write test/e2e/<area>.js and list it here (before `lifecycle`,
// which updates and uninstalls the package).
'use strict';

module.exports = [
	require('./startup'),
	require('./install'),
	require('./credentials'),
	require('./contacts'),
	require('./organization'),
	require('./quotes'),
	require('./invoices'),
	require('./agents'),
	require('./requests'),
	require('./webhooks'),
	require('./trigger'),
	require('./trigger-lifecycle'),
	require('./polling'),
	require('./polling-durable'),
	require('./instances'),
	require('./demo'),
	require('./templates'),
	require('./catchup'),
	require('./writes'),
	require('./custom-api'),
	require('./engine'),
	require('./engine-budget'),
	require('./ai'),
	require('./mcp'),
	require('./hostile'),
	require('./integrity'),
	require('./lifecycle'),
];
