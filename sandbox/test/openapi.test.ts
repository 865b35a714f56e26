import { router } from '../src/server';
import { toYaml } from '../src/yaml';
import { startTestSandbox, type TestSandbox, type Loose } from './helpers';

let t: TestSandbox;
let doc: Loose;
beforeAll(async () => {
	t = await startTestSandbox();
	doc = (await t.as(null)('GET', '/openapi.json')).body;
});
afterAll(() => t.sandbox.stop());

const METHODS = ['get', 'post', 'patch', 'delete', 'put'];

function operations(): Array<{ method: string; path: string; op: Loose }> {
	return Object.entries(doc.paths).flatMap(([path, item]: [string, Loose]) =>
		Object.entries(item)
			.filter(([method]) => METHODS.includes(method))
			.map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
	);
}

function refs(value: unknown, found: string[] = []): string[] {
	if (Array.isArray(value)) value.forEach((v) => refs(v, found));
	else if (value && typeof value === 'object') {
		for (const [k, v] of Object.entries(value)) {
			if (k === '$ref' && typeof v === 'string') found.push(v);
			else refs(v, found);
		}
	}
	return found;
}

describe('OpenAPI document', () => {
	test('is OpenAPI 3.1 JSON with both servers, bearer security and the error schema; no key needed', async () => {
		expect(doc.openapi).toBe('3.1.0');
		expect(doc.servers.map((s: { url: string }) => s.url)).toEqual([
			t.sandbox.baseUrl,
			t.sandbox.legacyBaseUrl,
		]);
		expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
			type: 'http',
			scheme: 'bearer',
		});
		expect(doc.security).toEqual([{ bearerAuth: [] }]);
		expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
		const legacy = await fetch(`${t.sandbox.legacyBaseUrl}/openapi.json`);
		expect(legacy.status).toBe(200);
		expect(((await legacy.json()) as Loose).paths).toEqual(doc.paths);
	});

	test('every route the router serves is in the document, and nothing else', () => {
		const served = router.routes.map((r) => `${r.method} ${r.path}`).sort();
		const documented = operations()
			.map((o) => `${o.method} ${o.path}`)
			.sort();
		expect(documented).toEqual(served);
		expect(served).toHaveLength(38); // the 37 endpoints of the spec + openapi.json
	});

	test('every documented operation is answered by a route (never "No route" / 405)', async () => {
		for (const { method, path } of operations()) {
			const concrete = path.replace(/\{\w+\}/g, 'x_unknown');
			const match = router.match(method, concrete);
			expect(match.kind).toBe('found');
			const res = await t.admin(
				method,
				concrete,
				method === 'POST' || method === 'PATCH' ? {} : undefined,
			);
			expect(res.status).not.toBe(405);
			if (res.status === 404) expect(res.body.error.message).not.toMatch(/^No route/);
		}
	});

	test('operations carry parameters, bodies, responses and their scope', () => {
		const listContacts = doc.paths['/contacts'].get;
		expect(listContacts.parameters.map((p: { name: string }) => p.name)).toEqual([
			'page',
			'pageSize',
		]);
		expect(listContacts.parameters[1].schema).toMatchObject({
			type: 'integer',
			minimum: 1,
			maximum: 100,
			default: 25,
		});
		expect(listContacts['x-required-scope']).toBe('contacts.read');
		expect(Object.keys(listContacts.responses)).toEqual(['200', '400', '401', '403', '429']);
		expect(listContacts.responses['429'].headers['Retry-After']).toBeDefined();
		const createContact = doc.paths['/contacts'].post;
		expect(createContact.requestBody.content['application/json'].schema.required).toEqual(['name']);
		expect(createContact.requestBody.content['application/json'].schema.additionalProperties).toBe(
			false,
		);
		expect(Object.keys(createContact.responses)).toContain('201');
		expect(createContact.responses['409']).toBeDefined();
		expect(doc.paths['/contacts/{id}'].get.parameters[0]).toMatchObject({
			name: 'id',
			in: 'path',
			required: true,
		});
		expect(doc.paths['/agents'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
			'page',
			'pageSize',
			'status',
			'agentType',
		]);
		expect(doc.paths['/openapi.json'].get.security).toEqual([]);
		expect(doc.paths['/requests'].post.responses['201']).toBeDefined();
		for (const { op } of operations()) {
			expect(op.operationId).toBeTruthy();
			expect(op.summary).toBeTruthy();
		}
		expect(JSON.stringify(doc)).not.toContain('x-error');
	});

	test('every $ref resolves', () => {
		for (const ref of refs(doc)) {
			const name = ref.replace('#/components/schemas/', '');
			expect(doc.components.schemas[name]).toBeDefined();
		}
	});

	test('record schemas list exactly the fields the API returns', async () => {
		const agent = (await t.admin('GET', '/agents')).body.data[0];
		const [run] = (await t.admin('GET', `/agents/${agent.id}/runs`)).body.data;
		const samples: Record<string, unknown> = {
			Contact: (await t.admin('GET', '/contacts')).body.data[0],
			Quote: (await t.admin('GET', '/quotes')).body.data[0],
			Invoice: (await t.admin('GET', '/invoices')).body.data[0],
			Agent: agent,
			AgentDetail: (await t.admin('GET', `/agents/${agent.id}`)).body.data,
			Autonomy: (await t.admin('GET', `/agents/${agent.id}/autonomy`)).body.data,
			AgentRun: run,
			AgentRunDetail: (await t.admin('GET', `/agents/${agent.id}/runs/${run.id}`)).body.data,
			Request: (await t.admin('GET', '/requests')).body.data[0],
			Organization: (await t.admin('GET', '/organization')).body.data,
			Me: (await t.admin('GET', '/me')).body.data,
			EventType: (await t.admin('GET', '/webhooks/events')).body.data[0],
			WebhookCreated: (
				await t.admin('POST', '/webhooks', {
					url: 'https://example.com/x',
					events: ['quote.created'],
				})
			).body.data,
			Webhook: (await t.admin('GET', '/webhooks')).body.data[0],
		};
		for (const [name, sample] of Object.entries(samples)) {
			const schema = doc.components.schemas[name];
			expect([name, Object.keys(sample as object).sort()]).toEqual([
				name,
				Object.keys(schema.properties).sort(),
			]);
		}
	});

	test('Accept: application/yaml answers the same document as YAML', async () => {
		const res = await fetch(`${t.sandbox.baseUrl}/openapi.json`, {
			headers: { Accept: 'application/yaml' },
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
		const text = await res.text();
		expect(text.startsWith('openapi: "3.1.0"\n')).toBe(true);
		expect(text).toContain('\n  "/contacts/{id}":\n');
		expect(text).toBe(toYaml(doc));
		let parse: ((source: string) => unknown) | undefined;
		try {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			parse = require('yaml').parse;
		} catch {
			parse = undefined; // the yaml package is not installed: the structural checks above stand
		}
		if (parse) expect(parse(text)).toEqual(doc);
	});
});

describe('YAML writer', () => {
	test('writes nested maps, lists, empty collections and scalars safely', () => {
		const value = {
			a: 1,
			'b c': 'x: y',
			list: [1, 'two', { k: true }, [3]],
			empty: {},
			none: [],
			nil: null,
			yes: 'yes',
			s: 'line\n"q"',
		};
		expect(toYaml(value)).toBe(
			[
				'a: 1',
				'"b c": "x: y"',
				'list:',
				'- 1',
				'- "two"',
				'- k: true',
				'- - 3',
				'empty: {}',
				'none: []',
				'nil: null',
				'"yes": "yes"',
				's: "line\\n\\"q\\""',
				'',
			].join('\n'),
		);
	});
});
