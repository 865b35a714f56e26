/**
 * What a user does: Contact → Create or Update under On Error "Continue" with Retry On Fail on.
 * n8n (1.123, 2.x) runs the node again when the FIRST output item is an error item
 * (docs/n8n-features.md, "Retry On Fail"). Three rows: row 0's create gets a 500 in try 1 (so
 * n8n tries again); rows 1 and 2 carry the same new address. Row 1's expression fails in try 1
 * only, row 0's in try 2 only (an expression whose outcome differs per try, e.g. one on `$now`;
 * here an input field that is not JSON in one chosen try, so `$json.raw.parseJson()` throws).
 *
 * What happens: in try 2 the first item to reach the seam is row 1, which never arrived in try 1,
 * so itemOrder.ts does not see a new try and keeps try 1's finished run for it (with try 1's
 * contact index: "no memory of the previous try" does not hold); row 2 then arrives "a second
 * time" and starts another run. Rows 1 and 2 are sent side by side in two runs: row 2's write is
 * allowed while row 1's is in flight. Here the contact try 1 created was deleted before try 2:
 * row 1 PATCHes it from try 1's memory (404, an error item), row 2 reads afresh and creates it.
 *
 * What should happen: each try is a run of its own (docs/n8n-features.md: "a try starts with no
 * memory"), ordered: row 1 reads afresh and creates the contact, row 2 updates it.
 */
import nock from 'nock';
import type { INodeExecutionData } from 'n8n-workflow';

import { runWithRetries } from '../harness/engine';
import { node } from '../harness/actionNode';

test('Retry On Fail + Continue: a try whose first arriving item is new is still a new run; with no memory of the previous try', async () => {
	let tryNo = 1;
	/** An input field whose expression fails in the given try only. */
	const flaky = (email: string, failsIn: number) => ({
		// `{{ $json.raw.parseJson().email }}` throws (never built) in the try where raw is not JSON
		get raw() {
			return tryNo === failsIn ? 'not json' : JSON.stringify({ email });
		},
		name: email,
	});
	const items: INodeExecutionData[] = [
		{ json: flaky('first@example.com', 2) },
		{ json: flaky('dup@example.com', 1) },
		{ json: { raw: JSON.stringify({ email: 'dup@example.com' }), name: 'row 2' } },
	];
	// a stateful API: the list shows what was created; a write takes a moment to answer
	const contacts: Array<{ id: string; email: string; name: string }> = [];
	const events: string[] = [];
	const api = nock('https://api.business-ops.test').persist();
	api
		.get('/v1/contacts')
		.query(true)
		.reply(200, () => ({
			data: contacts,
			meta: { page: 1, pageSize: 100, total: contacts.length, hasMore: false },
		}));
	api
		.post('/v1/contacts')
		.delay(100)
		.reply((_uri, body) => {
			const { email, name } = body as { email: string; name: string };
			events.push(`try ${tryNo}: POST ${name}`);
			if (tryNo === 1 && email === 'first@example.com')
				return [500, { error: { code: 'internal', message: 'boom' } }];
			const contact = { id: `ctc_${contacts.length + 1}`, email, name };
			contacts.push(contact);
			return [201, { data: contact }];
		});
	api
		.patch(
			/\/v1\/contacts\/.*/,
			(body) => (events.push(`try ${tryNo}: PATCH ${body.name} sent`), true),
		)
		.delay(100)
		.reply((uri, body) => {
			const contact = contacts.find((c) => c.id === uri.split('/').pop());
			if (!contact) return [404, { error: { code: 'not_found', message: 'Contact not found' } }];
			events.push(`try ${tryNo}: PATCH ${(body as { name: string }).name} answered`);
			contact.name = (body as { name: string }).name;
			return [200, { data: contact }];
		});

	const parameters = {
		resource: 'contact',
		operation: 'upsert',
		email: '={{ $json.raw.parseJson().email }}',
		name: '={{ $json.name }}',
	};
	const tries = await runWithRetries(node, parameters, {
		items,
		maxTries: 2,
		onError: 'continueRegularOutput',
		betweenTries: () => {
			tryNo++;
			// between the tries the contact try 1 created is deleted in the dashboard
			contacts.splice(0);
		},
	});
	const outputs = tries.map((t) => t.items ?? []);
	expect(outputs).toHaveLength(2);
	// try 2 reads the contacts afresh: none has dup@example.com, so row 1 creates it and row 2 updates it
	expect(outputs[1].slice(1).map((i) => i.json.action ?? i.json.error)).toEqual([
		'created',
		'updated',
	]);
}, 15000);
