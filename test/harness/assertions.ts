/**
 * Jest setup for every test file (jest.config.js `setupFilesAfterEnv`): a test that makes no
 * assertion fails. A test that reads a file or the environment and returns early when it is
 * missing (or loops over an empty list) would otherwise pass while checking nothing.
 */
import { realWaitsRefused } from './realWaits';

beforeEach(() => expect.hasAssertions());

/** A test of test/node that waited on the real clock fails (clock.ts says why), once. */
afterEach(() => {
	const waits = realWaitsRefused.splice(0);
	if (waits.length > 0) {
		throw new Error(
			`This test waited on the real clock (${waits.join(', ')} ms, skipped): turn on fastClock() or manualClock() (test/harness/clock.ts)`,
		);
	}
});
