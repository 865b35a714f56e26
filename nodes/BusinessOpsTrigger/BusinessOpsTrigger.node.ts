import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { activationError } from '../shared/api/activation';
import { asBoolean } from '../shared/typing';
import { getEventTypes } from '../shared/api/eventTypes';
import { textOf } from '../shared/event';
import { chosenEvents, eventsSubtitle } from '../shared/eventNames';
import { customSignatureOf, customSignatureOption } from './signatures/customProperties';
import { customProblem, schemeOf } from './signatures/verify';
import { eventTypeOf, outputHeaders, toEvent } from './delivery';
import { DEFAULT_TOLERANCE_SECONDS, toleranceOf } from './signatures/hmac';
import { checkSubscription, createSubscription, deleteSubscription } from './subscription';
import { noteDelivery, seenBefore, trustDelivery, type Delivery, type TrustOptions } from './trust';

const SWITCHES = {
	ignoreRepeatedDeliveries: 'Ignore Repeated Deliveries',
	includeHeaders: 'Include Headers',
	skipReachabilityCheck: 'Skip Reachability Check',
} as const;

/** A yes/no option by the package's boolean rule ("true" text is true); unset or unreadable is off (checkSettings refuses it). */
function isOn(options: IDataObject, name: keyof typeof SWITCHES): boolean {
	const typed = asBoolean(options[name]);
	return 'value' in typed && typed.value === true;
}

/** Answers a refused delivery without workflow data, so a stranger cannot end "Listen for test event". */
function refuse(
	ctx: IWebhookFunctions,
	options: TrustOptions,
	{ status, reason }: Delivery & { accepted: false },
): IWebhookResponseData {
	const manual = ctx.getMode() === 'manual';
	if (manual && status === 400 && schemeOf(options.signatureScheme) !== 'none') {
		throw new NodeOperationError(ctx.getNode(), `Delivery refused (HTTP ${status}): ${reason}`, {
			description:
				"The delivery to the test URL was signed with the subscription's secret, but its body is not a JSON object, so no test event was produced.",
		});
	}
	// outside "Listen for test event" a refused sender learns nothing about the reason
	const answer =
		status === 401
			? { error: 'invalid signature', ...(manual ? { reason } : {}) }
			: { error: reason };
	ctx.getResponseObject().status(status).json(answer);
	return { noWebhookResponse: true };
}

/** Fails the activation when a setting would refuse every delivery; run by checkExists too (n8n skips create when it exists). */
function checkSettings(ctx: IHookFunctions): void {
	const options = ctx.getNodeParameter('options', {}) as TrustOptions & IDataObject;
	const tolerance = toleranceOf(options.timestampTolerance);
	const scheme = schemeOf(options.signatureScheme);
	const custom = scheme === 'custom' ? customSignatureOf(options) : undefined;
	const problem =
		typeof scheme === 'object'
			? scheme.problem
			: typeof tolerance !== 'number'
				? tolerance.problem
				: custom && ('problem' in custom ? custom.problem : customProblem(custom));
	if (problem) throw activationError(ctx.getNode(), problem, 'Change it under Options');
	for (const [name, label] of Object.entries(SWITCHES)) {
		const typed = options[name] === undefined ? undefined : asBoolean(options[name]);
		if (typed && 'problem' in typed)
			throw activationError(ctx.getNode(), `${label}: ${typed.problem}`, 'Change it under Options');
	}
}

