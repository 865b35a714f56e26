/**
 * Every error the node can raise, as a model calling it as a tool reads it (n8n's tool copy of the
 * node, type `…Tool`): it says what to change in which argument the model sees (the `$fromAI` keys),
 * or that the call can be made later, or what the API said and to tell the user. Never an item
 * number, never advice for the workflow's author.
 *
 * The input checks are walked over the whole description: for every operation, every field that
 * can take a value is given by an argument of its own, and each argument in turn gets values a
 * model might send wrongly. The other paths (network, the API's answers, an empty update, a
 * cancelled run, items not sent) follow, one test each.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import nock from 'nock';
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	NodeParameterValueType,
} from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { MAX_RETRY_AFTER_MS } from '../../nodes/shared/api/rateBudget';
import { realClock } from '../harness/clock';
import { loadNodeType, runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';
import { API } from '../harness/actionNode';

const nodeType = loadNodeType(new BusinessOps());
const properties = nodeType.description.properties;
const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };

/** A valid value for a field, by what its checks accept (shared with the e2e area engine). */
const SAMPLE_BY_NAME = JSON.parse(
	readFileSync(join(__dirname, '..', 'fixtures', 'field-samples.json'), 'utf8'),
) as IDataObject;

/** Values a model may send for an argument that the field's check may refuse (JSON: no NaN, no Date). */
const WRONG_VALUES: unknown[] = ['', 'not valid/..', { a: 1 }];
const WRONG_NUMBERS: unknown[] = ['', 'abc', -1.5];

/** Advice for the workflow's author that a model can do nothing with. */
const FOR_THE_AUTHOR =
	/\bworkflow\b|\bnode\b|dashboard|credential|Base URL|On Error|expression|run it again|HTTP Request|pick one from the list|Update Fields/i;

/** An error's message and description (n8n's log and the editor show both). */
function textOf(error: unknown): string {
	const { message, description } = error as { message?: string; description?: string | null };
	return `${message ?? ''}\n${description ?? ''}`;
}

/**
 * The rules every tool-mode error keeps; `names` is what it must say (an argument, or a way on),
 * in the message: n8n 2.41's AI Agent v3 hands the model the message only, not the description.
 */
function expectForTheModel(error: unknown, names: RegExp | string) {
	const text = textOf(error);
	expect(text).not.toMatch(/\[item \d+\]|for item \d/);
	expect(text).not.toMatch(FOR_THE_AUTHOR);
	const { message } = error as { message: string };
	if (typeof names === 'string') expect(message).toContain(names);
	else expect(message).toMatch(names);
}

const networkError = (message: string, code: string) => Object.assign(new Error(message), { code });
const fromAi = (key: string) => `={{ $fromAI('${key}') }}`;

function sample(field: INodeProperties): unknown {
	if (field.name in SAMPLE_BY_NAME) return SAMPLE_BY_NAME[field.name];
	switch (field.type) {
		case 'resourceLocator':
			return 'x_1';
		case 'number':
			return 5;
		case 'boolean':
			return true;
		case 'options':
			return (field.options as INodePropertyOptions[])[0].value;
		case 'multiOptions':
			return ['invoice.paid'];
		default:
			return 'Sample';
	}
}

/** One field the model gives: the argument's key, a value the field takes and values it may refuse. */
interface Argument {
	key: string;
	good: unknown;
	wrong: unknown[];
	required: boolean;
}

/** A tool node set up for one operation: its parameters and the arguments they ask the model for. */
interface Tool {
	title: string;
	parameters: INodeParameters;
	arguments: Argument[];
}

/** Fields that decide whether others show (Return All, Items Input, …): the tool's author sets them. */
const deciders = new Set(
	properties.flatMap((p) => [
		...Object.keys(p.displayOptions?.show ?? {}),
		...Object.keys(p.displayOptions?.hide ?? {}),
	]),
);
deciders.delete('resource');
deciders.delete('operation');

