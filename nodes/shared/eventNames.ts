import { asText, givenAs } from './typing';

/**
 * The one reading of "Event Names or IDs" (the Webhook operations and the Business Ops Trigger):
 * an expression may give "a, b" text or a list; entries are trimmed and empty ones dropped; each
 * entry is text (a number is read as its text), anything else is refused rather than sent as
 * "null", "undefined" or "[object Object]". Each caller says what an empty list means to it.
 */
export function eventNamesOf(value: unknown): { events: string[] } | { problem: string } {
	const given: unknown[] = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
	const events: string[] = [];
	for (const [index, entry] of given.entries()) {
		const typed = entry === null || entry === undefined ? undefined : asText(entry);
		if (typed === undefined || !('value' in typed)) {
			return { problem: `entry ${index + 1} of the list must be an event type (text); the expression gave ${givenAs(entry)}` };
		}
		const event = String(typed.value).trim();
		if (event !== '') events.push(event);
	}
	return { events };
}

/** A trigger's subtitle: its Event Names, given as a list or as text ("a, b") from an expression. */
export function eventsSubtitle(prefix = ''): string {
	const names = 'Array.isArray($parameter["events"]) ? $parameter["events"].join(", ") : String($parameter["events"] ?? "")';
	return prefix ? `={{${JSON.stringify(prefix)} + (${names})}}` : `={{${names}}}`;
}
