/** The polling trigger: parameters and poll(). See ARCHITECTURE.md, "Polling trigger". */
import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import type { BusinessOpsEvent } from '../shared/event';
import { chosenEvents, eventsSubtitle } from '../shared/eventNames';
import { MAX_PAGE_SIZE, readList } from '../shared/api/pages';
import {
	changesOf,
	latestEvent,
	listsFor,
	pollableEvents,
	uniqueRecords,
	type WatchedList,
} from './events';
import { MAX_RECORDS_PER_LIST, readPollState, writePollState, type ListState } from './pollState';

/** The event options, sorted by name as the editor lists them. */
const EVENT_OPTIONS = pollableEvents()
	.map((event) => {
		const [resource, what] = event.split('.');
		const name = `${resource[0].toUpperCase()}${resource.slice(1)} ${what.replace(/_/g, ' ')}`;
		return { name, value: event, description: `Emits ${event}` };
	})
	.sort((a, b) => a.name.localeCompare(b.name));

/** Polls of one trigger node running in this process: a poll that starts while one runs is skipped. */
const running = new Set<string>();

function pollableChosen(ctx: IPollFunctions): string[] {
	const events = chosenEvents(ctx);
	const known = pollableEvents();
	const unknown = events.filter((event) => !known.includes(event));
	if (unknown.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Event Names or IDs: the polling trigger cannot emit ${unknown.map((e) => `"${e}"`).join(', ')}`,
			{
				description: `Choose from: ${known.join(', ')}. For other event types use the Business Ops Trigger (webhook).`,
			},
		);
	}
	return events;
}

/** Every record of one watched list and whether the read is whole; a first poll (`baseline`) reads until it is. */
async function readWatched(ctx: IPollFunctions, list: WatchedList, baseline = false) {
	// Fetch Test Event is the user waiting in the editor: the editor's lane, before waiting runs
	const lane = ctx.getMode() === 'manual' ? 'editor' : 'poll';
	const { records, whole } = await readList(ctx, `/${list.resource}s`, {
		call: { lane },
		maxResults: MAX_RECORDS_PER_LIST + 1,
		untilWhole: baseline,
	});
	if (records.length > MAX_RECORDS_PER_LIST) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The ${list.plural} list holds more than ${MAX_RECORDS_PER_LIST} records`,
			{
				description: `Each poll reads every watched list in full (one request per ${MAX_PAGE_SIZE} records); a list this long is beyond what the polling trigger watches. Use the Business Ops Trigger (webhook) for these events.`,
			},
		);
	}
	return { walk: uniqueRecords(list, records), whole };
}

const byTime = (a: BusinessOpsEvent, b: BusinessOpsEvent) =>
	Date.parse(a.timestamp ?? '') - Date.parse(b.timestamp ?? '') || 0;

/** "Fetch Test Event": the most recent matching record as an event; the state is not read or written. */
async function testEvent(
	ctx: IPollFunctions,
	lists: WatchedList[],
	chosen: Set<string>,
	now: string,
): Promise<INodeExecutionData[][]> {
	const found: BusinessOpsEvent[] = [];
	for (const list of lists) {
		const event = latestEvent(list, (await readWatched(ctx, list)).walk, chosen, now);
		if (event) found.push(event);
	}
	const latest = found.sort(byTime).pop();
	if (!latest) {
		throw new NodeOperationError(ctx.getNode(), 'No record matches the chosen events yet', {
			description: `Fetch Test Event returns the most recent record that would give one of ${[...chosen].join(', ')}. Create or change one (for example a quote), then fetch again.`,
		});
	}
	return [ctx.helpers.returnJsonArray([latest])];
}

/** One production poll: every watched list read in full, compared, and remembered only if all of it succeeded. */
async function pollOnce(
	ctx: IPollFunctions,
	lists: WatchedList[],
	chosen: Set<string>,
	now: string,
): Promise<INodeExecutionData[][] | null> {
	const staticData = ctx.getWorkflowStaticData('node');
	const state = readPollState(staticData);
	const next = new Map<string, ListState>();
	const emitted: BusinessOpsEvent[] = [];
	for (const list of lists) {
		const previous = state.get(list.resource);
		const { walk, whole } = await readWatched(ctx, list, !previous);
		const { events, next: remembered } = changesOf(list, walk, whole, previous, chosen, now);
		emitted.push(...events);
		next.set(list.resource, remembered);
	}
	writePollState(staticData, next);
	return emitted.length > 0 ? [ctx.helpers.returnJsonArray(emitted.sort(byTime))] : null;
}

export class BusinessOpsPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Ops Polling Trigger',
		name: 'businessOpsPollingTrigger',
		icon: {
			light: 'file:../../icons/businessOps.svg',
			dark: 'file:../../icons/businessOps.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		polling: true,
		subtitle: eventsSubtitle('Polls: '),
		description:
			'Starts the workflow when Business Ops records change, by asking the API on a schedule: no public URL needed, and changes made while n8n was down are caught up',
		defaults: { name: 'Business Ops Polling Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'businessOpsApi', required: true }],
		properties: [
			{
				displayName:
					'Asks the API what changed on the schedule below. Use it when the API cannot reach this n8n (a laptop, a home or office network, behind NAT or a VPN) or when nothing may be lost while n8n is down. Events arrive within a poll interval; for instant events on a public n8n, use the Business Ops Trigger (webhook).',
				name: 'pollingNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Event Names or IDs',
				name: 'events',
				type: 'multiOptions',
				options: EVENT_OPTIONS,
				required: true,
				default: [],
				description:
					'The events that start the workflow. A status event is the status a record has now, whatever came in between.',
			},
			{
				displayName: `Cost: each poll reads every list of the chosen events in full, one request per ${MAX_PAGE_SIZE} records of each list, from the credential's Requests per Minute (workflow runs on the same key go first). The first poll after publishing only remembers what exists.`,
				name: 'costNotice',
				type: 'notice',
				default: '',
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const events = pollableChosen(this);
		const chosen = new Set(events);
		const lists = listsFor(events);
		const now = new Date().toISOString();
		if (this.getMode() === 'manual') return await testEvent(this, lists, chosen, now);
		const key = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id}`;
		if (running.has(key)) {
			this.logger.warn(
				`Business Ops Polling Trigger "${this.getNode().name}": the previous poll is still running; this one is skipped`,
			);
			return null;
		}
		running.add(key);
		try {
			return await pollOnce(this, lists, chosen, now);
		} finally {
			running.delete(key);
		}
	}
}
