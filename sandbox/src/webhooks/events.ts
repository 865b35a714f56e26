/** The event types this sandbox emits, with the change that emits each one. */
export const EVENT_TYPES = [
	{
		type: 'contact.created',
		resource: 'contact',
		description: 'A contact was created (POST /contacts, or by an agent processing a request).',
	},
	{
		type: 'quote.created',
		resource: 'quote',
		description: 'A quote was created (POST /quotes, or as output of a processed request).',
	},
	{
		type: 'quote.sent',
		resource: 'quote',
		description: 'A quote status was updated to sent through PATCH /quotes/{id}.',
	},
	{
		type: 'quote.approved',
		resource: 'quote',
		description: 'A quote status was updated to approved through PATCH /quotes/{id}.',
	},
	{
		type: 'quote.canceled',
		resource: 'quote',
		description: 'A quote status was updated to canceled through PATCH /quotes/{id}.',
	},
	{
		type: 'invoice.created',
		resource: 'invoice',
		description: 'An invoice was created (POST /invoices).',
	},
	{
		type: 'invoice.sent',
		resource: 'invoice',
		description: 'An invoice status was updated to sent through PATCH /invoices/{id}.',
	},
	{
		type: 'invoice.paid',
		resource: 'invoice',
		description: 'An invoice status was updated to paid through PATCH /invoices/{id}.',
	},
	{
		type: 'request.received',
		resource: 'request',
		description: 'A customer request was received (POST /requests).',
	},
	{
		type: 'request.processed',
		resource: 'request',
		description: 'An agent processed a customer request.',
	},
	{
		type: 'request.failed',
		resource: 'request',
		description: 'A customer request could not be processed (for example: its agent is paused).',
	},
	{
		type: 'agent.paused',
		resource: 'agent',
		description: 'An agent was paused (POST /agents/{id}/pause).',
	},
	{
		type: 'agent.resumed',
		resource: 'agent',
		description: 'An agent was resumed (POST /agents/{id}/resume).',
	},
] as const;

export type EventType = (typeof EVENT_TYPES)[number]['type'];
export type EventResource = (typeof EVENT_TYPES)[number]['resource'];

export const EVENT_TYPE_NAMES: readonly string[] = EVENT_TYPES.map((e) => e.type);

export function isEventType(value: unknown): value is EventType {
	return typeof value === 'string' && EVENT_TYPE_NAMES.includes(value);
}

export function resourceOf(type: EventType): EventResource {
	return EVENT_TYPES.find((e) => e.type === type)!.resource;
}
