/**
 * For `jest.mock('../../nodes/shared/boundedMap', ...)`: BoundedMap with the trust memory's bound
 * (1,000,000) scaled down to `bound`, so that filling it is quick; each memory so made is pushed
 * to `made`, with the weight BoundedMap keeps to itself.
 */
export function scaledDownBoundedMap(bound: number, made: Array<{ weight: number }> = []) {
	const actual = jest.requireActual<typeof import('../../nodes/shared/boundedMap')>(
		'../../nodes/shared/boundedMap',
	);
	class ScaledDown<K, V> extends actual.BoundedMap<K, V> {
		constructor(max: number, weigh?: (value: V) => number) {
			super(max === 1_000_000 ? bound : max, weigh);
			if (max === 1_000_000) made.push(this);
		}

		get weight(): number {
			return (this as unknown as { total: number }).total;
		}
	}
	return { BoundedMap: ScaledDown };
}
