/**
 * The waits a test of test/node asked for on the real clock (clock.ts skips them); assertions.ts
 * fails the test. A module of its own, without imports, so that every test file's setup stays
 * light (test files that never touch the API client do not load it).
 */
export const realWaitsRefused: number[] = [];
