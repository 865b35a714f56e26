import type { IHookFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { activationError } from './api/activation';
import { asText, givenAs } from './typing';

/** The one reading of "Event Names or IDs"; a non-text entry is refused, not sent as "null". */
export function eventNamesOf(value: unknown): { events: string[] } | { problem: string } {
	const given: unknown[] =
		typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
	const events: string[] = [];
	for (const [index, entry] of given.entries()) {
		const typed = entry === null || entry === undefined ? undefined : asText(entry);
		if (typed === undefined || !('value' in typed)) {
			return {
				problem: `entry ${index + 1} of the list must be an event type (text); the expression gave ${givenAs(entry)}`,
			};
		}
		const event = String(typed.value).trim();
		if (event !== '') events.push(event);
	}
	return { events };
}

export function chosenEvents(
	ctx: IHookFunctions | IWebhookFunctions | IPollFunctions,
	activation = false,
): string[] {
	const read = eventNamesOf(ctx.getNodeParameter('events', []));
	if ('events' in read && read.events.length > 0) return read.events;
	const [problem, fix] =
		'problem' in read
			? [`Event Names or IDs: ${read.problem}`, 'Change the field']
			: ['No event is chosen', 'Choose at least one event in "Event Names or IDs"'];
	const description = 'The trigger receives only the chosen events.';
	throw activation
		? activationError(ctx.getNode(), problem, fix, description)
		: new NodeOperationError(ctx.getNode(), `${problem}. ${fix}.`, { description });
}

/** A trigger's subtitle: its Event Names, given as a list or as text ("a, b") from an expression. */
export function eventsSubtitle(prefix = ''): string {
	const names =
		'Array.isArray($parameter["events"]) ? $parameter["events"].join(", ") : String($parameter["events"] ?? "")';
	return prefix ? `={{${JSON.stringify(prefix)} + (${names})}}` : `={{${names}}}`;
}
