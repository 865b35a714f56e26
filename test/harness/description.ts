/**
 * Cases generated over the node's whole description: every resource and operation, and in each,
 * every field (collection and fixedCollection leaves included), with parameters that give that
 * one field a value and every required field a valid one. Nothing here lists the fields: they come
 * from the description, so a new field is covered as soon as it exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { operations as walkOperations, type Operation } from '../shared/fieldWalker';
import { loadNodeType, TEST_BASE_URL } from './engine';

export const nodeType = loadNodeType(new BusinessOps());
const properties = nodeType.description.properties;

/** A valid value for a field, by what its checks accept (shared with the e2e area engine). */
export const SAMPLE_BY_NAME = JSON.parse(
	readFileSync(join(__dirname, '..', 'fixtures', 'field-samples.json'), 'utf8'),
) as INodeParameters;

export type { FieldCase, Operation } from '../shared/fieldWalker';
export { baseParameters, casesOf, sample } from '../shared/fieldWalker';

/** Every resource and operation of the node with its fields, by the walk the e2e area engine uses too. */
export function operations(): Operation[] {
	return walkOperations(properties);
}

export interface Sent {
	method: string;
	path: string;
	query: IDataObject;
	body: IDataObject;
}

/**
 * Answers every request like the API would for one record or one page, and records it. A list
 * read that a write to the same list follows is that write's look-up (Create or Update reads the
 * contacts to match on e-mail), not what the operation's fields send: it is left out.
 */
export function recordRequests(): Sent[] {
	const sent: Sent[] = [];
	const reply = (method: string) =>
		function (this: nock.ReplyFnContext, uri: string, body: nock.Body): nock.ReplyFnResult {
			const url = new URL(uri, TEST_BASE_URL);
			const last = sent[sent.length - 1];
			if (
				method !== 'GET' &&
				last?.method === 'GET' &&
				'page' in last.query &&
				url.pathname.startsWith(last.path)
			)
				sent.pop();
			sent.push({
				method,
				path: url.pathname,
				query: Object.fromEntries(url.searchParams.entries()),
				body: (typeof body === 'object' && body !== null ? body : {}) as IDataObject,
			});
			if (method === 'GET')
				return [
					200,
					{ data: [{ id: 'x_1' }], meta: { page: 1, pageSize: 100, total: 1, hasMore: false } },
				];
			return [method === 'POST' ? 201 : 200, { data: { id: 'x_1' } }];
		};
	const scope = nock('https://api.business-ops.test').persist();
	for (const method of ['GET', 'POST', 'PATCH', 'DELETE'])
		scope.intercept(/.*/, method).reply(reply(method));
	return sent;
}
