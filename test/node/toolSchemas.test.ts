// The input schema a model receives for each operation of Business Ops Tool, built the way n8n
// builds it: the editor's "let the model define this parameter" writes a `$fromAI` override into a
// field (key from the field's display name, type from the field's type), n8n-core's
// create-node-as-tool turns the node's `$fromAI` calls into a zod schema, and LangChain sends that
// as JSON Schema. Every operation, with every field a model can be given, must pass what strict
// model APIs accept (OpenAI strict function calling, Anthropic, Gemini).
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { getSchema } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';
import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';
import { FROM_AI_AUTO_GENERATED_MARKER, NodeHelpers } from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';

const description = new BusinessOps().description;

interface JsonSchema {
	type?: string | string[];
	properties?: Record<string, JsonSchema>;
	required?: string[];
	additionalProperties?: unknown;
	items?: JsonSchema;
	anyOf?: JsonSchema[];
	[keyword: string]: unknown;
}

/** What the editor writes into a field when the user lets the model define it (n8n 2.41 editor). */
function fromAiOverride(field: INodeProperties): string {
	const key = field.displayName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);
	const type = ['boolean', 'number', 'json'].includes(field.type) ? field.type : 'string';
	return `={{ ${FROM_AI_AUTO_GENERATED_MARKER} $fromAI('${key}', \`\`, '${type}') }}`;
}

/** The editor offers no override for these: choices stay the workflow builder's. */
const noOverride = (field: INodeProperties) =>
	field.type === 'options' ||
	field.type === 'credentialsSelect' ||
	field.type === 'notice' ||
	field.type === 'hidden';

/** A field filled by the model: leaves get the override, collections get every option filled. */
function modelValue(field: INodeProperties): INodeParameters[string] {
	if (field.type === 'collection') {
		const options = (field.options as INodeProperties[]).filter((o) => !noOverride(o));
		return Object.fromEntries(options.map((o) => [o.name, modelValue(o)]));
	}
	if (field.type === 'fixedCollection') {
		const groups = field.options as INodePropertyCollection[];
		const entry = (g: INodePropertyCollection) =>
			Object.fromEntries(
				g.values.filter((v) => !noOverride(v)).map((v) => [v.name, modelValue(v)]),
			);
		return Object.fromEntries(
			groups.map((g) => [g.name, field.typeOptions?.multipleValues ? [entry(g)] : entry(g)]),
		);
	}
	if (field.type === 'resourceLocator')
		return { __rl: true, mode: 'id', value: fromAiOverride(field) };
	return fromAiOverride(field);
}

/** Each way the workflow builder's choices (options, switches) can show the operation's fields. */
function variantsOf(resource: string, operation: string): INodeParameters[] {
	let variants: INodeParameters[] = [{ resource, operation }];
	const choices = description.properties.filter(
		(p) =>
			(p.type === 'options' || p.type === 'boolean') &&
			p.name !== 'resource' &&
			p.name !== 'operation',
	);
	for (const choice of choices) {
		variants = variants.flatMap((v) => {
			if (!NodeHelpers.displayParameter(v, choice, null, description)) return [v];
			const values =
				choice.type === 'boolean'
					? [true, false]
					: ((choice.options ?? []) as INodePropertyOptions[]).map((o) => o.value);
			if (values.length === 0) return [v];
			return values.map((value) => ({ ...v, [choice.name]: value }));
		});
	}
	return variants;
}

/** The tool node's parameters with every field shown for the variant filled by the model. */
function toolParameters(variant: INodeParameters): INodeParameters {
	const parameters: INodeParameters = { ...variant, descriptionType: 'auto' };
	for (const field of description.properties) {
		if (field.name in variant || noOverride(field)) continue;
		if (NodeHelpers.displayParameter(variant, field, null, description))
			parameters[field.name] = modelValue(field);
	}
	return parameters;
}

