import { duplicate } from '../errors';
import { newId } from '../ids';
import type { Route } from '../router';
import { readingsOf } from '../readings';
import { list, paginationQuery, single } from '../schemas';
import { newSigningSecret } from '../signing';
import type { OrgData } from '../store';
import type { WebhookRecord } from '../types';
import { webhookView } from '../views';
import { EVENT_TYPE_NAMES, EVENT_TYPES, type EventType } from '../webhooks/events';
import { deleted, findOr404, now, objectBody, paginate } from './common';

const fields = {
	name: {
		type: 'string',
		minLength: 1,
		maxLength: 200,
		description: 'Defaults to the host of url.',
	} as const,
	url: {
		type: 'string',
		format: 'uri',
		maxLength: 2000,
		description: 'http or https URL that receives the deliveries.',
	} as const,
	events: {
		type: 'array',
		minItems: 1,
		maxItems: EVENT_TYPE_NAMES.length,
		items: {
			type: 'string',
			enum: EVENT_TYPE_NAMES,
			'x-error': `a known event type (see GET /webhooks/events): ${EVENT_TYPE_NAMES.join(', ')}`,
		},
	} as const,
	active: {
		type: 'boolean',
		default: true,
		description: 'false pauses deliveries, true resumes them.',
	} as const,
};

interface WebhookInput {
	name?: string;
	url?: string;
	events?: EventType[];
	active?: boolean;
}

/**
 * The spec does not say that the webhook lists are paginated: by default they are, like every
 * list; with the switch webhookListsWithoutMeta they answer every record as `{ data }`, no `meta`.
 */
function listOrPage<T>(app: object, records: T[], query: Record<string, unknown>) {
	return readingsOf(app).webhookListsWithoutMeta ? { data: records } : paginate(records, query);
}

/** 409 when another subscription of the organization has the same url and the same name. */
function assertUnique(org: OrgData, name: string, url: string, selfId?: string): void {
	const other = org.webhooks.all().find((w) => w.id !== selfId && w.url === url && w.name === name);
	if (other)
		throw duplicate(
			`A webhook subscription named "${name}" for this url already exists (${other.id})`,
			'url',
		);
}

