/** Shared set-up for the breaker tests of the polling trigger: the sandbox and its API, as test/polling does. */
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/src';
import { fastClock, forgetRateBudgets } from '../harness/clock';

export function useSandbox(): { sandbox: () => Sandbox; api: (method: string, path: string, body?: IDataObject) => Promise<IDataObject> } {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.stop());
	beforeEach(() => {
		sandbox.control.reset();
		sandbox.control.setRateLimit({ limit: 100_000, windowMs: 60_000 });
		forgetRateBudgets();
		fastClock();
	});
	const api = async (method: string, path: string, body?: IDataObject): Promise<IDataObject> => {
		const res = await fetch(`${sandbox.baseUrl}${path}`, {
			method,
			headers: { Authorization: `Bearer ${sandbox.keys.admin}`, 'Content-Type': 'application/json' },
			body: body ? JSON.stringify(body) : undefined,
		});
		const json = (await res.json()) as { data: IDataObject };
		if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
		return json.data;
	};
	return { sandbox: () => sandbox, api };
}

/** Every record of a list, read directly (the test's own view). */
export async function collect(sandbox: Sandbox, path: string): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const res = await fetch(`${sandbox.baseUrl}${path}?page=${page}&pageSize=100`, { headers: { Authorization: `Bearer ${sandbox.keys.admin}` } });
		const body = (await res.json()) as { data: IDataObject[]; meta: { hasMore: boolean } };
		records.push(...body.data);
		if (!body.meta.hasMore) return records;
	}
}
