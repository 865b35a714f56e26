/**
 * Jest setup for every test file (jest.config.js `setupFilesAfterEnv`):
 * - no test reaches the network except this machine's own servers (the sandbox, real n8n), and
 *   interceptors never leak from one test into the next;
 * - each test starts with fresh rate budgets on the fast clock (clock.ts; a test that wants the
 *   real or the manual clock turns it on in its own `beforeEach`);
 * - a test that ends while a request of its node run is on their way fails (inFlight.ts);
 * - under `npm run test:unit` a suite that loads n8n-core fails (test/harness/suites.js sorts them).
 */
import nock from 'nock';

import { fastClock, forgetRateBudgets } from './clock';
import { settleRequests } from './inFlight';

const LOOPBACK = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

if (process.env.SUITES === 'unit')
	jest.mock('n8n-core', () => {
		throw new Error('This suite loads n8n-core: test/harness/suites.js must put it in test:engine');
	});

beforeAll(() => {
	nock.disableNetConnect();
	nock.enableNetConnect(LOOPBACK);
});
beforeEach(() => {
	forgetRateBudgets();
	fastClock();
});
afterEach(async () => {
	const left = await settleRequests();
	nock.cleanAll();
	if (left > 0)
		throw new Error(
			`This test ended while ${left} request(s) of its node run were on their way: await the run (runRoutingNode in test/harness/engine.ts)`,
		);
});
afterAll(() => nock.enableNetConnect());