/** Whether a field shows for these values of Resource, Operation and the deciding fields. */
function shownFor(field: INodeProperties, values: IDataObject): boolean {
	const { show = {}, hide = {} } = field.displayOptions ?? {};
	return (
		Object.entries(show).every(([name, allowed]) =>
			(allowed as unknown[]).includes(values[name]),
		) &&
		!Object.entries(hide).some(([name, hidden]) => (hidden as unknown[]).includes(values[name])) &&
		!['resource', 'operation', 'requestOptions'].includes(field.name)
	);
}

/** The parameter value that asks the model for `field` under `key`, collecting the arguments. */
function asked(
	field: INodeProperties,
	key: string,
	args: Argument[],
): NodeParameterValueType | INodeParameters {
	if (field.type === 'collection') {
		return Object.fromEntries(
			(field.options as INodeProperties[]).map((child) => [
				child.name,
				asked(child, `${key}_${child.name}`, args),
			]),
		);
	}
	if (field.type === 'fixedCollection') {
		const group = (field.options as Array<{ name: string; values: INodeProperties[] }>)[0];
		const row = Object.fromEntries(
			group.values.map((leaf) => [leaf.name, asked(leaf, `${key}_${leaf.name}`, args)]),
		);
		return { [group.name]: field.typeOptions?.multipleValues ? [row] : row } as INodeParameters;
	}
	args.push({
		key,
		good: sample(field),
		wrong: field.type === 'number' ? WRONG_NUMBERS : WRONG_VALUES,
		required: Boolean(field.required),
	});
	return field.type === 'resourceLocator'
		? { __rl: true, mode: 'id', value: fromAi(key) }
		: fromAi(key);
}

/** Every operation, once with its deciding fields at their defaults and once per other value of each. */
function tools(): Tool[] {
	const resources = (
		properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]
	).map((o) => String(o.value));
	return resources.flatMap((resource) => {
		const selector = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		)!;
		return (selector.options as INodePropertyOptions[]).flatMap((option) => {
			const operation = String(option.value);
			const deciding = properties.filter(
				(field) => deciders.has(field.name) && shownFor(field, { resource, operation }),
			);
			const defaults = Object.fromEntries(
				deciding.map((field) => [field.name, field.default]),
			) as IDataObject;
			const choices = deciding.flatMap((field) => {
				const values =
					field.type === 'boolean'
						? [true, false]
						: (field.options as INodePropertyOptions[]).map((o) => o.value);
				return values
					.filter((value) => value !== field.default)
					.map((value) => ({ [field.name]: value }) as INodeParameters);
			});
			return [{}, ...choices].map((chosen) => {
				const args: Argument[] = [];
				const parameters: INodeParameters = { resource, operation, ...chosen };
				const fields = properties.filter((field) =>
					shownFor(field, { ...defaults, ...chosen, resource, operation }),
				);
				for (const field of fields) {
					if (field.noDataExpression || deciders.has(field.name)) continue;
					parameters[field.name] = asked(field, field.name, args) as NodeParameterValueType;
				}
				return {
					title: `${resource} ${operation} ${JSON.stringify(chosen)}`,
					parameters,
					arguments: args,
				};
			});
		});
	});
}

/** Answers every request like the API would for one record or one page. */
function answerEverything() {
	const scope = nock(API).persist();
	for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
		scope
			.intercept(/.*/, method)
			.reply(() =>
				method === 'GET'
					? [
							200,
							{ data: [{ id: 'x_1' }], meta: { page: 1, pageSize: 100, total: 1, hasMore: false } },
						]
					: [200, { data: { id: 'x_1' } }],
			);
	}
}

/**
 * The samples for every argument, except those a check refuses together (Items and Items (JSON)
 * of an update: one of them is left empty, that is not given).
 */
