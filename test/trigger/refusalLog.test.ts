/**
 * The refusal log's kinds of reason (trust.ts reasonKind): each is logged at most once a minute per
 * subscription (test/trigger/trigger.test.ts runs that through the engine); here, that the kinds
 * are a fixed set, whatever a reason names.
 */
import { reasonKind } from '../../nodes/BusinessOpsTrigger/trust';

test('each reason the trigger gives has its kind; reasons naming headers a request chose add no kind', () => {
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
	const kinds = oneOfEachKind.map((reason) => reasonKind(reason).kind);
	expect(kinds).toEqual(['signature', 'search', 'window', 'headers', 'secret', 'settings', 'body', 'other']);
	// more reasons, some naming headers a request chose: the same kinds
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
	expect([...new Set(again.map((reason) => reasonKind(reason).kind))].sort()).toEqual([...kinds].sort());
});