export class BusinessOpsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Ops Trigger',
		name: 'businessOpsTrigger',
		icon: {
			light: 'file:../../icons/businessOps.svg',
			dark: 'file:../../icons/businessOps.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle(),
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
				displayName:
					'The API sends each event to this n8n at once, so n8n needs a URL the API can reach, and events sent while n8n is down are lost. On a laptop, a home or office network, or when nothing may be lost, use the Business Ops Polling Trigger instead.',
				name: 'pollingTriggerNotice',
				type: 'notice',
				default: '',
			},
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
					customSignatureOption,
					{
						displayName: 'Event Type Field',
						name: 'eventTypeField',
						type: 'string',
						default: '',
						placeholder: 'meta.eventName',
						description:
							'Where the body holds the event type, as a dot path. Leave empty to read type, event, eventType or event_type, then a header such as X-Business-Ops-Event.',
					},
					{
						displayName: 'Ignore Repeated Deliveries',
						name: 'ignoreRepeatedDeliveries',
						type: 'boolean',
						default: false,
						description:
							"Whether to answer 200 without starting the workflow again when this n8n process already accepted a delivery with the same delivery ID (the message ID the signature covers, else the signed body's ID), however much later the API retries it. The last 10,000 IDs are kept in this process's memory only: with several webhook processes (queue mode) or n8n instances, a repeat that reaches another process starts the workflow again, and a restart forgets them. With several webhook processes, give the load balancer affinity by the webhook URL's path, so that retries reach the process that remembers them.",
					},
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
						description:
							'How each delivery is signed; one that does not verify is refused with HTTP 401',
						options: [
							{
								name: 'Auto',
								value: 'auto',
								description:
									'Find the signature in any header whose name contains "signature", in the common forms. Once a delivery verified, this n8n process checks later ones of the subscription in its signed content and key only; header names and order may change.',
							},
							{
								name: 'Custom',
								value: 'custom',
								description: 'Set the header, value form, signed content and key by hand',
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
						displayName: 'Skip Reachability Check',
						name: 'skipReachabilityCheck',
						type: 'boolean',
						default: false,
						description:
							"Whether to subscribe even when n8n's webhook URL is localhost, a private address or a local name while the API's Base URL is public. Turn it on only when the API reaches this n8n over a VPN or private network.",
					},
					{
						displayName: 'Timestamp Tolerance (Seconds)',
						name: 'timestampTolerance',
						type: 'number',
						default: DEFAULT_TOLERANCE_SECONDS,
						typeOptions: { minValue: 1 },
						description:
							'How far the signed timestamp may be from the current time, in the past or the future, before a delivery is refused as a possible replay (whenever a timestamp is signed)',
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
				checkSettings(this);
				return await checkSubscription(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				checkSettings(this);
				const options = this.getNodeParameter('options', {}) as IDataObject;
				return await createSubscription(this, isOn(options, 'skipReachabilityCheck'));
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteSubscription(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const options = this.getNodeParameter('options', {}) as TrustOptions & {
			eventTypeField?: string;
		};
		const delivery = await trustDelivery(this, options);
		if (!delivery.accepted) return refuse(this, options, delivery);
		const { body, headers } = delivery;

		const typeReading = eventTypeOf(body, headers, options.eventTypeField);
		const { type, from } = typeReading;
		if (type === null) {
			const at = options.eventTypeField ? `, nothing at ${options.eventTypeField}` : '';
			noteDelivery(
				this,
				delivery,
				'type',
				`could not read the event type of a verified delivery (no type, event, eventType or event_type field, no event type header${at}); starting the workflow with type null and typeUnknown true. Set "Event Type Field" under Options if the API puts it elsewhere`,
			);
		} else if (!chosenEvents(this).includes(type)) {
			// the type may come from a header nothing signs: it is named, cut short
			noteDelivery(
				this,
				delivery,
				'type',
				`answered 200 and ignored a delivery of event type ${JSON.stringify(type.slice(0, 100))} (read from ${from}): it is not among the chosen events`,
			);
			return { webhookResponse: { received: true, ignored: `event type not selected: ${type}` } };
		}

		// signed data only: an unsigned header never decides the id (anyone could change it on a replay)
		const deliveryId = textOf(delivery.form.signedId) ?? textOf(body.id);
		if (
			isOn(options as IDataObject, 'ignoreRepeatedDeliveries') &&
			deliveryId !== null &&
			seenBefore(delivery, deliveryId)
		) {
			noteDelivery(
				this,
				delivery,
				'repeat',
				`ignored delivery ${JSON.stringify(deliveryId.slice(0, 100))}: already accepted`,
			);
			return { webhookResponse: { received: true, ignored: `repeated delivery: ${deliveryId}` } };
		}

		const event = toEvent(body, typeReading, deliveryId, delivery.timestamp);
		if (isOn(options as IDataObject, 'includeHeaders')) event.headers = outputHeaders(headers);
		return { workflowData: [this.helpers.returnJsonArray([event])] };
	}
}
