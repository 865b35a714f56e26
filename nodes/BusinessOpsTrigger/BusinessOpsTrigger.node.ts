import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { getEventTypes } from '../shared/api/eventTypes';
import { eventTypeOf, outputHeaders, parseEventBody, toEvent } from './delivery';
import {
	DEFAULT_TOLERANCE_SECONDS,
	type HeaderBag,
	type SignatureScheme,
	verifyDelivery,
} from './signature';
import {
	checkSubscription,
	chosenEvents,
	createSubscription,
	deleteSubscription,
	storedSubscription,
	webhookSlot,
} from './subscription';

interface TriggerOptions {
	includeHeaders?: boolean;
	signatureHeader?: string;
	signatureScheme?: SignatureScheme;
	timestampTolerance?: number;
}

/** Answers the sender with an error status and a short reason; starts no execution. */
function refuse(ctx: IWebhookFunctions, status: number, reason: string): IWebhookResponseData {
	ctx.getResponseObject().status(status).json({ error: reason });
	return { noWebhookResponse: true };
}

export class BusinessOpsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Ops Trigger',
		name: 'businessOpsTrigger',
		icon: { light: 'file:../../icons/businessOps.svg', dark: 'file:../../icons/businessOps.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when Business Ops sends an event: invoices sent or paid, quotes created or approved, customer requests received',
		defaults: { name: 'Business Ops Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'businessOpsApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName: 'Event Names or IDs',
				name: 'events',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getEventTypes' },
				required: true,
				default: [],
				description:
					'The events that start the workflow. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers to the output (Authorization and Cookie headers are left out)',
					},
					{
						displayName: 'Signature Header',
						name: 'signatureHeader',
						type: 'string',
						default: '',
						placeholder: 'X-Hub-Signature-256',
						description:
							'The header that carries a GitHub-style or Stripe-style signature. Leave empty for X-Hub-Signature-256 (GitHub-style) and Stripe-Signature (Stripe-style).',
					},
					{
						displayName: 'Signature Scheme',
						name: 'signatureScheme',
						type: 'options',
						default: 'auto',
						description: 'How each delivery is signed; one that does not verify is refused with HTTP 401',
						options: [
							{
								name: 'Auto',
								value: 'auto',
								description:
									'Accept a delivery that verifies under any of the schemes below. Pick the exact scheme to rule out the GitHub-style one, which carries no timestamp.',
							},
							{
								name: 'GitHub-Style',
								value: 'github',
								description: 'Header "sha256=&lt;hex HMAC-SHA256 of the body&gt;"; no timestamp',
							},
							{
								name: 'None (Insecure)',
								value: 'none',
								description: 'Accept every request without checking a signature',
							},
							{
								name: 'Standard Webhooks',
								value: 'standardWebhooks',
								description:
									'Header webhook-signature "v1,&lt;base64&gt;" with webhook-timestamp and the message ID header',
							},
							{
								name: 'Stripe-Style',
								value: 'stripe',
								description: 'Header "t=&lt;timestamp&gt;,v1=&lt;hex HMAC-SHA256&gt;"',
							},
						],
					},
					{
						displayName: 'Timestamp Tolerance (Seconds)',
						name: 'timestampTolerance',
						type: 'number',
						default: DEFAULT_TOLERANCE_SECONDS,
						typeOptions: { minValue: 1 },
						description:
							'How far the signed timestamp may be from the current time, in the past or the future, before a delivery is refused as a possible replay (Standard Webhooks and Stripe-style)',
					},
				],
			},
			{
				displayName:
					'Signatures are not checked: anyone who knows the webhook URL can start this workflow. Choose a signature scheme under Options unless another layer protects the URL.',
				name: 'noSignatureNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { '/options.signatureScheme': ['none'] } },
			},
		],
	};

	methods = {
		loadOptions: { getEventTypes },
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkSubscription(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await createSubscription(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				try {
					return await deleteSubscription(this);
				} catch (error) {
					// n8n ignores the answer of delete; a thrown error would stop the deactivation.
					// The record stays, so the next activation checks that subscription again.
					this.logger.warn(
						`Business Ops Trigger "${this.getNode().name}" could not delete its webhook subscription: ${(error as Error).message}`,
					);
					return false;
				}
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const headers = req.headers as HeaderBag;
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const scheme = options.signatureScheme ?? 'auto';
		const subscription = storedSubscription(this, webhookSlot(this));

		const verified = verifyDelivery({
			scheme,
			secret: subscription?.secret,
			headers,
			rawBody: req.rawBody,
			signatureHeader: options.signatureHeader,
			toleranceSeconds: options.timestampTolerance ?? DEFAULT_TOLERANCE_SECONDS,
			nowSeconds: Math.floor(Date.now() / 1000),
		});
		if (!verified.valid) {
			this.logger.warn(
				`Business Ops Trigger "${this.getNode().name}" refused a delivery with HTTP 401: ${verified.reason}`,
			);
			return refuse(this, 401, verified.reason);
		}

		// The bytes just verified are the ones read; only without a signature check may n8n's
		// own parse of the body stand in for missing raw bytes.
		const body =
			parseEventBody(req.rawBody) ??
			(scheme === 'none' && req.rawBody === undefined && req.body && typeof req.body === 'object'
				? (req.body as IDataObject)
				: undefined);
		if (!body) return refuse(this, 400, 'body is not a JSON object');

		const type = eventTypeOf(body);
		if (type === null || !chosenEvents(this).includes(type)) {
			return { webhookResponse: { received: true, ignored: `event type not selected: ${type ?? '(none)'}` } };
		}

		const event = toEvent(body, headers, verified.timestamp);
		if (options.includeHeaders) event.headers = outputHeaders(headers);
		return { workflowData: [this.helpers.returnJsonArray([event])] };
	}
}
