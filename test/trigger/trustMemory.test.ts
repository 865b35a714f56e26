/**
 * The trust memory (trust.ts): bounded by weight (an entry, plus one per repeat id), a refusal
 * does not make an entry the most recently used, and a new subscription record starts anew.
 * The memory's bound is scaled down here (1,000,000 to 350) so that filling it is quick.
 */
import type { IDataObject } from 'n8n-workflow';

/** The trust memory, scaled down. */
const mockMemory: Array<{ weight: number }> = [];
jest.mock('../../nodes/shared/boundedMap', () =>
	jest
		.requireActual<typeof import('./scaledMemory')>('./scaledMemory')
		.scaledDownBoundedMap(350, mockMemory),
);

import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import { TEST_API_KEY, type FakeDelivery } from '../harness/engine';
import { atFixedTime, standardHeaders } from './helpers';
import { ownWorkflowWithWhk1, outcome, SIGNING as SECRET, EVENTS } from './liveSubscription';

const NEW_SECRET = 'whsec_bmV3LXNlY3JldC1vZi10aGUtcmVwdWJsaXNoZWQtb25l';
const NOW = 1_700_000_000;
atFixedTime(NOW);

const record = (id: string, secret: string): IDataObject => ({
	id,
	url: 'https://n8n.example.test/webhook/webhook-uuid/webhook',
	events: EVENTS,
	sealedSecret: sealSecret(secret, TEST_API_KEY, id),
});

const node = () => ownWorkflowWithWhk1({ ignoreRepeatedDeliveries: true });

const delivery = (id: string, secret = SECRET): FakeDelivery => {
	const body = JSON.stringify({ id, type: 'invoice.paid', data: { id: 'inv_1' } });
	return { headers: standardHeaders(secret, id, NOW, body), rawBody: Buffer.from(body) };
};
const forged = (id: string): FakeDelivery => ({
	...delivery(id),
	headers: {
		...delivery(id).headers,
		'webhook-signature': `v1,${Buffer.alloc(32, 9).toString('base64')}`,
	},
});

const rememberedWeight = () => mockMemory[0].weight;

test('the memory (one, of weight 1,000,000) starts empty', () => {
	expect(mockMemory).toHaveLength(1);
	expect(rememberedWeight()).toBe(0);
});

test('each repeat id weighs: a trigger that keeps many ids is forgotten first when the memory is full', async () => {
	const many = node();
	for (let i = 0; i < 150; i++) expect(await outcome(many, delivery(`evt_${i}`))).toBe('started');
	// 100 for the entry and 150 for its ids
	expect(rememberedWeight()).toBe(250);
	const other = node();
	expect(await outcome(other, delivery('evt_other'))).toBe('started');
	// 250 + 101 is over the bound: the older entry, ids and all, is forgotten
	expect(rememberedWeight()).toBe(101);
	expect(await outcome(other, delivery('evt_other'))).toBe('repeat');
	expect(await outcome(many, delivery('evt_0'))).toBe('started');
});

test('a refusal does not make its trigger the most recently used', async () => {
	const [a, b, c, d] = [node(), node(), node(), node()];
	for (const testNode of [a, b]) expect(await outcome(testNode, delivery('evt_1'))).toBe('started');
	expect(await outcome(a, forged('evt_2'))).toBe(401);
	// c and d push one entry out, the least recently used: a, whose refusal did not refresh it
	for (const testNode of [c, d]) expect(await outcome(testNode, delivery('evt_1'))).toBe('started');
	expect(await outcome(b, delivery('evt_1'))).toBe('repeat');
	expect(await outcome(a, delivery('evt_1'))).toBe('started');
});

test("a new subscription record (published again, a new secret) starts the trigger's memory anew", async () => {
	const testNode = node();
	expect(await outcome(testNode, delivery('evt_1'))).toBe('started');
	const staticData = testNode.workflow.getStaticData('node', testNode.node);
	staticData.subscriptions = { production: record('whk_2', NEW_SECRET) };
	// the secret opened for the old record is not used for the new one, nor are its ids
	expect(await outcome(testNode, delivery('evt_1', NEW_SECRET))).toBe('started');
	expect(await outcome(testNode, delivery('evt_2', SECRET))).toBe(401);
});
