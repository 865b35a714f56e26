import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import {
	booleanRule,
	numberRule,
	operationFields,
	parameterToSend,
	sendStep,
} from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';
import { asOption, asText, isEmptyValue } from '../../../shared/typing';
import { invalidInput } from '../../shared/validation';

/** The modes of the spec's mode table, used for the default mode and for each override. */
const autonomyModeOptions: INodePropertyOptions[] = [
	{
		name: 'Automatic After Approvals',
		value: 'auto_after_approvals',
		description:
			'An action runs automatically once users have approved that action type a number of times',
	},
	{
		name: 'Automatic Instantly',
		value: 'auto_instant',
		description: 'Actions are applied directly, without review',
	},
	{
		name: 'Manual',
		value: 'manual',
		description: 'Every agent action waits for user approval',
	},
];

const MODES = autonomyModeOptions.map((option) => String(option.value));

const KEEP_CURRENT = 'keep';

const APPROVALS_COUNT: INodeProperties = {
	displayName: 'Approvals Count',
	name: 'autoAfterApprovalsCount',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 0 },
	default: 3,
	description:
		'Number of user approvals of an action type after which that action runs automatically. Sent only when the default mode or an action override is Automatic After Approvals.',
};

const CLEAR_OVERRIDES: INodeProperties = {
	displayName: 'Clear Action Overrides',
	name: 'clearActionOverrides',
	type: 'boolean',
	default: false,
	description:
		'Whether to remove every action override, so that every action follows the default mode',
};

function checkedMode(
	ctx: IExecuteSingleFunctions,
	field: string,
	parameter: string,
	value: unknown,
	of = '',
): string {
	const typed = asOption(value, MODES);
	if ('value' in typed) return typed.value as string;
	throw invalidInput(
		ctx,
		field,
		`"${String(value)}"${of} is not a mode; use ${MODES.join(', ')}`,
		'',
		parameter,
	);
}

/** The rows of Action Overrides as `{ "<action>": { "mode": "<mode>" } }`, or undefined when there are none. */
function actionOverridesOf(
	ctx: IExecuteSingleFunctions,
): Record<string, { mode: string }> | undefined {
	const rows = ctx.getNodeParameter('actionOverrides.override', []) as IDataObject[];
	if (rows.length === 0) return undefined;
	const refuse = (problem: string, fix = '') =>
		invalidInput(ctx, 'Action Overrides', problem, fix, 'actionOverrides');
	const seen = new Set<string>();
	const entries = rows.map((row, index): [string, { mode: string }] => {
		const typed = isEmptyValue(row.action) ? { value: '' } : asText(row.action);
		if (!('value' in typed))
			throw refuse(`the action name of override ${index + 1} ${typed.problem}`);
		const action = String(typed.value).trim();
		if (action === '') {
			throw refuse(
				`override ${index + 1} has no action name (such as send_invoice)`,
				'Enter one, or remove the override. ',
			);
		}
		if (seen.has(action))
			throw refuse(`"${action}" is listed more than once; give each action one mode`);
		seen.add(action);
		const of = ` (mode of "${action}")`;
		return [
			action,
			{ mode: checkedMode(ctx, 'Action Overrides', 'actionOverrides', row.mode, of) },
		];
	});
	// fromEntries keeps every name an own property, even one such as "__proto__"
	return Object.fromEntries(entries);
}

/** The approvals count is sent only beside a mode that uses it, the overrides when rows were added or cleared (`{}`). */
async function buildAutonomyBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body: IDataObject = {};
	const defaultMode = this.getNodeParameter('defaultMode', KEEP_CURRENT);
	if (!isEmptyValue(defaultMode) && 'problem' in asOption(defaultMode, [KEEP_CURRENT])) {
		body.defaultMode = checkedMode(this, 'Default Mode', 'defaultMode', defaultMode);
	}
	const clear = parameterToSend(this, CLEAR_OVERRIDES, booleanRule) === true;
	const actionOverrides = clear ? {} : actionOverridesOf(this);
	if (actionOverrides) body.actionOverrides = actionOverrides;
	const modes = [
		body.defaultMode,
		...Object.values(actionOverrides ?? {}).map((override) => override.mode),
	];
	if (modes.includes('auto_after_approvals')) {
		const sent = parameterToSend(this, APPROVALS_COUNT, numberRule('nonNegativeInteger'));
		if (sent !== undefined) body.autoAfterApprovalsCount = sent;
	}
	if (Object.keys(body).length === 0) {
		throw invalidInput(
			this,
			'Default Mode',
			'nothing to change',
			'Choose a default mode, add an action override or turn on Clear Action Overrides. ',
			['defaultMode', 'actionOverrides', 'clearActionOverrides'],
		);
	}
	requestOptions.body = body;
	return requestOptions;
}

/** PATCH /agents/{id}/autonomy `{ defaultMode?, autoAfterApprovalsCount?, actionOverrides? }`, built by buildAutonomyBody. */
export const agentUpdateAutonomyFields: INodeProperties[] = operationFields(
	'agent',
	'updateAutonomy',
	[
		recordPicker('agent'),
		{
			displayName: 'Default Mode',
			name: 'defaultMode',
			type: 'options',
			options: [
				...autonomyModeOptions,
				{
					name: 'Keep Current Mode',
					value: KEEP_CURRENT,
					description: 'Leave the default mode as it is and change only the action overrides',
				},
			].sort((a, b) => a.name.localeCompare(b.name)),
			default: KEEP_CURRENT,
			description:
				'How the agent handles actions that have no override. To change only the approvals count, choose Automatic After Approvals again.',
			routing: { send: { preSend: [sendStep(buildAutonomyBody)] } },
		},
		APPROVALS_COUNT,
		CLEAR_OVERRIDES,
		{
			displayName: 'Action Overrides',
			name: 'actionOverrides',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Action Override',
			default: {},
			description:
				'Modes for single actions that differ from the default mode. List every override the agent should have, since the list replaces the current ones; leave it empty to keep the current overrides.',
			// Hidden only when Clear Action Overrides is the boolean true: saved as the text "false" (or
			// given by an expression) the rows stay readable, and buildAutonomyBody reads the typed value.
			displayOptions: { hide: { clearActionOverrides: [true] } },
			options: [
				{
					displayName: 'Override',
					name: 'override',
					values: [
						{
							displayName: 'Action Name',
							name: 'action',
							type: 'string',
							required: true,
							default: '',
							placeholder: 'e.g. send_invoice',
							description: 'Name of the agent action this mode applies to',
						},
						{
							displayName: 'Mode',
							name: 'mode',
							type: 'options',
							options: autonomyModeOptions,
							required: true,
							default: 'manual',
							description: 'How the agent handles this action',
						},
					],
				},
			],
		},
	],
);
