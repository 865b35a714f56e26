import { MAX_RETRY_AFTER_MS, RateBudget, timing } from '../../nodes/shared/api/rateBudget';

let now: number;
const realTiming = { ...timing };
beforeEach(() => {
	now = 0;
	timing.now = () => now;
	timing.sleep = async (ms: number) => {
		now += ms;
	};
});
afterEach(() => Object.assign(timing, realTiming));

test('a turn never waits for another request to be answered', async () => {
	const budget = new RateBudget({ limit: 3, windowMs: 1000 });
	await budget.take(); // never answered: its exchange is still going on
	await budget.take();
	expect(now).toBe(0);
});

test('a slot counts from its answer: a slow answer delays the next window, never shortens it', async () => {
	const budget = new RateBudget({ limit: 1, windowMs: 1000 });
	const slot = await budget.take();
	now = 300;
	slot.answered();
	await budget.take();
	expect(now).toBe(1300);
});

test('turns are taken in the order they were asked', async () => {
	const budget = new RateBudget({ limit: 1, windowMs: 1000 });
	const order: number[] = [];
	await Promise.all([1, 2, 3].map(async (n) => budget.take().then(() => order.push(n))));
	expect(order).toEqual([1, 2, 3]);
	expect(now).toBe(2000);
});

test('a refusal pauses everyone for Retry-After (capped) and halves the share for a window', async () => {
	const budget = new RateBudget({ limit: 4, windowMs: 1000 });
	budget.refused(2000);
	expect(budget.waitMs()).toBe(2000);
	now = 2000;
	(await budget.take()).answered();
	(await budget.take()).answered();
	expect(budget.waitMs()).toBe(1000); // half of 4 while shared
	now = 3000 + 1;
	expect(budget.waitMs()).toBe(0);
	budget.refused(10 * MAX_RETRY_AFTER_MS);
	expect(budget.waitMs()).toBe(MAX_RETRY_AFTER_MS);
});

test('after a refusal, one request at a time until a window passes without one', async () => {
	const budget = new RateBudget({ limit: 10, windowMs: 1000 });
	budget.refused(0);
	const first = await budget.take();
	let secondSent = false;
	const second = budget.take().then((slot) => ((secondSent = true), slot));
	await new Promise((r) => setImmediate(r));
	expect(secondSent).toBe(false);
	first.answered();
	(await second).answered();
	expect(secondSent).toBe(true);
	now = 1001;
	await budget.take();
	await budget.take(); // the window passed: no longer one at a time
});
