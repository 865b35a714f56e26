/**
 * The polling trigger through n8n-core's real PollContext, against the in-process sandbox: each
 * poll is a new PollContext over the same Workflow (as n8n's poll schedule makes one per
 * activation and calls poll on it), so its static data carries over between polls; `restart()`
 * makes a new Workflow from the static data as n8n saved it (a JSON round trip).
 */
import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeParameters,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { BusinessOpsPollingTrigger } from '../../nodes/BusinessOpsPollingTrigger/BusinessOpsPollingTrigger.node';
import type { Sandbox } from '../../sandbox/src';
import { createTestNode, type TestNode } from '../harness/engine';

export const trigger = new BusinessOpsPollingTrigger();

export interface Poller {
	/** One poll; `afterAnswer` runs after each list request was answered, before the walk goes on. */
	poll(options?: {
		mode?: WorkflowExecuteMode;
		afterAnswer?: (request: IHttpRequestOptions) => Promise<void> | void;
	}): Promise<INodeExecutionData[][] | null>;
	/** The node's static data now. */
	staticData(): IDataObject;
	/** n8n stopped and started: a new workflow object from the saved static data. */
	restart(): void;
}

export function poller(
	sandbox: Sandbox,
	parameters: INodeParameters,
	apiKey = sandbox.keys.admin,
): Poller {
	const credentials = { apiKey, baseUrl: sandbox.baseUrl, requestsPerMinute: 100_000 };
	let test: TestNode = createTestNode(trigger, parameters, { credentials });
	return {
		async poll({ mode = 'trigger', afterAnswer } = {}) {
			const ctx = new PollContext(test.workflow, test.node, test.additionalData, mode, 'activate');
			if (afterAnswer) {
				const send = ctx.helpers.httpRequestWithAuthentication;
				ctx.helpers.httpRequestWithAuthentication = async function (
					this: unknown,
					type: string,
					request: IHttpRequestOptions,
					...rest: unknown[]
				) {
					const answer: unknown = await (send as (...args: unknown[]) => Promise<unknown>).call(
						this,
						type,
						request,
						...rest,
					);
					await afterAnswer(request);
					return answer;
				} as typeof send;
			}
			return await trigger.poll.call(ctx);
		},
		staticData: () => test.workflow.getStaticData('node', test.node) as IDataObject,
		restart() {
			const saved = JSON.parse(JSON.stringify(test.workflow.staticData)) as IDataObject;
			test = createTestNode(trigger, parameters, { credentials, staticData: saved });
		},
	};
}

/** The emitted items' `type` and `data.id`, in order; [] for no emission. */
export function emitted(result: INodeExecutionData[][] | null): Array<[string, string]> {
	return (result?.[0] ?? []).map((item) => [
		String(item.json.type),
		String((item.json.data as IDataObject).id),
	]);
}

/** Every record of a list, read directly (the test's own view). */
export async function collect(sandbox: Sandbox, path: string): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const res = await fetch(`${sandbox.baseUrl}${path}?page=${page}&pageSize=100`, {
			headers: { Authorization: `Bearer ${sandbox.keys.admin}` },
		});
		const body = (await res.json()) as { data: IDataObject[]; meta: { hasMore: boolean } };
		records.push(...body.data);
		if (!body.meta.hasMore) return records;
	}
}
