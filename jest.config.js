/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/sandbox'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/harness/apiClock.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/harness/setup.ts', '<rootDir>/test/harness/assertions.ts'],
	testTimeout: 30000,
	// A worker's heap grows over the suites it runs (n8n-core's engine per test file); one that
	// passed 1 GB is replaced between files instead of running out of memory (seen at 4 GB).
	workerIdleMemoryLimit: '1GB',
};
