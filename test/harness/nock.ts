/**
 * Jest setup for every test file (jest.config.js `setupFilesAfterEnv`): no test reaches the
 * network except this machine's own servers (the sandbox, real n8n), and interceptors never
 * leak from one test into the next.
 */
import nock from 'nock';

const LOOPBACK = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

beforeAll(() => {
	nock.disableNetConnect();
	nock.enableNetConnect(LOOPBACK);
});
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());
