// Every workflow template in templates/ is something a user can import and trust: n8n's export
// shape, node types that exist, no credential ids or secrets, a sticky note over every step, and
// an e2e step that imports and runs it in real n8n (so a template cannot be added untested).
// The e2e area `templates` also checks each node type and version against the running n8n.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { BusinessOpsPollingTrigger } from '../../nodes/BusinessOpsPollingTrigger/BusinessOpsPollingTrigger.node';
import { BusinessOpsTrigger } from '../../nodes/BusinessOpsTrigger/BusinessOpsTrigger.node';

const ROOT = join(__dirname, '..', '..');
const TEMPLATES = join(ROOT, 'templates');
const E2E = join(ROOT, 'test', 'e2e');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).name as string;
const STICKY = 'n8n-nodes-base.stickyNote';

interface TemplateNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id?: string; name?: string }>;
}
interface Template {
	name: string;
	nodes: TemplateNode[];
	connections: Record<
		string,
		Record<string, Array<Array<{ node: string; type: string; index: number }>>>
	>;
	settings?: Record<string, unknown>;
	meta?: Record<string, unknown>;
}

/** The package's own node types with their versions; the tool variant n8n makes of an AI-usable node. */
function packageNodeTypes(): Map<string, number[]> {
	const types = new Map<string, number[]>();
	for (const node of [
		new BusinessOps(),
		new BusinessOpsTrigger(),
		new BusinessOpsPollingTrigger(),
	]) {
		const { name, version, usableAsTool } = node.description;
		const versions = Array.isArray(version) ? version : [version];
		types.set(`${PACKAGE}.${name}`, versions);
		if (usableAsTool) types.set(`${PACKAGE}.${name}Tool`, versions);
	}
	return types;
}

/**
 * The templates the steps of the e2e runs declare they import and run (`template` of a step in a
 * module test/e2e/index.js lists): a file name in a comment or a string elsewhere does not count.
 */
function templatesRunByE2e(): string[] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const modules = require(join(E2E, 'index.js')) as Array<{
		steps: Array<{ name: string; template?: string; run: unknown }>;
	}>;
	expect(modules.length).toBeGreaterThan(5);
	return modules
		.flatMap((m) => m.steps)
		.filter((step) => typeof step.run === 'function' && step.template)
		.map((step) => String(step.template));
}

const files = readdirSync(TEMPLATES)
	.filter((f) => f.endsWith('.json'))
	.sort();
const ownTypes = packageNodeTypes();
const runByE2e = templatesRunByE2e();

/** Which built-in packages a template may use: n8n's own nodes and its AI (LangChain) nodes. */
const BUILT_IN = /^(n8n-nodes-base|@n8n\/n8n-nodes-langchain)\.[A-Za-z0-9]+$/;

/** Text that looks like a secret: API keys of the API, bearer tokens, signing secrets, OpenAI-style keys. */
const SECRET =
	/svc_[A-Za-z0-9_-]{8,}|Bearer\s+[A-Za-z0-9._-]{8,}|whsec_[A-Za-z0-9]{8,}|sk-[A-Za-z0-9]{16,}|"(apiKey|signingSecret|password|token)"\s*:\s*"[^"]+"/;

function read(file: string): Template {
	const text = readFileSync(join(TEMPLATES, file), 'utf8');
	try {
		return JSON.parse(text) as Template;
	} catch (e) {
		throw new Error(`templates/${file} is not valid JSON: ${(e as Error).message}`);
	}
}

/** Whether the node's position lies inside the sticky note's rectangle. */
function covers(sticky: TemplateNode, node: TemplateNode): boolean {
	const [x, y] = sticky.position;
	const width = Number(sticky.parameters.width);
	const height = Number(sticky.parameters.height);
	const [nx, ny] = node.position;
	return nx >= x && nx <= x + width && ny >= y && ny <= y + height;
}

test('the template check knows every node type the package ships (package.json n8n.nodes)', () => {
	const shipped = (
		JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } }
	).n8n.nodes;
	const known = [...ownTypes.keys()].filter((type) => !type.endsWith('Tool'));
	expect(known).toHaveLength(shipped.length);
});

