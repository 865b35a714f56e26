/** Small seeded PRNG (mulberry32): the seed data must never depend on Math.random. */
export class Prng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	int(minInclusive: number, maxInclusive: number): number {
		return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
	}

	pick<T>(values: readonly T[]): T {
		return values[Math.floor(this.next() * values.length)];
	}

	digits(count: number): string {
		let out = '';
		for (let i = 0; i < count; i++) out += String(this.int(0, 9));
		return out;
	}
}

/** A `() => number` in [0, 1) from a seed, for tests that need reproducible randomness. */
export function seededRandom(seed: number): () => number {
	const prng = new Prng(seed);
	return () => prng.next();
}
