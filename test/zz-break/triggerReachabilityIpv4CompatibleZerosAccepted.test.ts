/**
 * 1bdf489 refused every webhook host of the form `[::x]` (seven zero groups, then any group: the
 * IPv4-compatible range ::/96's low end, which nothing on the internet routes) as "an unspecified
 * address". The shrink (6c0c68e, privateV6 matching only the exact texts `::` and `::1`) lets
 * `[::2]`, `[::a00]`, `[::fe80]` through: publishing subscribes a URL no public API can reach.
 */
import {
	localHostReason,
	unreachableWebhookProblem,
} from '../../nodes/BusinessOpsTrigger/reachability';

const hostOf = (url: string) => new URL(url).hostname;

test.each([
	'http://[::2]:5678/webhook/a',
	'http://[::a00]/webhook/a',
	'http://[0:0:0:0:0:0:0:fe80]/webhook/a',
])('%s is refused with a public API, as before the shrink', (url) => {
	expect(localHostReason(hostOf(url))).toBe('an unspecified address');
	expect(unreachableWebhookProblem(url, 'https://api.example.com/v1')).toBeDefined();
});

test('an API at such a host is local too: a local webhook URL is not refused (the check does nothing), as before the shrink', () => {
	expect(
		unreachableWebhookProblem('http://localhost:5678/webhook/a', 'http://[::2]:3000/v1'),
	).toBeUndefined();
});
