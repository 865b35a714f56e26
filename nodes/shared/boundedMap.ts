/**
 * A Map with a size bound, for every store an n8n process keeps in memory: past `max` entries
 * the oldest written goes first. Setting a key again makes it the newest.
 */
export class BoundedMap<K, V> {
	private readonly entries = new Map<K, V>();

	constructor(readonly max: number) {}

	get size(): number {
		return this.entries.size;
	}

	get(key: K): V | undefined {
		return this.entries.get(key);
	}

	has(key: K): boolean {
		return this.entries.has(key);
	}

	set(key: K, value: V): this {
		this.entries.delete(key);
		this.entries.set(key, value);
		for (const oldest of this.entries.keys()) {
			if (this.entries.size <= this.max) break;
			this.entries.delete(oldest);
		}
		return this;
	}

	values(): IterableIterator<V> {
		return this.entries.values();
	}

	delete(key: K): boolean {
		return this.entries.delete(key);
	}
}
