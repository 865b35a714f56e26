// The polling trigger under n8n 2.41's durable poll cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED,
// which n8n only honours with N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED and
// N8N_USE_WORKFLOW_PUBLICATION_SERVICE; see docs/polling.md): a second n8n with them on, polls on
// the durable scheduler's minute. n8n keeps no state from the poll it runs at publishing, so the
// first scheduled poll is the baseline; from then on every change is emitted once, across a
// restart. Off is the default every other step runs with (area `polling`).
'use strict';

const { helpers } = require('./polling');

const DURABLE = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};
const QUOTES = ['/v1/quotes'];
const TICK_MS = 150_000;

module.exports = {
	area: 'pollingDurable',
	async before(ctx) {
		if (!ctx.state.polling) await helpers.setUpPolling(ctx);
	},
	steps: [
		{
			name: 'durable poll cursors on (n8n 2.41): the first scheduled poll takes the baseline; then each change emitted once, across a restart',
			timeoutMs: 900_000,
			async run(ctx) {
				if (ctx.client.major < 2) return 'n8n 1.x has no durable poll cursors';
				const other = await ctx.startInstance({ name: 'durable poll cursors', env: DURABLE });
				try {
					const on = other.client;
					const credential = await helpers.pollingCredential(ctx, on);
					const wf = await helpers.newPollingWorkflow(
						ctx,
						'e2e polling: durable cursors',
						['quote.created'],
						{ client: on, credential },
					);
					let since = Date.now();
					await on.publishWorkflow(wf.id);
					await helpers.pollDone(ctx, since, QUOTES, 120_000); // the poll at publishing
					const idle = Date.now();
					const early = await helpers.createQuote(ctx);
					since = Date.now();
					// the scheduler's minute may fall between the poll at publishing and `early`: a
					// scheduled poll that read the list before `early` took the baseline, and `early` is a change
					const baselineBefore = helpers
						.listReads(ctx, idle)
						.some((read) => read.path === QUOTES[0] && Date.parse(read.time) < since);
					await helpers.pollDone(ctx, since, QUOTES, TICK_MS); // the first scheduled poll
					const later = await helpers.createQuote(ctx);
					since = Date.now();
					await helpers.pollDone(ctx, since, QUOTES, TICK_MS);
					// n8n 2.41 commits no cursor for the poll it runs at publishing (only for scheduled
					// polls), so the first scheduled poll takes the baseline: `early` is not an event
					const first = [`quote.created ${later}`];
					if (baselineBefore) first.unshift(`quote.created ${early}`);
					const seen = await helpers.expectEmitted(ctx, wf.id, [], first, on);
					await other.n8n.stop();
					const whileDown = await helpers.createQuote(ctx);
					since = Date.now();
					await other.n8n.restart();
					await helpers.pollDone(ctx, since, QUOTES, TICK_MS + 60_000);
					const after = await helpers.expectEmitted(
						ctx,
						wf.id,
						seen,
						[`quote.created ${whileDown}`],
						on,
					);
					since = Date.now();
					await helpers.pollDone(ctx, since, QUOTES, TICK_MS);
					await helpers.expectEmitted(ctx, wf.id, after, [], on);
					await on.unpublishWorkflow(wf.id);
					return `${baselineBefore ? 'the scheduled minute came right after the poll at publishing, so the quote created next was a change' : 'a quote created before the first scheduled poll: not emitted (n8n kept no state from the poll at publishing)'}; ${after.length} later changes, each once`;
				} finally {
					await other.dispose();
				}
			},
		},
	],
};
