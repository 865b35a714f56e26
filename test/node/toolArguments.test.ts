/** The arguments a model is told about are each named once, whichever parameters give them. */
import type { INode } from 'n8n-workflow';

import { toolNothingToChange } from '../../nodes/shared/api/toolErrors';

test('an argument used by two fields is named once', () => {
	const node = {
		type: 'n8n-nodes-business-ops.businessOpsTool',
		parameters: {
			updateFields: {
				name: "={{ $fromAI('name', 'The new name') }}",
				notes: "={{ 'Renamed to ' + $fromAI('name', 'The new name') }}",
			},
		},
	} as unknown as INode;
	expect(toolNothingToChange(node).message).toBe(
		'Nothing to change: "name" was empty. Give at least one of "name" the new value and call the tool again; an empty argument changes nothing. Nothing was sent.',
	);
});
