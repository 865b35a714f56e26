/** The route table: every API route, in the order the OpenAPI document lists them. */
import { agentRoutes } from './resources/agents';
import { contactRoutes } from './resources/contacts';
import { invoiceRoutes } from './resources/invoices';
import { organizationRoutes } from './resources/organization';
import { quoteRoutes } from './resources/quotes';
import { requestRoutes } from './resources/requests';
import { webhookRoutes } from './resources/webhooks';
import { buildOpenApi } from './openapi';
import { RawResponse, type Route } from './router';
import { toYaml } from './yaml';

function wantsYaml(accept: string | string[] | undefined): boolean {
	return /\b(application|text)\/(x-)?yaml\b/i.test(String(accept ?? ''));
}

const openApiRoute: Route = {
	method: 'GET',
	path: '/openapi.json',
	operationId: 'getOpenApi',
	summary: 'This OpenAPI 3.1 description',
	description: 'JSON by default; YAML with `Accept: application/yaml`.',
	tag: 'Meta',
	scope: null,
	response: { status: 200, description: 'The OpenAPI document.', schema: { type: 'object' } },
	errors: [],
	handler: ({ headers, baseUrl }) => {
		const origin = baseUrl.replace(/\/(api\/)?v1$/, '');
		const document = buildOpenApi(apiRoutes, origin);
		return wantsYaml(headers.accept)
			? new RawResponse(toYaml(document), 'application/yaml; charset=utf-8')
			: document;
	},
};

export const apiRoutes: Route[] = [
	...organizationRoutes,
	...contactRoutes,
	...quoteRoutes,
	...invoiceRoutes,
	...agentRoutes,
	...requestRoutes,
	...webhookRoutes,
	openApiRoute,
];