function toolSchema(parameters: INodeParameters): JsonSchema {
	const node: INode = {
		id: '1',
		name: 'Business Ops',
		type: 'n8n-nodes-business-ops.businessOpsTool',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	return toJsonSchema(getSchema(node)) as JsonSchema;
}

/** Where a schema breaks the strict rules of model APIs; empty when it passes. */
function strictProblems(schema: JsonSchema, path = '$'): string[] {
	const problems: string[] = [];
	const types = schema.anyOf ? schema.anyOf.map((s) => s.type) : [schema.type];
	if (types.some((t) => typeof t !== 'string'))
		problems.push(`${path}: no "type" (OpenAI strict, Gemini and Anthropic need one)`);
	if (schema.anyOf)
		schema.anyOf.forEach((s, i) => problems.push(...strictProblems(s, `${path}.anyOf[${i}]`)));
	if (schema.type === 'array' && !schema.items) problems.push(`${path}: an array without "items"`);
	if (schema.items) problems.push(...strictProblems(schema.items, `${path}[]`));
	if (schema.type === 'object') {
		const keys = Object.keys(schema.properties ?? {});
		if (!schema.properties) problems.push(`${path}: an object without "properties"`);
		if (schema.additionalProperties !== false)
			problems.push(`${path}: "additionalProperties" is not false (OpenAI strict)`);
		const required = schema.required ?? [];
		for (const r of required)
			if (!keys.includes(r))
				problems.push(`${path}: "required" names "${r}", which is not a property`);
		for (const k of keys)
			if (!required.includes(k))
				problems.push(
					`${path}.${k}: not in "required" (OpenAI strict wants every property required)`,
				);
		for (const k of keys) {
			if (!/^[a-zA-Z0-9_-]{1,64}$/.test(k))
				problems.push(`${path}.${k}: a property name a model API refuses`);
			problems.push(...strictProblems(schema.properties![k], `${path}.${k}`));
		}
	}
	return problems;
}

const operations = description.properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) =>
		(p.options as INodePropertyOptions[]).map((o) => ({
			resource: String(p.displayOptions?.show?.resource?.[0]),
			operation: String(o.value),
		})),
	);

const cases = operations.flatMap(({ resource, operation }) =>
	variantsOf(resource, operation).map((variant) => ({
		label: `${resource} ${operation} ${JSON.stringify(Object.fromEntries(Object.entries(variant).filter(([k]) => k !== 'resource' && k !== 'operation')))}`,
		variant,
	})),
);

describe('tool input schemas', () => {
	it('covers every operation', () => {
		expect(operations.length).toBeGreaterThan(40);
		expect(new Set(cases.map((c) => `${c.variant.resource}.${c.variant.operation}`)).size).toBe(
			operations.length,
		);
	});

	it.each(cases)(
		'$label: every field given to the model passes the strict rules',
		({ variant }) => {
			const parameters = toolParameters(variant);
			const schema = toolSchema(parameters);
			expect(strictProblems(schema)).toEqual([]);
			// one argument per field the model fills (fields with one display name share one key)
			const keys = new Set(
				[...JSON.stringify(parameters).matchAll(/\$fromAI\('([^']+)'/g)].map((m) => m[1]),
			);
			expect(Object.keys(schema.properties ?? {}).sort()).toEqual([...keys].sort());
		},
	);

	it('a tool without arguments is an empty object that strict APIs accept (LangChain leaves it out for Gemini)', () => {
		const schema = toolSchema({
			resource: 'organization',
			operation: 'get',
			descriptionType: 'auto',
		});
		expect(schema).toMatchObject({ type: 'object', properties: {}, additionalProperties: false });
		expect(schema.required ?? []).toEqual([]);
		expect(strictProblems(schema)).toEqual([]);
	});

	it('the checker finds what strict APIs refuse', () => {
		const json = toolSchema({
			a: "={{ $fromAI('raw', 'anything', 'json') }}",
			b: "={{ $fromAI('n', 'a number', 'number', 5) }}",
		});
		expect(strictProblems(json)).toEqual([
			'$.n: not in "required" (OpenAI strict wants every property required)',
			'$.raw: no "type" (OpenAI strict, Gemini and Anthropic need one)',
		]);
		expect(
			strictProblems({
				type: 'object',
				properties: { l: { type: 'array' } },
				required: ['l', 'x'],
				additionalProperties: false,
			}),
		).toEqual([
			'$: "required" names "x", which is not a property',
			'$.l: an array without "items"',
		]);
		expect(
			strictProblems({ type: 'object', properties: { o: { type: 'object', properties: {} } } }),
		).toEqual([
			'$: "additionalProperties" is not false (OpenAI strict)',
			'$.o: not in "required" (OpenAI strict wants every property required)',
			'$.o: "additionalProperties" is not false (OpenAI strict)',
		]);
	});
});
