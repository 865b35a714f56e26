/**
 * Jest setup for every test file (jest.config.js `setupFilesAfterEnv`): a test that makes no
 * assertion fails. A test that reads a file or the environment and returns early when it is
 * missing (or loops over an empty list) would otherwise pass while checking nothing.
 */
beforeEach(() => expect.hasAssertions());
