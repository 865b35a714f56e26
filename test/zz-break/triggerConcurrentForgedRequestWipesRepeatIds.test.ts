/**
 * Breaker (trust path rewrite): "an unauthenticated request changes nothing stored, learned or
 * trusted, and cannot make a later genuine delivery fail or a repeat run again" and "Ignore
 * Repeated Deliveries must ignore the API's own retries of an accepted message".
 *
 * trustDelivery reads the trigger's memory entry, then awaits the credential (openStoredSecret:
 * in n8n a database read), and at the end writes back the entry object it read or made. When the
 * process holds no entry yet (after a restart, on a fresh queue-mode webhook process, after an
 * eviction), every request in flight makes its own new entry. A stranger's forged request that
 * arrives together with the API's genuine delivery and whose credential read finishes last
 * (a slower database read) writes its empty entry over the one the genuine delivery just filled:
 * the accepted delivery id, the opened secret and the learned form are gone. The API's retry of the
 * accepted message (same webhook-id, fresh signature) then runs the workflow a second time.
 * The same happens between two genuine deliveries of the API that arrive together.
 * Expected: the retry is ignored as a repeat, whatever other requests were in flight.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import {
	createTriggerNode,
	runWebhook,
	TEST_API_KEY,
	type FakeDelivery,
	type TestNode,
} from '../harness/engine';
import { atFixedTime, standardHeaders } from '../trigger/helpers';
import { SIGNING, trigger, WEBHOOK_URL } from './liveSubscription';

const NOW = 1_700_000_000;
atFixedTime(NOW);

const raw = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: {} });
const genuine = (id: string, at: number): FakeDelivery => ({
	headers: standardHeaders(SIGNING, id, at, raw),
	rawBody: Buffer.from(raw),
});
const ignored = (id: string) => ({
	webhookResponse: { received: true, ignored: `repeated delivery: ${id}` },
});

let workflows = 0;

/** Two handles on one trigger (same workflow, node and stored record), as two requests see it; the second's credential read waits for `gate`. */
function oneTriggerTwice(scheme: string): { fast: TestNode; slow: TestNode; open: () => void } {
	const record: IDataObject = {
		'node:Business Ops Trigger': {
			subscriptions: {
				production: {
					id: 'whk_1',
					url: WEBHOOK_URL,
					events: ['invoice.paid'],
					sealedSecret: sealSecret(SIGNING, TEST_API_KEY, 'whk_1'),
				},
			},
		},
	};
	const id = `workflow-race-${++workflows}`;
	const make = () => {
		const testNode = createTriggerNode(
			trigger,
			{
				events: ['invoice.paid'],
				options: { signatureScheme: scheme, ignoreRepeatedDeliveries: true } as INodeParameters,
			},
			{ staticData: structuredClone(record) },
		);
		testNode.workflow.id = id;
		return testNode;
	};
	const fast = make();
	const slow = make();
	let open = () => undefined as void;
	const gate = new Promise<void>((resolve) => (open = resolve));
	const helper = slow.additionalData.credentialsHelper as unknown as {
		getDecrypted: (...args: unknown[]) => Promise<unknown>;
	};
	const read = helper.getDecrypted.bind(helper);
	helper.getDecrypted = async (...args: unknown[]) => {
		await gate;
		return await read(...args);
	};
	return { fast, slow, open };
}

test.each(['standardWebhooks', 'auto'])(
	'%s: a forged request in flight with the genuine delivery does not make its retry run again',
	async (scheme) => {
		const { fast, slow, open } = oneTriggerTwice(scheme);
		const forged = {
			headers: {
				...standardHeaders(SIGNING, 'msg_1', NOW, raw),
				'webhook-signature': `v1,${Buffer.alloc(32, 9).toString('base64')}`,
			},
			rawBody: Buffer.from(raw),
		};
		const stranger = runWebhook(trigger, slow, forged);
		expect(
			(await runWebhook(trigger, fast, genuine('msg_1', NOW))).result.workflowData,
		).toHaveLength(1);
		open();
		expect((await stranger).status).toBe(401);
		// the API retries msg_1 a minute later, signed anew
		// fails today: the retry runs the workflow again
		expect((await runWebhook(trigger, fast, genuine('msg_1', NOW + 60))).result).toEqual(
			ignored('msg_1'),
		);
	},
);

test('two genuine deliveries arriving together: the retry of the first is still ignored', async () => {
	const { fast, slow, open } = oneTriggerTwice('standardWebhooks');
	const second = runWebhook(trigger, slow, genuine('msg_2', NOW));
	expect((await runWebhook(trigger, fast, genuine('msg_1', NOW))).result.workflowData).toHaveLength(
		1,
	);
	open();
	expect((await second).result.workflowData).toHaveLength(1);
	// fails today: the retry of msg_1 runs the workflow again
	expect((await runWebhook(trigger, fast, genuine('msg_1', NOW + 60))).result).toEqual(
		ignored('msg_1'),
	);
});
