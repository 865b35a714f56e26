import {
	localHostReason,
	unreachableWebhookProblem,
} from '../../nodes/BusinessOpsTrigger/reachability';

/**
 * 1bdf489 refused every webhook host of the form `[::x]` (seven zero groups, then any group: the
 * IPv4-compatible range ::/96's low end, which nothing on the internet routes) as "an unspecified
 * address". The shrink (6c0c68e, privateV6 matching only the exact texts `::` and `::1`) lets
 * `[::2]`, `[::a00]`, `[::fe80]` through: publishing subscribes a URL no public API can reach.
 */
describe('trigger reachability IPv4 compatible zeros accepted', () => {
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
});

/**
 * docs/subscriptions.md ("Can the API reach n8n?") promises that IPv4 addresses written inside IPv6
 * are refused like the IPv4 address itself. Only the IPv4-mapped form `::ffff:a.b.c.d` is: the
 * IPv4-compatible form `::a.b.c.d` (new URL() writes `[::7f00:1]`) and the IPv4-translated form
 * `::ffff:0:a.b.c.d` of a loopback or private address are taken as public, and publishing
 * subscribes a URL no public API can reach. (1bdf489 behaved the same: not a shrink regression.)
 */
describe('trigger reachability IPv4 in IPv6 other forms subscribed', () => {
	const API = 'https://api.example.com/v1';
	test.each([
		['http://[::127.0.0.1]:5678/webhook/a', 'loopback, IPv4-compatible'],
		['http://[::10.0.0.8]/webhook/a', 'private, IPv4-compatible'],
		['http://[::192.168.1.20]/webhook/a', 'private, IPv4-compatible'],
		['http://[::ffff:0:127.0.0.1]/webhook/a', 'loopback, IPv4-translated'],
		['http://[::ffff:0:10.0.0.8]/webhook/a', 'private, IPv4-translated'],
	])('%s (%s) is refused with a public API', (url) => {
		expect(unreachableWebhookProblem(url, API)).toBeDefined();
	});
});
