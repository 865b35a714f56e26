/**
 * What a user does: Contact → Create or Update with Email `{{ $json.email }}`, where the spreadsheet
 * cell holds `jan@shop.x` followed by a pasted zero-width space (U+200B) — the very case the
 * operation claims to handle ("zero-width characters do not matter").
 *
 * What happens: the Email check (an e-mail needs a top-level domain of 2+ characters) reads the
 * text WITH the zero-width space, so "x\u200b" counts as a 2-character domain and the check passes;
 * the create then strips the zero-width space and POSTs `jan@shop.x`, a value the check refuses
 * (Contact → Create refuses `jan@shop.x` itself). The same holds for an address made only of
 * zero-width characters around `@` and `.`: it passes and `@.` is sent.
 *
 * What should happen: the check reads the address in the form that is sent (as fields.ts promises:
 * "the value its check accepted is the value sent"), so the item is refused before anything is sent.
 */
import nock from 'nock';

import { runDeclarativeNode } from '../harness/engine';
import { node } from '../harness/actionNode';

const upsert = {
	resource: 'contact',
	operation: 'upsert',
	email: '={{ $json.email }}',
	name: 'Jan',
};

test.each([
	['a pasted zero-width space after a one-letter domain', 'jan@shop.x\u200b'],
	['only zero-width characters around @ and .', '\u200b@\u200b.\u200b\u200b'],
])(
	'Create or Update does not POST an address its own e-mail check refuses: %s',
	async (_, given) => {
		const posted: unknown[] = [];
		const scope = nock('https://api.business-ops.test')
			.get('/v1/contacts')
			.query(true)
			.reply(200, { data: [], meta: { page: 1, pageSize: 100, total: 0, hasMore: false } })
			.post('/v1/contacts', (body) => (posted.push(body), true))
			.reply(201, { data: { id: 'ctc_1', name: 'Jan' } });
		const outcome = await runDeclarativeNode(node, upsert, {
			items: [{ json: { email: given } }],
			continueOnFail: true,
		});
		scope.persist(false);
		// the check refuses `jan@shop.x` when given plainly; the address sent must pass that same check
		expect(posted).toEqual([]);
		expect(String(outcome.items[0].json.error)).toMatch(/Email: .* is not an e-mail address/);
	},
);

test('control: the plain address the upsert would send is refused by the check', async () => {
	const outcome = await runDeclarativeNode(node, upsert, {
		items: [{ json: { email: 'jan@shop.x' } }],
		continueOnFail: true,
	});
	expect(String(outcome.items[0].json.error)).toMatch(/is not an e-mail address/);
});
