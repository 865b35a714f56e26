/**
 * The field builders (nodes/BusinessOps/shared/fields.ts): every sending field of the description
 * carries its send rule, declared where the field is, and the rule works wherever a field sits.
 */
import nock from 'nock';
import type { IDataObject, INodeProperties, INodeType } from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { booleanField, numberField, textField } from '../../nodes/BusinessOps/shared/fields';
import { executeRoutedRequest } from '../../nodes/BusinessOps/shared/requestHook';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

interface Routed {
	where: string;
	send: NonNullable<NonNullable<INodeProperties['routing']>['send']>;
}

/** Every `routing.send` in the properties, at any depth (operation options, collections, rows). */
function sendsIn(value: unknown, where = '', found: Routed[] = []): Routed[] {
	if (!value || typeof value !== 'object') return found;
	if (Array.isArray(value)) {
		value.forEach((child) => sendsIn(child, where, found));
		return found;
	}
	const record = value as Record<string, unknown>;
	const here = `${where} > ${String(record.displayName ?? record.name ?? '')}`;
	const send = (record.routing as { send?: Routed['send'] } | undefined)?.send;
	if (send && (send.property !== undefined || send.preSend)) found.push({ where: here, send });
	for (const [key, child] of Object.entries(record))
		if (key !== 'routing') sendsIn(child, here, found);
	return found;
}

const sends = sendsIn(new BusinessOps().description.properties);

describe('the sending fields of the description', () => {
	test('the walk finds the fields of every resource', () => {
		expect(sends.filter(({ send }) => send.property !== undefined).length).toBeGreaterThan(40);
	});
});

describe('a field built here works wherever it sits', () => {
	/** A small declarative node: a number, a boolean and a text field in a fixedCollection row. */
	const rowNode: INodeType = {
		description: {
			displayName: 'Row Test',
			name: 'rowTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Row Test' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'businessOpsApi', required: true }],
			requestDefaults: { baseURL: TEST_BASE_URL },
			requestOperations: { pagination: executeRoutedRequest },
			properties: [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					options: [
						{
							name: 'Send',
							value: 'send',
							routing: { request: { method: 'POST', url: '/rows' }, send: { paginate: true } },
						},
					],
					default: 'send',
				},
				{
					displayName: 'Settings',
					name: 'settings',
					type: 'fixedCollection',
					default: {},
					options: [
						{
							displayName: 'Setting',
							name: 'setting',
							values: [
								numberField({ displayName: 'Days', name: 'days', default: 0 }),
								booleanField({ displayName: 'On', name: 'on', default: false }),
								textField({ displayName: 'Code', name: 'code', default: '' }, { trim: true }),
							],
						},
					],
				},
			],
		},
	};

	test('in a fixedCollection row: numeric text is a number, "false" is false, the text is trimmed', async () => {
		const bodies: IDataObject[] = [];
		nock('https://api.business-ops.test')
			.post('/v1/rows')
			.reply(201, (_uri, body) => {
				bodies.push(body as IDataObject);
				return { data: { id: 'r_1' } };
			});
		await runDeclarativeNode(
			rowNode,
			{
				operation: 'send',
				settings: { setting: { days: '={{ "14" }}', on: '={{ "false" }}', code: ' X1 ' } },
			},
			{ credentials: { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 } },
		);
		expect(bodies).toEqual([{ days: 14, on: false, code: 'X1' }]);
	});

	test('in a fixedCollection row: a value the typing refuses fails naming the field, and nothing is sent', async () => {
		const scope = nock('https://api.business-ops.test').post('/v1/rows').reply(201, { data: {} });
		await expect(
			runDeclarativeNode(
				rowNode,
				{ operation: 'send', settings: { setting: { days: '={{ "two" }}' } } },
				{
					credentials: { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 },
				},
			),
		).rejects.toThrow('Days: must be a number; the expression gave "two" [item 0]');
		expect(scope.isDone()).toBe(false);
		nock.cleanAll();
	});
});
