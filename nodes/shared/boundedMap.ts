/**
 * A Map bounded by weight (1 per entry, or `weigh`): past `max` the oldest written goes first. Set an
 * entry again after changing it, so that it is the newest and its new weight counts.
 */
export class BoundedMap<K, V> {
	private readonly entries = new Map<K, { value: V; weight: number }>();
	private total = 0;

	constructor(
		readonly max: number,
		private readonly weigh: (value: V) => number = () => 1,
	) {}

	get size(): number {
		return this.entries.size;
	}

	get(key: K): V | undefined {
		return this.entries.get(key)?.value;
	}

	has(key: K): boolean {
		return this.entries.has(key);
	}

	set(key: K, value: V): this {
		this.delete(key);
		const weight = this.weigh(value);
		this.entries.set(key, { value, weight });
		this.total += weight;
		for (const oldest of this.entries.keys()) {
			if (this.total <= this.max || oldest === key) break;
			this.delete(oldest);
		}
		return this;
	}

	delete(key: K): boolean {
		const entry = this.entries.get(key);
		if (entry) this.total -= entry.weight;
		return this.entries.delete(key);
	}
}
