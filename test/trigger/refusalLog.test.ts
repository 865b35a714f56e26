import type { IWebhookFunctions } from 'n8n-workflow';

import { logRefusal } from '../../nodes/BusinessOpsTrigger/refusalLog';

/** A webhook context with only what the refusal log reads; its warnings recorded. */
function context(): { ctx: IWebhookFunctions; lines: string[] } {
	const lines: string[] = [];
	const ctx = { logger: { warn: (line: string) => lines.push(line) }, getNode: () => ({ name: 'Trigger' }), getWorkflow: () => ({ id: 'wf' }) };
	return { ctx: ctx as unknown as IWebhookFunctions, lines };
}

const NOW_MS = 1_700_000_000_000;

test('one line a minute per trigger and kind of reason: the kinds are a fixed set, whatever the reason names', () => {
	const { ctx, lines } = context();
	// the refusal reasons the trigger gives, one per kind, in the words of its code
	const oneOfEachKind = [
		'signature does not match (checked as HMAC-SHA256 of {ID}.{timestamp}.{body} with the base64 after whsec_, …)',
		'signature does not match (Auto has not yet seen a verified delivery of this subscription in this n8n process and tried only the 2 most likely forms …)',
		'timestamp too old',
		'missing signature header (no header name contains "signature")',
		'no signing secret is stored',
		'Custom signature: set "Signature Header"',
		'body is not a JSON object',
		'the delivery could not be checked',
	];
	for (const reason of oneOfEachKind) logRefusal(ctx, 'trigger-1', 401, reason, NOW_MS);
	expect(lines).toHaveLength(oneOfEachKind.length);
	// the same kinds again, some naming headers a request chose: nothing more within the minute
	const again = [
		...oneOfEachKind,
		'signature does not match',
		'Auto has not yet seen a verified delivery of this subscription in this n8n process and does not search a body over 1048576 bytes; …',
		'timestamp in the future',
		'malformed timestamp',
		"the stored signing secret does not open with this credential's API key …",
		'the signing key is shorter than 16 bytes after decoding',
		'"Timestamp Tolerance (Seconds)" must be a number of seconds, 0 or more (it is "5m"); …',
		'the raw request body is not available',
		'signature could not be checked',
		...Array.from({ length: 100 }, (_, i) => `malformed x-${i}-signature header: no HMAC-SHA256 value in hex or base64`),
		...Array.from({ length: 100 }, (_, i) => `missing x-${i}-id header`),
	];
	for (const reason of again) logRefusal(ctx, 'trigger-1', 401, reason, NOW_MS + 59_999);
	expect(lines).toHaveLength(oneOfEachKind.length);
	// another trigger has its own limiter; a minute later every kind is logged again
	logRefusal(ctx, 'trigger-2', 401, 'timestamp too old', NOW_MS);
	for (const reason of oneOfEachKind) logRefusal(ctx, 'trigger-1', 401, reason, NOW_MS + 60_000);
	expect(lines).toHaveLength(2 * oneOfEachKind.length + 1);
});
