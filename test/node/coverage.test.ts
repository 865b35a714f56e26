import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';

// The spec is not part of the repository: it sits beside it (`../shared/api-spec.md`) where the
// API team shares it, or wherever BUSINESS_OPS_API_SPEC points. Coverage is always checked against
// the committed fixture taken from it; only the fixture-against-spec comparison needs the spec.
const SPEC =
	process.env.BUSINESS_OPS_API_SPEC ?? join(__dirname, '..', '..', '..', 'shared', 'api-spec.md');
const SNAPSHOT = join(__dirname, '..', 'fixtures', 'spec-endpoints.txt');

/** `METHOD /path scope` for every row of the spec's endpoint tables (section 4). */
function endpointsOfSpec(markdown: string): string[] {
	return markdown
		.split('\n')
		.filter((line) => /^\| (GET|POST|PATCH|DELETE) \| \//.test(line))
		.map((line) => {
			const [method, path, scope] = line
				.split('|')
				.slice(1, 4)
				.map((cell) => cell.trim());
			return `${method} ${path} ${scope}`;
		});
}

const snapshot = readFileSync(SNAPSHOT, 'utf8').trim().split('\n');
const normalize = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

interface Operation {
	resource: string;
	resourceName: string;
	operation: string;
	operationName: string;
	endpoint: string;
	action: string;
}

function operationsOfNode(): Operation[] {
	const properties = new BusinessOps().description.properties as INodeProperties[];
	const resources = properties[0].options as INodePropertyOptions[];
	return properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) => {
			const resource = String(p.displayOptions?.show?.resource?.[0]);
			const resourceName = resources.find((option) => option.value === resource)?.name ?? resource;
			return (p.options as INodePropertyOptions[]).map((option) => {
				const request = option.routing?.request ?? {};
				const url = String(request.url ?? '')
					.replace(/^=/, '')
					.replace(/\{\{[^}]*\}\}/g, '{}');
				return {
					resource,
					resourceName,
					operation: String(option.value),
					operationName: option.name,
					endpoint: `${request.method} ${url}`,
					action: String(option.action),
				};
			});
		});
}

beforeEach(() => expect.hasAssertions());

// Skipped with its reason in its name when the spec is absent; the coverage tests below never skip.
const besideTheSpec = existsSync(SPEC)
	? test
	: (name: string, fn: () => void) =>
			test.skip(
				`${name} (SKIPPED, no spec at ${SPEC}; set BUSINESS_OPS_API_SPEC; coverage still runs against the fixture)`,
				fn,
			);

besideTheSpec(
	'the committed fixture of the endpoint table matches the spec beside the repository',
	() => {
		expect(endpointsOfSpec(readFileSync(SPEC, 'utf8'))).toEqual(snapshot);
	},
);

test('the committed fixture is a well-formed endpoint table', () => {
	expect(
		snapshot.filter((row) => !/^(GET|POST|PATCH|DELETE) \/\S* [a-z]+\.(read|write)$/.test(row)),
	).toEqual([]);
});

test('the node reaches all 37 endpoints of the spec, and no endpoint outside it', () => {
	const spec = new Set(snapshot.map((row) => normalize(row.split(' ').slice(0, 2).join(' '))));
	const operations = operationsOfNode();
	const reached = new Set(operations.map((op) => op.endpoint));

	expect(spec.size).toBe(37);
	expect([...spec].filter((endpoint) => !reached.has(endpoint))).toEqual([]);
	expect(operations.filter((op) => !spec.has(op.endpoint))).toEqual([]);
});

test('every operation has a sentence-case action and a unique value per resource', () => {
	const operations = operationsOfNode();
	const acronyms = new Set(['API', 'ID', 'IDs', 'JSON', 'VAT', 'URL']);
	const notSentenceCase = operations.filter(({ action }) => {
		const [first, ...rest] = action.split(' ');
		return (
			!/^[A-Z][a-z]*$/.test(first) || rest.some((word) => /[A-Z]/.test(word) && !acronyms.has(word))
		);
	});
	expect(notSentenceCase).toEqual([]);
	const keys = operations.map((op) => `${op.resource}:${op.operation}`);
	expect(new Set(keys).size).toBe(keys.length);
});

test('docs/operations.md lists every operation with its request', () => {
	const page = readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
	const rows = operationsOfNode().map(
		(op) => `| ${op.resourceName} | ${op.operationName} | \`${op.endpoint.split(' ')[0]} `,
	);
	expect(rows.filter((row) => !page.includes(row))).toEqual([]);
});

test("the README's operations table names each resource's operations", () => {
	const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
	const section = readme.split('\n## Operations\n')[1]?.split('\n## ')[0] ?? '';
	const inReadme = (resourceName: string) => {
		const row = section.split('\n').find((line) => line.startsWith(`| ${resourceName} | `));
		const cell = (row?.split('|')[2] ?? '').replace(/\([^)]*\)/g, '');
		return cell
			.split(',')
			.map((name) => name.trim())
			.sort();
	};
	const byResource = new Map<string, string[]>();
	for (const op of operationsOfNode())
		byResource.set(op.resourceName, [...(byResource.get(op.resourceName) ?? []), op.operationName]);
	const differing = [...byResource]
		.map(([resourceName, names]) => ({
			resourceName,
			node: [...names].sort(),
			readme: inReadme(resourceName),
		}))
		.filter(({ node, readme }) => readme.join() !== node.join());
	expect(differing).toEqual([]);
});

/** Every value the node offers for a field that holds an API value (types, statuses, modes). */
function offeredApiValues(): Map<string, Set<string>> {
	const offered = new Map<string, Set<string>>();
	const visit = (property: INodeProperties) => {
		if (
			property.type === 'options' &&
			['type', 'status', 'defaultMode', 'mode', 'agentType'].includes(property.name)
		) {
			const values = offered.get(property.name) ?? new Set<string>();
			for (const option of property.options as INodePropertyOptions[])
				values.add(String(option.value));
			offered.set(property.name, values);
		}
		for (const child of (property.options ?? []) as Array<
			INodeProperties | { values?: INodeProperties[] }
		>) {
			if ('values' in child && Array.isArray(child.values)) child.values.forEach(visit);
			else if ('displayName' in child && 'type' in child) visit(child as INodeProperties);
		}
	};
	(new BusinessOps().description.properties as INodeProperties[]).forEach(visit);
	return offered;
}

test("docs/operations.md's table of documented and free values names every value the node offers", () => {
	const page = readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
	const section =
		page.split('## Values the API documents, and values that are free')[1]?.split('\n## ')[0] ?? '';
	expect(section).toContain(
		'| Field | Offered in the node | Documented by the API | Other values |',
	);
	const offered = offeredApiValues();
	expect([...offered.keys()].sort()).toEqual([
		'agentType',
		'defaultMode',
		'mode',
		'status',
		'type',
	]);
	const missing = [...offered.entries()].flatMap(([name, values]) =>
		[...values]
			.filter((value) => value !== 'keep' && !section.includes(`\`${value}\``))
			.map((value) => `${name}: ${value}`),
	);
	expect(missing).toEqual([]);
});
