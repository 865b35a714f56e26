/**
 * Jest setup for every test file (jest.config.js `setupFiles`): the package's API client runs on
 * the harness's clock (test/harness/clock.ts), real time unless a test turns another one on.
 */
jest.mock('../../nodes/shared/api/clock', () => {
	const actual = jest.requireActual('../../nodes/shared/api/clock');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { harnessClock } = require('./clock');
	return { ...actual, systemClock: harnessClock };
});
