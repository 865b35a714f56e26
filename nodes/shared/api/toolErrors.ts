/** The one wording of the client's errors, for the author or a model: ARCHITECTURE.md, "What the package relies on in n8n", Tool mode. */
import type { INode } from 'n8n-workflow';
import { extractFromAICalls, NodeOperationError } from 'n8n-workflow';

/** Whether the node runs as an AI tool: n8n gives the tool copy of a node the type `<package>.<node>Tool`. */
export function runsAsTool(node: INode): boolean {
	return node.type.endsWith('Tool');
}

/** The `$fromAI` keys in a parameter value, at any depth; a call n8n could not read names nothing. */
function argumentsIn(value: unknown): string[] {
	if (value && typeof value === 'object')
		return [...new Set(Object.values(value).flatMap(argumentsIn))];
	if (typeof value !== 'string' || !value.includes('$fromAI')) return [];
	try {
		return [...new Set(extractFromAICalls(value).map((call) => call.key))];
	} catch {
		return [];
	}
}

function parameterValue(parameters: unknown, name: string): unknown {
	const path = name.split('.');
	let value: unknown = parameters;
	for (const step of path)
		value =
			value && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
	if (value !== undefined || path.length > 1 || !parameters || typeof parameters !== 'object')
		return value;
	return Object.values(parameters)
		.map((child) => parameterValue(child, name))
		.find((found) => found !== undefined);
}

const idArgumentsOf = (node: INode) =>
	argumentsIn(
		Object.values(node.parameters).filter(
			(value) => (value as { __rl?: unknown } | null)?.__rl === true,
		),
	);

function argumentNames(keys: string[], joiner = 'or'): string {
	const quoted = keys.map((key) => `"${key}"`);
	return quoted.length > 1
		? `${quoted.slice(0, -1).join(', ')} ${joiner} ${quoted.at(-1)}`
		: (quoted[0] ?? '');
}

/**
 * An error for a model. n8n 2.41's AI Agent v3 hands the model only the error's message, so the
 * message carries what to do too (the description repeats it for the log).
 */
export function toolError(node: INode, problem: string, advice: string): NodeOperationError {
	return new NodeOperationError(node, `${problem}. ${advice}`, { description: advice });
}

/** For a model: what no argument can change (a setting of the tool, the service): tell the user. */
export const TOOL_TELL_USER = 'Changing the arguments will not help: tell the user what failed.';

const TOOL_TRY_LATER =
	'The service is busy or unavailable: tell the user to try again later instead of repeating the call now.';

const TOOL_MAY_EXIST =
	'The service may have made the change although the call failed: read the record (or list the records) to check before calling again, or tell the user.';

/** Whether a failed request may have made its write (transport.ts says so on the error). */
export const mayHaveWritten = (error: unknown): boolean =>
	(error as Pick<Fault, 'written'>).written === 'unknown';

/** A value a field's check refused, for the model: the argument(s) that give the field, or that none does. */
export function toolInputProblem(
	node: INode,
	field: string,
	problem: string,
	parameter: string | string[] = [],
): NodeOperationError {
	const keys = argumentsIn([parameter].flat().map((name) => parameterValue(node.parameters, name)));
	// typing.ts words a refused value for the workflow's author: the model gave it as an argument
	problem = problem.replace(
		'the expression gave',
		keys.length > 0 ? 'the argument gave' : "the tool's setting gave",
	);
	if (keys.length === 0) {
		return toolError(
			node,
			`${field}: ${problem}`,
			`"${field}" is set in this tool, not by an argument. ${TOOL_TELL_USER} Nothing was sent.`,
		);
	}
	const which = `${keys.length > 1 ? 'Arguments' : 'Argument'} ${argumentNames(keys)}`;
	return toolError(
		node,
		`${which}: ${problem}`,
		`Change the ${argumentNames(keys)} argument and call the tool again. Nothing was sent.`,
	);
}

/** "Custom API Call" chosen for a tool: a declarative node has no request of its own for it. */
export const toolCustomApiCall = (node: INode) =>
	toolError(
		node,
		'This tool is set up with "Custom API Call", which it cannot run',
		`${TOOL_TELL_USER} Nothing was sent.`,
	);

/** Create or Update's e-mail matches several contacts: the e-mail is right, the data is not (another e-mail would create a contact nobody asked for). */
export const toolDuplicateContacts = (node: INode, problem: string) =>
	toolError(
		node,
		problem,
		'Do not change the e-mail. Tell the user to merge the duplicate contacts, or update one of them with its contact ID. Nothing was written.',
	);

/** An update whose every field was left empty, for the model: the arguments that give a field. */
export function toolNothingToChange(node: INode): NodeOperationError {
	const ids = idArgumentsOf(node);
	const keys = argumentsIn(node.parameters).filter((key) => !ids.includes(key));
	if (keys.length === 0) {
		return toolError(
			node,
			'Nothing to change: this tool sets no field of the record',
			`${TOOL_TELL_USER} Nothing was sent.`,
		);
	}
	return toolError(
		node,
		`Nothing to change: ${argumentNames(keys, 'and')} ${keys.length > 1 ? 'were all' : 'was'} empty`,
		`Give at least one of ${argumentNames(keys)} the new value and call the tool again; an empty argument changes nothing. Nothing was sent.`,
	);
}