export const webhookRoutes: Route[] = [
	{
		method: 'GET',
		path: '/webhooks',
		operationId: 'listWebhooks',
		summary: 'List webhook subscriptions',
		description: 'Paginated like every list (pageSize up to 100). Never includes signing secrets.',
		tag: 'Webhooks',
		scope: 'webhooks.read',
		query: paginationQuery,
		response: {
			status: 200,
			description: 'A page of subscriptions, oldest first.',
			schema: list('Webhook'),
		},
		errors: [400],
		handler: ({ app, org, query }) => listOrPage(app, org.webhooks.all().map(webhookView), query),
	},
	{
		method: 'POST',
		path: '/webhooks',
		operationId: 'createWebhook',
		summary: 'Create a webhook subscription',
		description: 'The response carries signingSecret: the only time it is shown.',
		tag: 'Webhooks',
		scope: 'webhooks.write',
		body: objectBody(fields, ['url', 'events']),
		response: {
			status: 201,
			description: 'The subscription with its signing secret.',
			schema: single('WebhookCreated'),
		},
		errors: [400, 409],
		handler: ({ org, body }) => {
			const input = body as WebhookInput;
			const url = input.url as string;
			const name = input.name ?? new URL(url).host;
			assertUnique(org, name, url);
			const time = now();
			const webhook: WebhookRecord = {
				id: newId('whk'),
				organizationId: org.id,
				name,
				url,
				events: Array.from(new Set(input.events)),
				active: input.active ?? true,
				signingSecret: newSigningSecret(),
				createdAt: time,
				updatedAt: time,
			};
			org.webhooks.add(webhook);
			const { signingSecret } = webhook;
			const view = webhookView(webhook);
			return {
				data: {
					id: view.id,
					name: view.name,
					url: view.url,
					events: view.events,
					active: view.active,
					signingSecret,
					createdAt: view.createdAt,
					updatedAt: view.updatedAt,
				},
			};
		},
	},
	{
		method: 'GET',
		path: '/webhooks/events',
		operationId: 'listWebhookEventTypes',
		summary: 'Event types a subscription can ask for',
		tag: 'Webhooks',
		scope: 'webhooks.read',
		query: paginationQuery,
		response: {
			status: 200,
			description: 'The event types with what emits each.',
			schema: list('EventType'),
		},
		errors: [400],
		handler: ({ app, query }) =>
			listOrPage(
				app,
				EVENT_TYPES.map(({ type, description }) => ({ type, description })),
				query,
			),
	},
	{
		method: 'GET',
		path: '/webhooks/{id}',
		operationId: 'getWebhook',
		summary: 'Get a webhook subscription',
		tag: 'Webhooks',
		scope: 'webhooks.read',
		response: {
			status: 200,
			description: 'The subscription (without secret).',
			schema: single('Webhook'),
		},
		errors: [404],
		handler: ({ org, params }) => ({
			data: webhookView(findOr404(org.webhooks, params.id, 'Webhook')),
		}),
	},
	{
		method: 'PATCH',
		path: '/webhooks/{id}',
		operationId: 'updateWebhook',
		summary: 'Update a webhook subscription (name, url, events, active)',
		tag: 'Webhooks',
		scope: 'webhooks.write',
		body: objectBody(fields),
		response: {
			status: 200,
			description: 'The subscription (without secret).',
			schema: single('Webhook'),
		},
		errors: [400, 404, 409],
		handler: ({ org, params, body }) => {
			const webhook = findOr404(org.webhooks, params.id, 'Webhook');
			const input = body as WebhookInput;
			assertUnique(org, input.name ?? webhook.name, input.url ?? webhook.url, webhook.id);
			if (input.name !== undefined) webhook.name = input.name;
			if (input.url !== undefined) webhook.url = input.url;
			if (input.events !== undefined) webhook.events = Array.from(new Set(input.events));
			if (input.active !== undefined) webhook.active = input.active;
			webhook.updatedAt = now();
			return { data: webhookView(webhook) };
		},
	},
	{
		method: 'DELETE',
		path: '/webhooks/{id}',
		operationId: 'deleteWebhook',
		summary: 'Delete a webhook subscription',
		description: 'Deliveries not yet made to it are dropped.',
		tag: 'Webhooks',
		scope: 'webhooks.write',
		response: {
			status: 200,
			description: 'The id of the deleted subscription.',
			schema: single('Deleted'),
		},
		errors: [404],
		handler: ({ org, params }) => {
			const webhook = findOr404(org.webhooks, params.id, 'Webhook');
			org.webhooks.delete(webhook.id);
			return deleted(webhook.id);
		},
	},
	{
		method: 'POST',
		path: '/webhooks/{id}/test',
		operationId: 'testWebhook',
		summary: 'Send a test event to the subscription',
		description:
			'Sends one event of eventType (with "test": true and a sample record) to the url, whether or not the subscription is active ' +
			'or lists that type; answers after that single attempt (no retries).',
		tag: 'Webhooks',
		scope: 'webhooks.write',
		body: objectBody({ eventType: { type: 'string', enum: EVENT_TYPE_NAMES } }, ['eventType']),
		response: {
			status: 200,
			description: 'The outcome of the attempt.',
			schema: single('TestDelivery'),
		},
		errors: [400, 404],
		handler: async ({ app, org, params, body }) => {
			const webhook = findOr404(org.webhooks, params.id, 'Webhook');
			const attempt = await app.sendTestEvent(org, webhook.id, body.eventType as EventType);
			return {
				data: {
					delivered: attempt.success,
					statusCode: attempt.statusCode,
					error: attempt.error,
					eventId: attempt.eventId,
				},
			};
		},
	},
];
