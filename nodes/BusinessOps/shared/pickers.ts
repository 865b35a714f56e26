/** Record pickers: "From list" (listSearch/) and "By ID", the ID checked per item before anything is sent. */
import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { idRule, sendingField, sendStep, valueToSend } from './fields';

/** Each record kind's picker: its label, parameter, list search (listSearch/) and an example ID. */
const PICKERS = {
	agent: ['Agent', 'agentId', 'searchAgents', 'agt_4hQ9x'],
	agentRun: ['Run', 'runId', 'searchAgentRuns', 'run_7Tz2c'],
	contact: ['Contact', 'contactId', 'searchContacts', 'ctc_8sK2m'],
	invoice: ['Invoice', 'invoiceId', 'searchInvoices', 'inv_4fK9xQ2mZp7LbW1s'],
	quote: ['Quote', 'quoteId', 'searchQuotes', 'quo_4fK9xQ2mZp7LbW1s'],
	request: ['Customer Request', 'requestId', 'searchRequests', 'req_3Lm8v'],
	webhook: ['Webhook', 'webhookId', 'searchWebhooks', 'whk_9pR4d'],
} as const;

type RecordKind = keyof typeof PICKERS;

function picker(
	kind: RecordKind,
	own: { description?: string; required?: boolean },
): INodeProperties {
	const [displayName, name, searchListMethod, example] = PICKERS[kind];
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: own.required ?? true,
		description: own.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${displayName.toLowerCase()}...`,
				typeOptions: { searchListMethod, searchable: true },
			},
			// No `validation` regex here: n8n runs such regexes before every execution in a VM with
			// a 250 ms limit, which a busy instance can exceed and then fails the workflow.
			// idRule checks the ID instead, per item, before the request is sent.
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: `e.g. ${example}` },
		],
	};
}

export function recordPicker(
	kind: RecordKind,
	own: { description?: string } = {},
): INodeProperties {
	const field = picker(kind, own);
	const checkId = sendStep(async function (
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	) {
		valueToSend(
			this,
			field,
			idRule,
			this.getNodeParameter(field.name, undefined, { extractValue: true }),
		);
		return requestOptions;
	});
	return { ...field, routing: { send: { preSend: [checkId] } } };
}

export function contactField(
	own: { description?: string; required?: boolean } = {},
): INodeProperties {
	return sendingField(picker('contact', own), idRule);
}

/** A path segment of a picker's ID, as used in `routing.request.url`. */
export const idPath = (parameterName: string): string =>
	`{{ encodeURIComponent($parameter["${parameterName}"]) }}`;