/**
 * One error of the client, described once: what failed and what to do, for the workflow's author
 * (`[item N]` is added), and why, from which `forModel` words it. `setup`: the tool's connection (the
 * credential; `setting` names what); `tellUser`: nothing the model can change; `noAnswer`'s `detail`:
 * the network code, kept out of the message; `said`: what the API's own message adds for both readers.
 */
export interface Fault {
	problem: string;
	/** `unknown`: a write that may have been made although it failed (no answer, or a 5xx without the API's error body). */
	written?: 'unknown';
	fix?: string;
	target: string;
	itemIndex?: number;
	why:
		| { kind: 'setup'; setting?: string }
		| { kind: 'stopped' }
		| { kind: 'tellUser' }
		| { kind: 'wait'; waitMs: number }
		| { kind: 'noAnswer'; repeated: boolean; detail: string }
		| { kind: 'status'; status: number; scope?: string; said: string };
}

/** What a model can change, by the API's status: its arguments, or nothing (then it tells the user). */
const TOOL_FIX_BY_STATUS: Record<number, string> = {
	409: 'A record with the same unique value already exists: use that record instead of creating another.',
	413: 'Send fewer line items or shorter texts.',
	414: 'Use shorter IDs or filter values.',
	422: "The record's current status does not allow this change: read the record and choose an action its status allows.",
};

function toolFixForStatus(node: INode, status: number, scope: string | undefined): string {
	if (TOOL_FIX_BY_STATUS[status]) return TOOL_FIX_BY_STATUS[status];
	const keys = argumentsIn(node.parameters);
	if (status === 400) {
		return keys.length > 0
			? `The API refused a value: change the argument that gives it (${argumentNames(keys)}) and call the tool again.`
			: `The API refused a value this tool sets itself. ${TOOL_TELL_USER}`;
	}
	if (status === 404) {
		const ids = idArgumentsOf(node);
		return ids.length > 0
			? `No record has this ID. Check the ${argumentNames(ids)} argument (IDs look like the ones other tools returned), or find the record first.`
			: `The record this tool works on does not exist. ${TOOL_TELL_USER}`;
	}
	if (status === 403 && scope)
		return `This tool lacks the permission "${scope}" for this. ${TOOL_TELL_USER}`;
	if (status === 401 || status === 403)
		return `This tool is not allowed to do this. ${TOOL_TELL_USER}`;
	if (status === 429 || status >= 500) return TOOL_TRY_LATER;
	return keys.length > 0
		? `Check the arguments (${argumentNames(keys, 'and')}) against the tool description; if they are right, tell the user what failed.`
		: TOOL_TELL_USER;
}

/** A fault as a model reads it: no item, no workflow, node or credential. */
function forModel(
	node: INode,
	{ problem, target, why, written }: Fault,
): { problem: string; advice: string; detail?: string } {
	switch (why.kind) {
		case 'setup':
			return {
				problem: why.setting
					? `This tool's connection is set up wrongly (${why.setting})`
					: `Could not send ${target}: this tool's connection is set up wrongly`,
				advice: TOOL_TELL_USER,
			};
		case 'tellUser':
			return { problem, advice: TOOL_TELL_USER };
		case 'stopped':
			return {
				problem: `Not sent: the run was stopped while ${target} waited`,
				advice:
					'The run was stopped by the user or the service: do not call the tool again unless the user asks.',
			};
		case 'wait': {
			const seconds = Math.ceil(why.waitMs / 1000);
			return {
				problem: `The service asked to wait ${seconds} s before the next request (HTTP 429, ${target})`,
				advice: `Tell the user to try again in ${Math.ceil(seconds / 60)} minutes instead of repeating the call now.`,
			};
		}
		case 'noAnswer': {
			const advice = written === 'unknown' ? TOOL_MAY_EXIST : TOOL_TRY_LATER;
			return { problem, advice, detail: `${advice} ${why.detail}` };
		}
		case 'status':
			return {
				problem,
				advice:
					written === 'unknown'
						? TOOL_MAY_EXIST
						: why.said + toolFixForStatus(node, why.status, why.scope),
			};
	}
}

/** A fault worded for its reader: a model in tool mode, else the workflow's author (with `[item N]`). */
export function worded(
	node: INode,
	fault: Fault,
): { message: string; description?: string; itemIndex?: number } {
	if (!runsAsTool(node))
		return {
			message: fault.problem + (fault.itemIndex === undefined ? '' : ` [item ${fault.itemIndex}]`),
			description: fault.fix,
			itemIndex: fault.itemIndex,
		};
	const { problem, advice, detail } = forModel(node, fault);
	return { message: `${problem}. ${advice}`, description: detail ?? advice };
}

export function faultError(node: INode, fault: Fault): NodeOperationError {
	const { message, ...options } = worded(node, fault);
	return Object.assign(new NodeOperationError(node, message, options), { written: fault.written });
}
