/** The in-process sandbox API for a test file's tests, over real HTTP. */
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/src';

/**
 * The sandbox of a test file (started once, reset before each test, its rate limit lifted unless
 * `keepRateLimit`) and its API with the admin key. (setup.ts starts each test with fresh rate
 * budgets on the fast clock.)
 */
export function useSandbox({ keepRateLimit = false } = {}): {
	sandbox: () => Sandbox;
	api: (method: string, path: string, body?: IDataObject) => Promise<IDataObject>;
} {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.stop());
	beforeEach(() => {
		sandbox.control.reset();
		if (!keepRateLimit) sandbox.control.setRateLimit({ limit: 100_000, windowMs: 60_000 });
	});
	const api = async (method: string, path: string, body?: IDataObject): Promise<IDataObject> => {
		const res = await fetch(`${sandbox.baseUrl}${path}`, {
			method,
			headers: {
				Authorization: `Bearer ${sandbox.keys.admin}`,
				'Content-Type': 'application/json',
			},
			body: body ? JSON.stringify(body) : undefined,
		});
		const json = (await res.json()) as { data: IDataObject };
		if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
		return json.data;
	};
	return { sandbox: () => sandbox, api };
}
