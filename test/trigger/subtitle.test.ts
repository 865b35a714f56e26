import type { INodeType } from 'n8n-workflow';

import { BusinessOpsPollingTrigger } from '../../nodes/BusinessOpsPollingTrigger/BusinessOpsPollingTrigger.node';
import { BusinessOpsTrigger } from '../../nodes/BusinessOpsTrigger/BusinessOpsTrigger.node';
import { createTestNode } from '../harness/engine';

/** The node's subtitle as n8n's editor computes it: an expression over the node's parameters. */
function subtitleOf(nodeType: INodeType, events: unknown): unknown {
	const { node, workflow } = createTestNode(
		nodeType,
		events === undefined ? {} : ({ events } as never),
	);
	return workflow.expression.getSimpleParameterValue(
		node,
		nodeType.description.subtitle as string,
		'internal',
		{},
	);
}

describe.each<[string, INodeType, string]>([
	['Business Ops Trigger', new BusinessOpsTrigger(), ''],
	['Business Ops Polling Trigger', new BusinessOpsPollingTrigger(), 'Polls: '],
])('%s subtitle', (_name, nodeType, prefix) => {
	test('a list of events', () => {
		expect(subtitleOf(nodeType, ['invoice.paid', 'invoice.sent'])).toBe(
			`${prefix}invoice.paid, invoice.sent`,
		);
	});

	test('text from an expression ("a, b"), a supported reading of the field', () => {
		expect(subtitleOf(nodeType, 'invoice.paid, invoice.sent')).toBe(
			`${prefix}invoice.paid, invoice.sent`,
		);
	});

	test('no events chosen', () => {
		expect(subtitleOf(nodeType, undefined)).toBe(prefix);
	});
});
