import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as listSearch from './listSearch';
import { agentDescription } from './resources/agent';
import { agentRunDescription } from './resources/agentRun';
import { contactDescription } from './resources/contact';
import { invoiceDescription } from './resources/invoice';
import { meDescription } from './resources/me';
import { organizationDescription } from './resources/organization';
import { quoteDescription } from './resources/quote';
import { requestDescription } from './resources/request';
import { webhookDescription } from './resources/webhook';
import { getEventTypes } from '../shared/api/eventTypes';
import { executeRoutedRequest } from './shared/requestHook';

export class BusinessOps implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Ops',
		name: 'businessOps',
		icon: {
			light: 'file:../../icons/businessOps.svg',
			dark: 'file:../../icons/businessOps.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Manage contacts, quotes, invoices, organization settings, AI agents, customer requests and webhooks of the Business Operations API',
		defaults: { name: 'Business Ops' },
		usableAsTool: true,
		builderHint: {
			searchHint:
				'Business Operations API: contacts, quotes with line items, invoices, customer requests, AI agents and their runs, organization settings, webhook subscriptions',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-business-ops.businessOpsTrigger',
					relationHint: 'Starts a workflow when a quote, invoice, request or agent event happens',
				},
			],
		},
		hints: [
			{
				message:
					'Update Fields is empty: add at least one field to change, or the node refuses to send the update',
				type: 'warning',
				location: 'outputPane',
				whenToDisplay: 'beforeExecution',
				displayCondition:
					'={{$parameter["operation"] === "update" && $parameter["updateFields"] !== undefined && Object.keys($parameter["updateFields"]).length === 0}}',
			},
			{
				message:
					'Return All reads every page: one request per 100 records, each counted against Requests per Minute in the credential (5,000 records take 50 requests; only the requests past that limit within a minute wait for room). Turn it off and set a Limit to read only what you need.',
				type: 'info',
				location: 'outputPane',
				whenToDisplay: 'beforeExecution',
				displayCondition: '={{$parameter["returnAll"] === true}}',
			},
		],
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'businessOpsApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl}}',
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
		},
		// RoutingNode hands each item's request to this hook (shared/requestHook.ts): the Resource field sets `paginate`
		requestOperations: { pagination: executeRoutedRequest },
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Agent', value: 'agent' },
					{ name: 'Agent Run', value: 'agentRun' },
					{ name: 'API Key', value: 'me' },
					{ name: 'Contact', value: 'contact' },
					{ name: 'Customer Request', value: 'request' },
					{ name: 'Invoice', value: 'invoice' },
					{ name: 'Organization', value: 'organization' },
					{ name: 'Quote', value: 'quote' },
					{ name: 'Webhook', value: 'webhook' },
				],
				default: 'contact',
				routing: { send: { paginate: true } },
			},
			...agentDescription,
			...agentRunDescription,
			...meDescription,
			...contactDescription,
			...requestDescription,
			...invoiceDescription,
			...organizationDescription,
			...quoteDescription,
			...webhookDescription,
		],
	};

	methods = {
		listSearch,
		loadOptions: { getEventTypes },
	};
}
