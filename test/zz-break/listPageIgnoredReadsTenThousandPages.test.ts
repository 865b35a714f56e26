/**
 * The proxy's move: a proxy or cache in front of the API drops the query string (or the API ignores
 * `page`), so every page request is answered with page 1, `hasMore: true`. From page 2 on every
 * record is one already read (the reader's own "no id twice"), yet the page walker keeps reading
 * until its MAX_PAGES safety bound: 10,000 requests per read (about 83 minutes at the default
 * 120 a minute, the credential's whole budget), then once more for each of the 3 reads.
 * Expected: a read whose pages repeat what was read stops early (a few pages) with an error.
 * The stub answers 400 after 60 requests so that the test ends.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { BusinessOps } from '../../nodes/BusinessOps/BusinessOps.node';
import { fastClock, forgetRateBudgets } from '../harness/clock';
import { loadNodeType, runDeclarativeNode } from '../harness/engine';

beforeEach(() => {
	nock.cleanAll();
	forgetRateBudgets();
	fastClock();
});
afterEach(() => nock.cleanAll());

const node = loadNodeType(new BusinessOps());
const API = 'https://api.business-ops.test';

test('Get Many, Return All, every page answered with page 1: fails within a few requests', async () => {
	const first: IDataObject[] = Array.from({ length: 100 }, (_, i) => ({
		id: `ctc_${i}`,
		name: `C${i}`,
	}));
	let requests = 0;
	nock(API)
		.persist()
		.get('/v1/contacts')
		.query(true)
		.reply(() => {
			requests++;
			if (requests > 60)
				return [400, { error: { code: 'stub_end', message: 'the test stub stopped answering' } }];
			return [200, { data: first, meta: { page: 1, pageSize: 100, total: 250, hasMore: true } }];
		});
	const error = (await runDeclarativeNode(node, {
		resource: 'contact',
		operation: 'getAll',
		returnAll: true,
	}).catch((e: unknown) => e)) as Error;
	expect(error).toBeInstanceOf(Error);
	expect(error.message).not.toContain('stub stopped answering');
	expect(error.message).toContain(
		'The API answered page 2 of the list with records of an earlier page, the same on 2 reads',
	);
	expect(requests).toBe(4); // two reads of pages 1 and 2
});
