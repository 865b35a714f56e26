/**
 * Breaker (trust memory rebuild): docs/signatures.md: "A refused request changes nothing stored and
 * nothing trusted" and "A forged request writes only the time of its log line (creating the
 * trigger's entry if it had none, without making it the most recently used)".
 *
 * A forged request to a trigger that has no entry yet (any trigger after a restart, or one the
 * memory forgot) creates its entry with BoundedMap.set: the entry weighs 100 like a genuine one
 * and is written as the NEWEST. So forged requests alone push the least recently used genuine
 * trigger out of the memory, with its repeat ids, and a captured genuine delivery of that trigger
 * then runs its workflow again; and an entry made by a forged request outlives genuine ones
 * written before it. (The bound is scaled down as in test/trigger/trustMemory.test.ts.)
 * The same eviction forgets Auto's learned form: a later genuine delivery over 1 MiB (which Auto
 * checks only once it has learned the form) is then refused.
 * Expected: requests whose signature did not verify never make the memory forget what a genuine
 * delivery taught it; an entry created by a refusal goes before those of accepted deliveries.
 */
jest.mock('../../nodes/shared/boundedMap', () =>
	jest.requireActual<typeof import('./scaledMemory')>('./scaledMemory').scaledDownBoundedMap(350),
);

import type { FakeDelivery } from '../harness/engine';
import { atFixedTime, githubSignature, standardHeaders } from './helpers';
import { outcome, ownWorkflowWithWhk1 } from './liveSubscription';

const SECRET = 'a-github-style-signing-key-of-32-bytes';
const NOW = 1_700_000_000;
atFixedTime(NOW);

const node = () =>
	ownWorkflowWithWhk1({ signatureScheme: 'github', ignoreRepeatedDeliveries: true }, SECRET);

const raw = JSON.stringify({ id: 'evt_paid_once', type: 'invoice.paid', data: { amount: 100 } });
const genuine: FakeDelivery = {
	headers: { 'x-hub-signature-256': githubSignature(SECRET, raw) },
	rawBody: Buffer.from(raw),
};
const forged: FakeDelivery = {
	headers: { 'x-hub-signature-256': `sha256=${'ab'.repeat(32)}` },
	rawBody: Buffer.from(raw),
};

test('forged requests to other triggers do not make a trigger forget the ids it accepted', async () => {
	const [signed, other] = [node(), node()];
	expect(await outcome(signed, genuine)).toBe('started');
	expect(await outcome(other, genuine)).toBe('started');
	// a stranger posts junk to two more triggers' URLs; nothing verifies
	for (const target of [node(), node()]) expect(await outcome(target, forged)).toBe(401);
	// fails today: 'started', the captured genuine delivery runs the workflow again
	expect(await outcome(signed, genuine)).toBe('repeat');
});

test('an entry created by a refusal is not kept before entries of accepted deliveries', async () => {
	const [signed, junked, b, c] = [node(), node(), node(), node()];
	expect(await outcome(signed, genuine)).toBe('started');
	expect(await outcome(junked, forged)).toBe(401);
	// two genuine triggers go past the bound: the least recently used goes, which is not `signed`
	// when the refused trigger's entry is "not the most recently used"
	for (const testNode of [b, c]) expect(await outcome(testNode, genuine)).toBe('started');
	// fails today: 'started'
	expect(await outcome(signed, genuine)).toBe('repeat');
});

test("forged requests to other triggers do not make Auto forget a trigger's learned form", async () => {
	const WHSEC = 'whsec_cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhlLXRyaWdnZXI=';
	const auto = ownWorkflowWithWhk1({}, WHSEC);
	const small = JSON.stringify({ id: 'evt_small', type: 'invoice.paid' });
	expect(
		await outcome(auto, {
			headers: standardHeaders(WHSEC, 'msg_1', NOW, small),
			rawBody: Buffer.from(small),
		}),
	).toBe('started');
	expect(await outcome(node(), genuine)).toBe('started');
	for (const target of [node(), node()]) expect(await outcome(target, forged)).toBe(401);
	const large = JSON.stringify({
		id: 'evt_large',
		type: 'invoice.paid',
		data: 'x'.repeat(1536 * 1024),
	});
	// fails today: 401 "Auto has not yet seen a verified delivery ... does not search a body over 1048576 bytes"
	expect(
		await outcome(auto, {
			headers: standardHeaders(WHSEC, 'msg_2', NOW, large),
			rawBody: Buffer.from(large),
		}),
	).toBe('started');
});
