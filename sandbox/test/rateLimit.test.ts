import { SlidingWindowRateLimiter } from '../src/rateLimit';

describe('refused requests and the window', () => {
	const burst = (limiter: SlidingWindowRateLimiter) => {
		for (let t = 0; t < 2; t++) expect(limiter.take('key', t).allowed).toBe(true);
		expect(limiter.take('key', 500).allowed).toBe(false); // refused at 500 ms
	};

	test('not counted (default): room again one window after the accepted ones', () => {
		const limiter = new SlidingWindowRateLimiter({ limit: 2, windowMs: 1000 });
		burst(limiter);
		expect(limiter.take('key', 1001).allowed).toBe(true);
	});

	test('counted: a refusal stays in the window and pushes the next room back', () => {
		const limiter = new SlidingWindowRateLimiter({ limit: 2, windowMs: 1000 });
		limiter.countRefused = true;
		burst(limiter);
		expect(limiter.take('key', 1001).allowed).toBe(true); // the t=0 request left
		const refused = limiter.take('key', 1002);
		expect(refused).toEqual({ allowed: false, limit: 2, retryAfterSeconds: 1 });
		expect(limiter.take('key', 1499).allowed).toBe(false); // the refusals at 500 and 1002 still count
	});
});