async function goodArguments(tool: Tool): Promise<IDataObject> {
	const good = Object.fromEntries(tool.arguments.map((a) => [a.key, a.good])) as IDataObject;
	for (let attempt = 0; attempt < 3; attempt++) {
		const { items } = await runDeclarativeNode(nodeType, tool.parameters, {
			items: [{ json: good }],
			credentials,
			asTool: true,
			continueOnFail: true,
		});
		const named = tool.arguments.filter((a) => items[0].error?.message.includes(`"${a.key}"`));
		if (named.length === 0) break;
		good[named[named.length - 1].key] = '';
	}
	return good;
}

afterEach(() => {
	nock.cleanAll();
	realClock();
});

describe('input checks, walked over the whole description', () => {
	const all = tools();

	test('the walk reaches every operation and the fields that are checked', () => {
		expect(new Set(all.map((t) => t.title.split(' {')[0])).size).toBeGreaterThan(40);
		const keys = all.flatMap((t) => t.arguments.map((a) => a.key));
		expect(keys).toEqual(
			expect.arrayContaining([
				'contactId',
				'limit',
				'updateFields_email',
				'items_quantity',
				'itemsJson',
				'events',
				'actionOverrides_mode',
			]),
		);
	});

	/**
	 * One run per tool, under Continue (n8n 1.123 needs it for a tool's error to reach the model):
	 * item 0 gives every argument a good value and must go through; each further item gives one
	 * argument a wrong value. Every error must be worded for the model and name that argument.
	 */
	test.each(all.map((t) => [t.title, t] as const))('%s', async (_title, tool) => {
		answerEverything();
		const good = await goodArguments(tool);
		const cases = tool.arguments.flatMap((arg) =>
			arg.wrong.map((wrong) => ({
				key: arg.key,
				args: { ...good, [arg.key]: wrong } as IDataObject,
			})),
		);
		const toolArguments = [good, ...cases.map((c) => c.args)];
		const items: INodeExecutionData[] = toolArguments.map(() => ({ json: {} }));
		const { items: output } = await runDeclarativeNode(nodeType, tool.parameters, {
			items,
			toolArguments,
			credentials,
			asTool: true,
			continueOnFail: true,
		});
		expect(output[0].error).toBeUndefined();
		const failed = cases
			.map((c, index) => ({ ...c, error: output[index + 1]?.error }))
			.filter((c) => c.error);
		for (const { key, error } of failed) {
			expectForTheModel(error, `"${key}"`);
			// in the message itself: whatever of the description a tool's caller passes on
			expect((error as Error).message).toContain(`"${key}"`);
		}
		// the walk reaches the checks: a required argument left empty is refused
		const refused = new Set(failed.map((c) => c.key));
		expect(tool.arguments.filter((a) => a.required && !refused.has(a.key))).toEqual([]);
	});

	const updates = all.filter((t) => /^\w+ (update|updateAutonomy) \{\}$/.test(t.title));
	test.each(updates.map((t) => [t.title, t] as const))(
		'%s: every argument "" changes nothing: refused, naming arguments that give a field',
		async (_title, tool) => {
			const scope = nock(API)
				.persist()
				.intercept(/.*/, 'PATCH')
				.reply(200, { data: { id: 'x_1' } });
			const isId = (key: string) => key.endsWith('Id');
			const args = Object.fromEntries(tool.arguments.map((a) => [a.key, isId(a.key) ? 'x_1' : '']));
			const { items: output } = await runDeclarativeNode(nodeType, tool.parameters, {
				items: [{ json: args }],
				credentials,
				asTool: true,
				continueOnFail: true,
			});
			expect(scope.isDone()).toBe(false);
			const fields = tool.arguments.filter((a) => !isId(a.key)).map((a) => a.key);
			expectForTheModel(output[0].error, new RegExp(`"(${fields.join('|')})"`));
		},
	);
});

