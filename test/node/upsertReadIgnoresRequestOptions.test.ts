/**
 * Break b31: n8n gives every declarative node "Request Options" (Proxy, Timeout, Ignore SSL Issues),
 * and RoutingNode puts them on each item's request (`proxy`, `timeout`, `skipSslCertificateValidation`,
 * and the credential's `allowedDomains`). Create or Update's writes spread those options, but its
 * list read built a fresh request (`{ method: 'GET', url: '/contacts', qs }`), so the read ignored
 * them: a Proxy was bypassed, the Timeout did not bound the read, Ignore SSL Issues did not apply.
 *
 * Expected: the list read carries the item's Request Options. Shown with Timeout, the option whose
 * effect a mocked API can observe: a list read answered far later than the Timeout fails as a
 * network failure (retried, as every GET), and nothing is written. (A real proxy cannot be used
 * here: the HTTP interception of the test harness hands a proxy agent no socket.)
 */

import { runDeclarativeNode } from '../harness/engine';
import { api, node } from '../harness/actionNode';

test("with a Timeout in Request Options, the list read is bound by it (the read uses the item's Request Options)", async () => {
	api()
		.get('/v1/contacts')
		.query(true)
		.times(5)
		.delay(3_000)
		.reply(200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } });
	const write = api()
		.post('/v1/contacts')
		.reply(201, { data: { id: 'ctc_1', name: 'N', email: 'a@example.com' } });
	const error = await runDeclarativeNode(node, {
		resource: 'contact',
		operation: 'upsert',
		email: 'a@example.com',
		name: 'N',
		requestOptions: { timeout: 100 },
	}).catch((e: Error) => e);
	expect((error as Error).message).toMatch(/Could not complete GET \/contacts/);
	expect(write.isDone()).toBe(false);
}, 30_000);
