/**
 * What the trigger regression tests share: the trigger, its API and webhook URL, a clock and captured
 * log lines reset after each test, and for the tests of a published trigger's live subscription:
 * subscription whk_1 stored as a publication left it, an API whose GET /webhooks/whk_1 answers as
 * each test says, and the ids that publishing then deleted.
 */
import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { BusinessOpsTrigger } from '../../nodes/BusinessOpsTrigger/BusinessOpsTrigger.node';
import { sealSecret } from '../../nodes/BusinessOpsTrigger/secretBox';
import { fastClock, forgetRateBudgets, realClock } from '../harness/clock';
import type { FakeDelivery, TestNode } from '../harness/engine';
import { activateTrigger, createTriggerNode, runWebhook, TEST_API_KEY } from '../harness/engine';
import { captureLogs } from './helpers';

export const trigger = new BusinessOpsTrigger();
export const API = 'https://api.business-ops.test';
export const WEBHOOK_URL = 'https://n8n.example.test/webhook/webhook-uuid/webhook';
export const EVENTS = ['invoice.paid'];
export const SIGNING = 'whsec_cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhlLXRyaWdnZXI=';
const NEW_SIGNING = 'whsec_bmV3LXNpZ25pbmctc2VjcmV0LW9mLXRoZS10cmlnZ2Vy';

/** whk_1 as GET /webhooks lists it. */
const LISTED_WHK_1: IDataObject = { id: 'whk_1', url: WEBHOOK_URL, events: EVENTS, active: true };

/**
 * Captured log lines for every test of the file, on the real clock unless the test turns on
 * another (setup.ts starts each test on the fast one); after each: the real clock, no rate
 * budgets, no logs captured, no API answers.
 */
export function useLogs(): () => ReturnType<typeof captureLogs> {
	return useClockAndLogs(realClock);
}

/** A fast clock and captured log lines for every test of the file; all reset after each. */
export function useFastClockAndLogs(): () => ReturnType<typeof captureLogs> {
	return useClockAndLogs(fastClock);
}

function useClockAndLogs(clock: () => unknown): () => ReturnType<typeof captureLogs> {
	let logs: ReturnType<typeof captureLogs>;
	beforeEach(() => {
		clock();
		logs = captureLogs();
	});
	afterEach(() => {
		realClock();
		forgetRateBudgets();
		logs.restore();
		nock.cleanAll();
	});
	return () => logs;
}

/** The trigger node (`parameters`) with whk_1 to `storedEvents`, signed by `secret`, stored in its static data. */
export function nodeWithWhk1(
	parameters: INodeParameters = { events: EVENTS },
	storedEvents: string[] = EVENTS,
	secret = SIGNING,
) {
	const sealedSecret = sealSecret(secret, TEST_API_KEY, 'whk_1');
	const staticData: IDataObject = {
		'node:Business Ops Trigger': {
			subscriptions: {
				production: { id: 'whk_1', url: WEBHOOK_URL, events: storedEvents, sealedSecret },
			},
		},
	};
	return createTriggerNode(trigger, parameters, { staticData });
}

let workflows = 0;
/** nodeWithWhk1 with `options`, in a workflow of its own (the trust memory keeps one entry per workflow). */
export function ownWorkflowWithWhk1(options: IDataObject = {}, secret = SIGNING): TestNode {
	const testNode = nodeWithWhk1({ events: EVENTS, options } as INodeParameters, EVENTS, secret);
	testNode.workflow.id = `workflow-own-${++workflows}`;
	return testNode;
}

/** 'started', 'repeat' (accepted and ignored) or the refusal's HTTP status. */
export async function outcome(testNode: TestNode, delivery: FakeDelivery) {
	const { result, status } = await runWebhook(trigger, testNode, delivery);
	if (result.workflowData) return 'started';
	return (result.webhookResponse as IDataObject | undefined)?.ignored ? 'repeat' : status;
}

/**
 * Publishes the trigger with whk_1 stored while GET /webhooks/whk_1 is answered by `answer`; a
 * DELETE of whk_1, the list (`listed`) and a new subscription are there if publishing asks. Answers
 * the ids deleted and the node.
 */
export async function publishWithWhk1Answered(
	answer: (get: nock.Interceptor) => nock.Scope,
	listed: IDataObject[] = [LISTED_WHK_1],
): Promise<{ deletes: string[]; node: ReturnType<typeof nodeWithWhk1> }> {
	const deletes: string[] = [];
	answer(nock(API).get('/v1/webhooks/whk_1'))
		.delete('/v1/webhooks/whk_1')
		.optionally()
		.reply(204, () => {
			deletes.push('whk_1');
			return '';
		})
		.get('/v1/webhooks')
		.query(true)
		.optionally()
		.reply(200, { data: listed, meta: { hasMore: false } })
		.post('/v1/webhooks')
		.optionally()
		.reply(201, {
			data: { id: 'whk_2', url: WEBHOOK_URL, events: EVENTS, signingSecret: NEW_SIGNING },
		});
	const node = nodeWithWhk1();
	await activateTrigger(trigger, node).catch(() => undefined);
	return { deletes, node };
}
