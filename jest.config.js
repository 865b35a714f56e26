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
	setupFilesAfterEnv: ['<rootDir>/test/harness/nock.ts', '<rootDir>/test/harness/assertions.ts'],
	testTimeout: 30000,
};
