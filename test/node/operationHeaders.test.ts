// The comments that say what an operation sends (`/** POST /quotes `{ contactId, items, validUntil? }` …`
// above a field list, `// PATCH /invoices/{id} with `{ status }`` above an operationFields call) stay
// true: the method and path are the operation's own, and a run with every field set sends exactly
// the keys the comment lists (a key marked `?` may be left out).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import type { IDataObject, INodeParameters, INodePropertyOptions } from 'n8n-workflow';

import { byId, runDeclarativeNode } from '../harness/engine';
import { API, node } from '../harness/actionNode';

const RESOURCES = join(__dirname, '../../nodes/BusinessOps/resources');

interface Header {
	where: string;
	resource: string;
	operation: string;
	method: string;
	path: string;
	/** The body's keys as the comment lists them; undefined when it lists none. */
	keys?: string[];
}

const HEADER =
	/^\s*(?:\/\*\*|\*|\/\/) (GET|POST|PATCH|PUT|DELETE) (\/[\w/{}]*)(?:[^`\n]*`\{ ([^}]*) \}`)?/;

/** Every header of the resources' files, with the operation it stands above. */
function headers(): Header[] {
	const found: Header[] = [];
	for (const resource of readdirSync(RESOURCES)) {
		for (const file of readdirSync(join(RESOURCES, resource))) {
			const lines = readFileSync(join(RESOURCES, resource, file), 'utf8').split('\n');
			lines.forEach((line, i) => {
				const match = HEADER.exec(line);
				if (!match) return;
				const [, method, path, keys] = match;
				// the operation: the file's name, or the operationFields call the comment stands above
				const below = lines.slice(i, i + 4).join('\n');
				const call = /operationFields\('(\w+)', '(\w+)'/.exec(below);
				const operation = call ? call[2] : file.replace(/\.ts$/, '');
				found.push({
					where: `${resource}/${file}:${i + 1}`,
					resource: call ? call[1] : resource,
					operation,
					method,
					path,
					keys: keys?.split(',').map((key) => key.trim()),
				});
			});
		}
	}
	return found;
}

function routingOf(resource: string, operation: string) {
	const list = node.description.properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	);
	const option = (list?.options as INodePropertyOptions[] | undefined)?.find(
		(o) => o.value === operation,
	);
	return option?.routing?.request;
}

/** Every field of each operation that has a body in its header set, so that every key is sent. */
const FULL: Record<string, INodeParameters> = {
	'quote.create': {
		contactId: byId('ctc_1'),
		items: { item: [{ name: 'Taart', quantity: 1, unitPrice: 10, vatPercentage: 9 }] },
		additionalFields: { validUntil: '2026-12-31T12:00:00Z' },
	},
	'invoice.create': {
		contactId: byId('ctc_1'),
		items: { item: [{ name: 'Taart', quantity: 1, unitPrice: 10, vatPercentage: 9 }] },
		additionalFields: { dueDate: '2026-12-01T00:00:00Z' },
	},
	'agent.updateAutonomy': {
		agentId: byId('agt_1'),
		defaultMode: 'auto_after_approvals',
		autoAfterApprovalsCount: 5,
		actionOverrides: { override: [{ action: 'send_invoice', mode: 'manual' }] },
	},
	'webhook.sendTestEvent': { webhookId: byId('whk_1'), eventType: 'quote.approved' },
	'invoice.updateStatus': { invoiceId: byId('inv_1'), status: 'finalized' },
};

const all = headers();

test('the resources have headers to check, and each names an operation the node has', () => {
	expect(all.length).toBeGreaterThanOrEqual(10);
	for (const header of all)
		expect([header.where, routingOf(header.resource, header.operation)]).toEqual([
			header.where,
			expect.anything(),
		]);
});

test.each(all.map((h) => [h.where, h]))('%s: the method and path are the operation’s', (_, h) => {
	const request = routingOf(h.resource, h.operation)!;
	const path = String(request.url)
		.replace(/^=/, '')
		.replace(/\{\{[^}]*\}\}/g, '{id}');
	expect(`${request.method} ${path}`).toBe(`${h.method} ${h.path}`);
});

const withBody = all.filter((h) => h.keys);

test('every header that lists a body has a run here', () => {
	expect(withBody.map((h) => `${h.resource}.${h.operation}`).sort()).toEqual(
		Object.keys(FULL).sort(),
	);
});

test.each(withBody.map((h) => [h.where, h]))(
	'%s: a run with every field set sends exactly the listed keys',
	async (_, h) => {
		let sent: IDataObject | undefined;
		const scope = nock(API)
			.intercept(/.*/, h.method)
			.reply(200, (_uri, body) => {
				sent = body as IDataObject;
				return { data: { id: 'x' } };
			});
		await runDeclarativeNode(node, {
			resource: h.resource,
			operation: h.operation,
			...FULL[`${h.resource}.${h.operation}`],
		});
		expect(scope.isDone()).toBe(true);
		const listed = h.keys!.map((key) => key.replace(/\?$/, ''));
		expect(Object.keys(sent ?? {}).sort()).toEqual([...listed].sort());
	},
);