test('templates/ holds the templates of the main jobs', () => {
	expect(files).toEqual(
		expect.arrayContaining([
			'send-quote-for-customer-request.json',
			'update-contact-when-invoice-paid.json',
			'weekly-overdue-invoices.json',
			'sync-contacts-from-a-sheet.json',
		]),
	);
	for (const file of files) expect(file).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*\.json$/);
});

describe.each(files)('templates/%s', (file) => {
	const wf = read(file);
	const steps = wf.nodes.filter((n) => n.type !== STICKY);
	const stickies = wf.nodes.filter((n) => n.type === STICKY);

	test("is a workflow in n8n's export shape", () => {
		expect(typeof wf.name).toBe('string');
		expect(wf.name.length).toBeGreaterThan(3);
		expect(Array.isArray(wf.nodes)).toBe(true);
		expect(typeof wf.connections).toBe('object');
		expect(wf.settings).toEqual(expect.objectContaining({ executionOrder: 'v1' }));
		for (const n of wf.nodes) {
			expect(n).toEqual(
				expect.objectContaining({
					id: expect.any(String),
					name: expect.any(String),
					type: expect.any(String),
					typeVersion: expect.any(Number),
					parameters: expect.any(Object),
				}),
			);
			expect(n.position).toEqual([expect.any(Number), expect.any(Number)]);
		}
		const names = wf.nodes.map((n) => n.name);
		expect(new Set(names).size).toBe(names.length);
		expect(new Set(wf.nodes.map((n) => n.id)).size).toBe(names.length);
		for (const [from, outputs] of Object.entries(wf.connections)) {
			expect(names).toContain(from);
			for (const target of Object.values(outputs).flat(2)) expect(names).toContain(target.node);
		}
	});

	test('uses only node types that exist: the package’s (in a version it has), n8n’s own and its AI nodes', () => {
		expect(steps.some((n) => n.type.startsWith(`${PACKAGE}.`))).toBe(true);
		for (const n of wf.nodes) {
			const own = ownTypes.get(n.type);
			if (n.type.startsWith(`${PACKAGE}.`)) {
				if (!own)
					throw new Error(
						`"${n.name}": the package has no node type ${n.type} (it has ${[...ownTypes.keys()].join(', ')})`,
					);
				expect(own).toContain(n.typeVersion);
			} else if (!BUILT_IN.test(n.type)) {
				throw new Error(
					`"${n.name}": ${n.type} is neither this package's nor one of n8n's built-in node types`,
				);
			}
		}
	});

	test('leaves the credentials for the user to choose and holds no secret', () => {
		for (const n of wf.nodes) {
			for (const [type, ref] of Object.entries(n.credentials ?? {})) {
				if (ref.id)
					throw new Error(
						`"${n.name}" names ${type} credential id "${ref.id}": remove the node's credentials (the user chooses one)`,
					);
			}
		}
		expect(wf.meta?.instanceId).toBeUndefined();
		const secret = readFileSync(join(TEMPLATES, file), 'utf8').match(SECRET);
		if (secret)
			throw new Error(
				`templates/${file} holds something that looks like a secret: ${secret[0].slice(0, 12)}…`,
			);
	});

	test('has a sticky note that explains the template, and one over every step', () => {
		expect(stickies.length).toBeGreaterThan(1);
		for (const s of stickies)
			expect(String(s.parameters.content).trim().length).toBeGreaterThan(20);
		const uncovered = steps.filter((n) => !stickies.some((s) => covers(s, n))).map((n) => n.name);
		expect(uncovered).toEqual([]);
		// the overview note covers no step: it is the first thing a user reads
		expect(stickies.some((s) => !steps.some((n) => covers(s, n)))).toBe(true);
	});

	test('is imported and run by an e2e step (a step of a module listed in test/e2e/index.js declares it as its `template`)', () => {
		// when missing: add a step to test/e2e/templates.js (templateStep)
		expect(runByE2e).toContain(file);
	});
});
