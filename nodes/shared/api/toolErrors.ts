/**
 * Tool mode: the node run by an AI Agent or the MCP Server Trigger as "Business Ops Tool". A model
 * sees only the tool's arguments (the keys of the `$fromAI(key, …)` calls in the node's
 * parameters): its errors say what to change in which argument, or to tell the user, with no item
 * numbers and no advice about the workflow, the node or the credential.
 */
import type { INode } from 'n8n-workflow';
import { extractFromAICalls, NodeOperationError } from 'n8n-workflow';

/** Whether the node runs as an AI tool: n8n gives the tool copy of a node the type `<package>.<node>Tool`. */
export function runsAsTool(node: INode): boolean {
	return node.type.endsWith('Tool');
}

/** Every string in a parameter value, at any depth (collections, resource locators, form rows). */
function stringsIn(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
	return [];
}

/** The `$fromAI` keys in a parameter value; a call n8n could not read either names nothing. */
function argumentsIn(value: unknown): string[] {
	const keys = stringsIn(value).flatMap((text) => {
		if (!text.includes('$fromAI')) return [];
		try {
			return extractFromAICalls(text).map((call) => call.key);
		} catch {
			return [];
		}
	});
	return [...new Set(keys)];
}

/** The value of parameter `name` (a dot path, or a name found at any depth), or undefined. */
function parameterValue(parameters: unknown, name: string): unknown {
	const path = name.split('.');
	let value: unknown = parameters;
	for (const step of path) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
	if (value !== undefined || path.length > 1 || !parameters || typeof parameters !== 'object') return value;
	for (const child of Object.values(parameters)) {
		const found = parameterValue(child, name);
		if (found !== undefined) return found;
	}
	return undefined;
}

/**
 * The arguments the model fills a parameter with: the `$fromAI` keys in the node's parameter `name`
 * (a dot path such as `updateFields.email`, or a name found at any depth), or in every parameter
 * when no name is given.
 */
export function toolArgumentsOf(node: INode, name?: string): string[] {
	return argumentsIn(name === undefined ? node.parameters : parameterValue(node.parameters, name));
}

/** `"email"`, or `"email" or "phone"`: arguments as a model reads them. */
export function argumentNames(keys: string[], joiner = 'or'): string {
	const quoted = keys.map((key) => `"${key}"`);
	return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} ${joiner} ${quoted.at(-1)}` : (quoted[0] ?? '');
}

/**
 * An error for a model calling the node as a tool. n8n 2.41's AI Agent v3 hands the model only the
 * error's message, so the message carries what to do too (the description repeats it for the log).
 */
export function toolError(node: INode, problem: string, advice: string): NodeOperationError {
	return new NodeOperationError(node, `${problem}. ${advice}`, { description: advice });
}

/** For a model: what no argument can change (a setting of the tool, the service): tell the user. */
export const TOOL_TELL_USER = 'Changing the arguments will not help: tell the user what failed.';

/** For a model: the service could not answer now; the same call may work later. */
export const TOOL_TRY_LATER = 'The service is busy or unavailable: tell the user to try again later instead of repeating the call now.';

/**
 * A value a field's check refused, worded for the model: the argument(s) that give the field, or,
 * when the tool sets the field itself, that the arguments cannot fix it.
 */
export function toolInputProblem(
	node: INode,
	field: string,
	problem: string,
	parameter: string | string[] = [],
): NodeOperationError {
	const keys = [...new Set([parameter].flat().flatMap((name) => toolArgumentsOf(node, name)))];
	// typing.ts words a refused value for the workflow's author: the model gave it as an argument
	problem = problem.replace('the expression gave', keys.length > 0 ? 'the argument gave' : "the tool's setting gave");
	if (keys.length === 0) {
		return toolError(node, `${field}: ${problem}`, `"${field}" is set in this tool, not by an argument. ${TOOL_TELL_USER} Nothing was sent.`);
	}
	const which = `${keys.length > 1 ? 'Arguments' : 'Argument'} ${argumentNames(keys)}`;
	return toolError(node, `${which}: ${problem}`, `Change the ${argumentNames(keys)} argument and call the tool again. Nothing was sent.`);
}

/** The arguments that give a record's ID: the `$fromAI` keys inside the node's record pickers. */
function idArgumentsOf(node: INode): string[] {
	const pickers = Object.values(node.parameters).filter((value) => (value as { __rl?: unknown } | null)?.__rl === true);
	return argumentsIn(pickers);
}

/** An update whose every field was left empty, worded for the model: the arguments that give a field. */
export function toolNothingToChange(node: INode): NodeOperationError {
	const ids = idArgumentsOf(node);
	const keys = toolArgumentsOf(node).filter((key) => !ids.includes(key));
	if (keys.length === 0) {
		return toolError(node, 'Nothing to change: this tool sets no field of the record', `${TOOL_TELL_USER} Nothing was sent.`);
	}
	return toolError(
		node,
		`Nothing to change: ${argumentNames(keys, 'and')} ${keys.length > 1 ? 'were all' : 'was'} empty`,
		`Give at least one of ${argumentNames(keys)} the new value and call the tool again; an empty argument changes nothing. Nothing was sent.`,
	);
}

/**
 * What a model calling the node as a tool can change, by status: its arguments, or nothing (then
 * it should tell the user). No item numbers and no advice about the workflow or the credential.
 */
const TOOL_FIX_BY_STATUS: Record<number, string> = {
	409: 'A record with the same unique value already exists: use that record instead of creating another.',
	413: 'Send fewer line items or shorter texts.',
	414: 'Use shorter IDs or filter values.',
	422: "The record's current status does not allow this change: read the record and choose an action its status allows.",
};

export function toolFixForStatus(node: INode, status: number, scope: string | undefined): string {
	if (TOOL_FIX_BY_STATUS[status]) return TOOL_FIX_BY_STATUS[status];
	const keys = toolArgumentsOf(node);
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
	if (status === 403 && scope) return `This tool lacks the permission "${scope}" for this. ${TOOL_TELL_USER}`;
	if (status === 401 || status === 403) return `This tool is not allowed to do this. ${TOOL_TELL_USER}`;
	if (status === 429 || status >= 500) return TOOL_TRY_LATER;
	return keys.length > 0
		? `Check the arguments (${argumentNames(keys, 'and')}) against the tool description; if they are right, tell the user what failed.`
		: TOOL_TELL_USER;
}
