import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { isGuarded } from '../../nodes/BusinessOps/shared/stopOnError';

/** Every preSend step in the node's properties, at any depth (operation options, collections). */
function preSendSteps(value: unknown, found: unknown[] = []): unknown[] {
	if (!value || typeof value !== 'object') return found;
	if (Array.isArray(value)) {
		value.forEach((v) => preSendSteps(v, found));
		return found;
	}
	const record = value as Record<string, unknown>;
	const steps = (record.routing as { send?: { preSend?: unknown[] } } | undefined)?.send?.preSend;
	if (steps) found.push(...steps);
	for (const [key, child] of Object.entries(record)) if (key !== 'routing') preSendSteps(child, found);
	return found;
}

test('every input check of the node reports a failed item to the write order', () => {
	const steps = preSendSteps(new BusinessOps().description.properties);
	expect(steps.length).toBeGreaterThan(10);
	expect(steps.filter((step) => !isGuarded(step))).toEqual([]);
});
