import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	searchAgentRuns,
	searchAgents,
	searchContacts,
	searchInvoices,
	searchQuotes,
	searchRequests,
	searchWebhooks,
} from './listSearch';
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
import { withEmptyValueRule } from './shared/emptyValues';
import { executeRoutedRequest } from './shared/routingSeam';
import { beginItem, guardInputChecks } from './shared/stopOnError';

export class BusinessOps implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Ops',
		name: 'businessOps',
		icon: { light: 'file:../../icons/businessOps.svg', dark: 'file:../../icons/businessOps.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Manage contacts, quotes, invoices, organization settings, AI agents, customer requests and webhooks of the Business Operations API',
		defaults: { name: 'Business Ops' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'businessOpsApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl}}',
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
		},
		// The seam with n8n's RoutingNode (see shared/routingSeam.ts): the Resource field sets
		// `paginate` for every operation, so RoutingNode hands each request to this hook.
		requestOperations: { pagination: executeRoutedRequest },
		// Values that resolve to nothing are "not given" (shared/emptyValues.ts); input checks report
		// a failed item to the write order (shared/stopOnError.ts).
		properties: guardInputChecks(withEmptyValueRule([
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
				// beginItem: the first step of every item in every try (shared/stopOnError.ts)
				routing: { send: { paginate: true, preSend: [beginItem] } },
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
		])),
	};

	methods = {
		listSearch: {
			searchAgentRuns,
			searchAgents,
			searchContacts,
			searchInvoices,
			searchQuotes,
			searchRequests,
			searchWebhooks,
		},
		loadOptions: { getEventTypes },
	};
}
