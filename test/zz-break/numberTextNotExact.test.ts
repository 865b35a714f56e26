/**
 * Break b28a (minor): numeric text a JavaScript number cannot hold exactly. typing.ts promises to
 * read "a number the way a person typed it, refusing anything ambiguous … rather than guessed";
 * issue 28: the value the check accepted is the value sent. "9007199254740993" passes the
 * whole-number check only after rounding and is sent as 9007199254740992 (a different number), and
 * "99999999999999999999999" is sent as 1e+23. Expected: refused naming the field and [item N]
 * (or sent exactly, which a JSON number from JavaScript cannot do), never silently changed.
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { nodeType, recordRequests } from '../harness/description';
import { runDeclarativeNode, TEST_API_KEY, TEST_BASE_URL } from '../harness/engine';

const credentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, requestsPerMinute: 100000 };

test.each(['9007199254740993', '99999999999999999999999'])(
	'Default Payment Terms (Days) %s is not sent as another number',
	async (value) => {
		const requests = recordRequests();
		const { items } = await runDeclarativeNode(
			nodeType,
			{
				resource: 'organization',
				operation: 'update',
				updateFields: { defaultPaymentTermsDays: '={{ $json.value }}' },
			},
			{ items: [{ json: { value } as INodeParameters }], credentials, continueOnFail: true },
		);
		nock.cleanAll();
		expect(items[0].error?.message).toMatch(/^Default Payment Terms \(Days\): .* \[item 0\]$/);
		expect(requests).toEqual([]);
	},
);