describe('the other error paths', () => {
	const createContact = { resource: 'contact', operation: 'create', name: fromAi('name') };
	const getContact = {
		resource: 'contact',
		operation: 'get',
		contactId: { __rl: true, mode: 'id', value: fromAi('contactId') },
	};
	const byModel = (args: IDataObject) => ({ items: [{ json: args }], credentials, asTool: true });
	const failure = async (parameters: INodeParameters, args: IDataObject, options: object = {}) =>
		await runDeclarativeNode(nodeType, parameters, { ...byModel(args), ...options }).then(
			() => {
				throw new Error('the call did not fail');
			},
			(error: unknown) => error,
		);

	test('a write that gets no answer: the change may have been made; read the record first', async () => {
		nock(API).post('/v1/contacts').replyWithError(networkError('socket hang up', 'ECONNRESET'));
		const error = (await failure(createContact, { name: 'Bakkerij' })) as Error;
		expect(error.message).toMatch(
			/^Could not complete POST \/contacts: the connection was closed by the server\. /,
		);
		// n8n replaces a message holding a network code with a generic text: the code stays in the description
		expect(error.message).not.toMatch(/ECONNRESET/i);
		expectForTheModel(error, /may have made the change .*: read the record/);
	});

	test('a write refused before it left (connection refused): nothing was made; try again later', async () => {
		nock(API)
			.post('/v1/contacts')
			.replyWithError(networkError('connect ECONNREFUSED', 'ECONNREFUSED'));
		const error = (await failure(createContact, { name: 'Bakkerij' })) as Error;
		expect(error.message).not.toMatch(/ECONNREFUSED/i);
		expectForTheModel(error, /try again later/);
	});

	test('a read that gets no answer after its retries: try again later', async () => {
		nock(API)
			.get('/v1/contacts/ctc_1')
			.times(5)
			.replyWithError(networkError('socket hang up', 'ECONNRESET'));
		expectForTheModel(await failure(getContact, { contactId: 'ctc_1' }), /try again later/);
	});

	test('a request the connection refuses before sending (its key is not in the right form): tell the user', async () => {
		const error = await failure(
			getContact,
			{ contactId: 'ctc_1' },
			{ credentials: { ...credentials, apiKey: 'not-a-key' } },
		);
		expectForTheModel(error, /set up wrongly[\s\S]*tell the user/);
	});

	test('a server error on a write: try again later', async () => {
		nock(API)
			.post('/v1/contacts')
			.reply(500, { error: { code: 'internal_error', message: 'Something broke' } });
		expectForTheModel(
			await failure(createContact, { name: 'Bakkerij' }),
			/Something broke[\s\S]*try again later/,
		);
	});

	test('a Retry-After longer than the node waits: try again in so many minutes', async () => {
		const seconds = (MAX_RETRY_AFTER_MS / 1000) * 5;
		nock(API)
			.get('/v1/contacts/ctc_1')
			.reply(
				429,
				{ error: { code: 'rate_limited', message: 'Too many requests' } },
				{ 'Retry-After': String(seconds) },
			);
		expectForTheModel(
			await failure(getContact, { contactId: 'ctc_1' }),
			new RegExp(`wait ${seconds} s[\\s\\S]*try again in ${seconds / 60} minutes`),
		);
	});

	test('rate limited after every attempt: try again later', async () => {
		nock(API)
			.get('/v1/contacts/ctc_1')
			.times(5)
			.reply(
				429,
				{ error: { code: 'rate_limited', message: 'Too many requests' } },
				{ 'Retry-After': '1' },
			);
		expectForTheModel(await failure(getContact, { contactId: 'ctc_1' }), /try again later/);
	});

	const apiErrors: Array<[number, string, string, RegExp | string]> = [
		[
			400,
			'invalid_request',
			'email must be an e-mail address',
			/email must be an e-mail address[\s\S]*"name"/,
		],
		[401, 'unauthorized', 'Unauthorized', /tell the user/],
		[
			403,
			'insufficient_scope',
			'Missing scope contacts.write',
			/permission "contacts\.write"[\s\S]*tell the user/,
		],
		[404, 'not_found', 'No such route', /No such route/],
		[
			409,
			'duplicate_resource',
			'A contact with this KvK number exists',
			/exists[\s\S]*use that record/,
		],
		[413, 'too_large', 'Body too large', /fewer line items/],
		[418, 'teapot', 'I am a teapot', /teapot[\s\S]*"name"/],
		[422, 'invalid_state', 'Contact is archived', /archived/],
	];
	test.each(apiErrors)(
		'the API answers %i: what the API said, and which argument to change or to tell the user',
		async (status, code, message, names) => {
			nock(API).post('/v1/contacts').reply(status, { error: { code, message } });
			expectForTheModel(await failure(createContact, { name: 'Bakkerij' }), names);
		},
	);

	test("a 422: the API's words lead the advice, then what the model can do", async () => {
		nock(API)
			.post('/v1/contacts')
			.reply(422, { error: { code: 'invalid_state', message: 'Quote is canceled' } });
		const error = (await failure(createContact, { name: 'Bakkerij' })) as Error & {
			description: string;
		};
		expect(error.message).toBe(
			"Quote is cancelled (HTTP 422 invalid_state, POST /contacts). Quote is canceled. The record's current status does not allow this change: read the record and choose an action its status allows.",
		);
		expect(error.description).toBe(
			"Quote is canceled. The record's current status does not allow this change: read the record and choose an action its status allows.",
		);
	});

	test('an unknown ID names the argument that gives it', async () => {
		nock(API)
			.get('/v1/contacts/ctc_9')
			.reply(404, { error: { code: 'not_found', message: 'Contact not found' } });
		expectForTheModel(
			await failure(getContact, { contactId: 'ctc_9' }),
			/Contact not found[\s\S]*Check the "contactId" argument/,
		);
	});

	test('a field the tool sets itself (no argument) is refused saying the arguments cannot fix it', async () => {
		const error = await failure(
			{ ...createContact, additionalFields: { email: 'not-an-address' } },
			{ name: 'Bakkerij' },
		);
		expectForTheModel(error, /"Email" is set in this tool, not by an argument[\s\S]*tell the user/);
	});

	test('an item of a batch not sent because an earlier one failed (On Error: Stop Workflow)', async () => {
		const scope = nock(API)
			.post('/v1/contacts')
			.reply(400, { error: { code: 'invalid_request', message: 'Name taken' } });
		const error = await failure(
			createContact,
			{},
			{ items: [{ json: { name: 'A' } }, { json: { name: 'B' } }] },
		);
		expect(scope.isDone()).toBe(true);
		expectForTheModel(error, /Name taken[\s\S]*"name"/);
	});

	test('a cancelled run: do not call again', async () => {
		const cancel = new AbortController();
		cancel.abort();
		expectForTheModel(
			await failure(getContact, { contactId: 'ctc_1' }, { abortSignal: cancel.signal }),
			/do not call the tool again/,
		);
	});

	test('a wrong Requests per Minute in the connection: tell the user', async () => {
		const error = await failure(
			getContact,
			{ contactId: 'ctc_1' },
			{ credentials: { ...credentials, requestsPerMinute: 'fast' } },
		);
		expectForTheModel(error, /tell the user/);
	});

	test('a list the API pages wrongly (every page answers page 1): no item number, tell the user', async () => {
		const list = {
			data: [{ id: 'ctc_1' }, { id: 'ctc_2' }],
			meta: { page: 1, pageSize: 2, total: 4, hasMore: true },
		};
		nock(API).get('/v1/contacts').query(true).times(4).reply(200, list);
		const error = await failure({ resource: 'contact', operation: 'getAll', returnAll: true }, {});
		expect((error as Error).message).toMatch(
			/^The API answered page 2 of the list with records of an earlier page/,
		);
		expectForTheModel(error, /Changing the arguments will not help: tell the user what failed\.$/);
	});

	test('Custom API Call, which the tool cannot run: tell the user', async () => {
		const error = await failure(
			{ resource: '__CUSTOM_API_CALL__', operation: '__CUSTOM_API_CALL__' },
			{},
		);
		expectForTheModel(error, /tell the user/);
		expect((error as Error).message).toMatch(
			/^This tool is set up with "Custom API Call", which it cannot run/,
		);
	});
});
