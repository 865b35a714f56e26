// What AI agents and the editor see of the node: tool names and descriptions n8n builds from it,
// the output schemas (scripts/output-schemas.js is their one source), hints and builder hints.
import { existsSync, readFileSync } from 'node:fs';
import type { INode, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers, nodeNameToToolName } from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const outputSchemas = require('../../scripts/output-schemas.js');

const description = new BusinessOps().description;
const operations = description.properties
	.filter((p) => p.name === 'operation')
	.flatMap((p: INodeProperties) =>
		(p.options as INodePropertyOptions[]).map((o) => ({
			resource: String(p.displayOptions?.show?.resource?.[0]),
			operation: String(o.value),
			action: String(o.action),
		})),
	);
const resourceNames = Object.fromEntries(
	(
		description.properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]
	).map((o) => [o.value, o.name]),
);

/** The tool node as the editor adds it, named the way users leave it. */
function toolNode(name: string, resource: string, operation: string): INode {
	return {
		id: '1',
		name,
		type: 'n8n-nodes-business-ops.businessOpsTool',
		typeVersion: 1,
		position: [0, 0],
		parameters: { descriptionType: 'auto', resource, operation },
	};
}

describe('tool names and descriptions', () => {
	it('lists every operation once', () => {
		expect(operations.length).toBeGreaterThan(40);
		expect(new Set(operations.map((o) => `${o.resource}.${o.operation}`)).size).toBe(
			operations.length,
		);
	});

	it.each(operations)(
		'$resource $operation: name ≤ 64 and description ≤ 1,024 characters',
		({ resource, operation, action }) => {
			for (const name of [
				String(description.defaults.name),
				`${action} in Business Ops`,
				`Business Ops: ${action} (copy 2)`,
			]) {
				const node = toolNode(name, resource, operation);
				const toolName = nodeNameToToolName(node);
				expect(toolName).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
				const toolDescription = NodeHelpers.getToolDescriptionForNode(node, new BusinessOps());
				expect(toolDescription).toBe(`${action} in Business Ops`);
				expect(toolDescription.length).toBeLessThanOrEqual(1024);
			}
		},
	);

	it.each(operations)(
		'$resource $operation: the action reads as a whole tool description',
		({ resource, action }) => {
			// a sentence that starts with its verb, names the resource, and needs nothing around it
			expect(action).toMatch(
				/^(Get|Create|Update|Delete|Pause|Resume|Approve|Cancel|Send|Mark) [a-z]/,
			);
			expect(action).not.toMatch(/[.:]$|\bitem\b|\bnode\b/);
			const noun = String(resourceNames[resource]).toLowerCase();
			expect(action.toLowerCase()).toContain(
				resource === 'organization' ? 'organization' : noun.replace(/ run$/, ''),
			);
		},
	);

	it('has no two operations with the same action', () => {
		expect(new Set(operations.map((o) => o.action)).size).toBe(operations.length);
	});
});

describe('output schemas', () => {
	it('the committed files are what scripts/output-schemas.js generates', () => {
		for (const { file, text } of outputSchemas.schemaFiles()) {
			expect(existsSync(file) ? readFileSync(file, 'utf8') : `missing ${file}`).toBe(text);
		}
	});

	it('every operation has one, an object with properties (what n8n serves)', () => {
		const generated = outputSchemas
			.schemaFiles()
			.map((f: { resource: string; operation: string }) => `${f.resource}.${f.operation}`);
		expect(generated.sort()).toEqual(operations.map((o) => `${o.resource}.${o.operation}`).sort());
		for (const { resource, operation } of operations) {
			const schema = outputSchemas.readSchema(resource, operation);
			expect(schema.type).toBe('object');
			expect(Object.keys(schema.properties).length).toBeGreaterThan(0);
		}
	});

	it('the validator finds a wrong type, a missing key and a value outside an enum', () => {
		const quote = outputSchemas.readSchema('quote', 'get');
		expect(
			outputSchemas.validate(quote, {
				id: 'q1',
				status: 'draft',
				total: 12.5,
				items: [{ name: 'A', quantity: 1, unitPrice: 2 }],
			}),
		).toEqual([]);
		expect(
			outputSchemas.validate(quote, { status: 'lost', total: '12', items: [{ name: 'A' }] }),
		).toEqual([
			'$: no "id"',
			'$.status: "lost" is not one of draft, sent, approved, canceled',
			'$.items[0]: no "quantity"',
			'$.items[0]: no "unitPrice"',
			'$.total: string where the schema says number',
		]);
	});
});

describe('hints and builder hints', () => {
	it('puts builderHint on the node, never on the Resource or Operation property (n8n 2.41 refuses such a node)', () => {
		const { name } = JSON.parse(readFileSync(`${__dirname}/../../package.json`, 'utf8')) as {
			name: string;
		};
		expect((description as unknown as { builderHint?: unknown }).builderHint).toEqual({
			searchHint:
				'Business Operations API: contacts, quotes with line items, invoices, customer requests, AI agents and their runs, organization settings, webhook subscriptions',
			// the package's own trigger, by the type n8n gives it
			relatedNodes: [
				{
					nodeType: `${name}.businessOpsTrigger`,
					relationHint: 'Starts a workflow when a quote, invoice, request or agent event happens',
				},
			],
		});
		for (const p of description.properties.filter(
			(p) => p.name === 'resource' || p.name === 'operation',
		)) {
			expect((p as unknown as { builderHint?: unknown }).builderHint).toBeUndefined();
		}
	});

	it('has a static hint for an empty Update Fields and for Return All', () => {
		const messages = (description.hints ?? []).map((h) => h.message);
		expect(messages.some((m) => /Update Fields/.test(m))).toBe(true);
		expect(messages.some((m) => /Return All/.test(m) && /Requests per Minute/.test(m))).toBe(true);
	});
});
