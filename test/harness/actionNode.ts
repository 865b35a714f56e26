/**
 * What the action node's tests share: the node as n8n loads it, the API host of the test
 * credential, an interceptor on it, a run of the node, and a stateful contacts API.
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import {
	loadNodeType,
	runDeclarativeNode,
	runListSearch,
	TEST_API_KEY,
	TEST_BASE_URL,
} from './engine';

export const node = loadNodeType(new BusinessOps());

/** The test credential's API host (its Base URL is this with `/v1`: engine.ts `TEST_BASE_URL`). */
export const API = 'https://api.business-ops.test';

/** An interceptor on the API that answers only requests carrying the test credential's key. */
export const api = (base = API) =>
	nock(base, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });

/** An invoice's statuses (spec 3), in the order of its life. */
export const INVOICE_STATUSES = [
	'draft',
	'finalized',
	'sent',
	'viewed',
	'paid',
	'overdue',
	'in_collection',
	'written_off',
];

/** Runs the action node over the options' items (engine.ts `runDeclarativeNode`). */
export const run = async (
	parameters: INodeParameters,
	options: Parameters<typeof runDeclarativeNode>[2] = {},
) => await runDeclarativeNode(node, parameters, options);

/** Create or Update with each item's own `email` and `name`. */
export const UPSERT: INodeParameters = {
	resource: 'contact',
	operation: 'upsert',
	email: '={{ $json.email }}',
	name: '={{ $json.name }}',
};

/** An interceptor on the credential's Base URL: paths as the API document writes them (no `/v1`). */
export const baseApi = () => api(TEST_BASE_URL);

/** The list search `method` of `resource` → Get, for `filter`. */
export const searchOf = async (method: string, resource: string, filter: string) =>
	await runListSearch(node, method, { resource, operation: 'get' }, filter);

/** `run` with the resource set: the tests of one resource name only the operation and its fields. */
export const runOn =
	(resource: string) =>
	async (parameters: INodeParameters, options: Parameters<typeof run>[1] = {}) =>
		await run({ resource, ...parameters }, options);

export type Contact = { id: string; name: string; email?: string };

/**
 * A stateful contacts API: POST creates (unless `refuse` answers first), PATCH changes, GET lists;
 * every write is logged. `delayMs` makes each answer take that long (real time).
 */
export function contactsApi(
	refuse: (method: string, body: Contact, sent: number) => [number, object] | undefined = () =>
		undefined,
	delayMs = 0,
) {
	const contacts: Contact[] = [];
	const writes: string[] = [];
	const scope = nock(API).persist();
	scope
		.get('/v1/contacts')
		.query(true)
		.delay(delayMs)
		.reply(200, () => ({
			data: contacts,
			meta: { page: 1, pageSize: 100, total: contacts.length, hasMore: false },
		}));
	scope
		.post('/v1/contacts')
		.delay(delayMs)
		.reply((_uri, body) => {
			const contact = body as Contact;
			writes.push(`POST ${contact.name}`);
			const refused = refuse('POST', contact, writes.length);
			if (refused) return refused;
			const created = { ...contact, id: `ctc_${contacts.length + 1}` };
			contacts.push(created);
			return [201, { data: created }];
		});
	scope
		.patch(/\/v1\/contacts\/.*/)
		.delay(delayMs)
		.reply((uri, body) => {
			writes.push(`PATCH ${(body as Contact).name}`);
			const refused = refuse('PATCH', body as Contact, writes.length);
			if (refused) return refused;
			const contact = contacts.find((c) => c.id === uri.split('/').pop());
			if (!contact) return [404, { error: { code: 'not_found', message: 'Contact not found' } }];
			Object.assign(contact, body);
			return [200, { data: contact }];
		});
	return { contacts, writes };
}
