/** Event types named in the spec, offered when the API's own list cannot be read. */
export const KNOWN_EVENT_TYPES = [
	'invoice.sent',
	'invoice.paid',
	'quote.approved',
	'quote.created',
	'request.received',
];
