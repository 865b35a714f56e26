import {
	localHostReason,
	unreachableWebhookProblem,
} from '../../nodes/BusinessOpsTrigger/reachability';

/** Hosts as `new URL(...).hostname` gives them (IPv6 in brackets, normalised). */
const hostOf = (url: string) => new URL(url).hostname;

describe('localHostReason', () => {
	test.each([
		['http://localhost:5678/', 'localhost'],
		['http://app.localhost/', 'a local network name (.localhost)'],
		['http://127.0.0.1:5678/', 'a loopback address'],
		['http://127.45.1.2/', 'a loopback address'],
		['http://[::1]:5678/', 'a loopback address'],
		['http://[0:0:0:0:0:0:0:1]/', 'a loopback address'],
		['http://[::ffff:127.0.0.1]/', 'a loopback address'],
		['http://[::ffff:10.1.2.3]/', 'a private address'],
		['http://[::]/', 'an unspecified address'],
		['http://0.0.0.0:5678/', 'an unspecified address'],
		['http://10.0.0.8/', 'a private address'],
		['http://172.16.0.1/', 'a private address'],
		['http://172.31.255.255/', 'a private address'],
		['http://192.168.1.20/', 'a private address'],
		['http://169.254.10.1/', 'a link-local address'],
		['http://100.64.0.1/', 'a carrier-grade NAT address'],
		['http://100.127.255.254/', 'a carrier-grade NAT address'],
		['http://[fd12:3456::1]/', 'a unique local (private) address'],
		['http://[fc00::1]/', 'a unique local (private) address'],
		['http://[fe80::1]/', 'a link-local address'],
		['http://n8n.local/', 'a local network name (.local)'],
		['http://n8n.lan/', 'a local network name (.lan)'],
		['http://n8n.internal/', 'a local network name (.internal)'],
		['http://n8n.home.arpa/', 'a local network name (.home.arpa)'],
		['http://n8n:5678/', 'a single-label name that only a local network resolves'],
		['http://N8N.LOCAL./', 'a local network name (.local)'],
	])('%s is local: %s', (url, reason) => {
		expect(localHostReason(hostOf(url))).toBe(reason);
	});

	test.each([
		'https://n8n.example.com/',
		'http://8.8.8.8/',
		'http://172.32.0.1/',
		'http://172.15.255.255/',
		'http://100.128.0.1/',
		'http://100.63.255.255/',
		'http://192.169.0.1/',
		// the first address past each private range
		'http://1.0.0.0/',
		'http://11.0.0.0/',
		'http://100.128.0.0/',
		'http://128.0.0.0/',
		'http://169.255.0.0/',
		'http://172.32.0.0/',
		'http://192.169.0.0/',
		'http://[2001:db8::1]/',
		'http://[fec0::1]/',
		'http://[::ffff:8.8.8.8]/',
		'https://hooks.company.co.uk/',
	])('%s looks public', (url) => {
		expect(localHostReason(hostOf(url))).toBeUndefined();
	});
});

describe('unreachableWebhookProblem', () => {
	test('a local webhook URL with a public API is a problem naming the URL, why and the API host', () => {
		const problem = unreachableWebhookProblem(
			'http://localhost:5678/webhook/abc/webhook',
			'https://api.example.com/v1',
		);
		expect(problem).toBe(
			'The webhook URL http://localhost:5678/webhook/abc/webhook points at localhost (localhost), which the API at api.example.com cannot reach, so no event would ever arrive. Set N8N_WEBHOOK_URL (n8n 2.x) or WEBHOOK_URL (n8n 1.x) to the public address of n8n (or of a tunnel to it) and restart n8n; if the API reaches n8n over a VPN or private network, turn on Options → Skip Reachability Check.',
		);
	});

	test('a local or private API (the sandbox, an API on the same network) expects a local webhook URL', () => {
		expect(
			unreachableWebhookProblem('http://localhost:5678/webhook/a', 'http://127.0.0.1:3000/v1'),
		).toBeUndefined();
		expect(
			unreachableWebhookProblem('http://10.0.0.5/webhook/a', 'https://api.corp.internal/v1'),
		).toBeUndefined();
		expect(
			unreachableWebhookProblem('http://n8n:5678/webhook/a', 'http://business-ops/v1'),
		).toBeUndefined();
	});

	test('a public webhook URL is fine', () => {
		expect(
			unreachableWebhookProblem('https://n8n.example.org/webhook/a', 'https://api.example.com/v1'),
		).toBeUndefined();
	});

	test('unparsable URLs are left to the API to judge', () => {
		expect(unreachableWebhookProblem('not a url', 'https://api.example.com/v1')).toBeUndefined();
		expect(unreachableWebhookProblem('http://localhost/', 'not a url')).toBeUndefined();
	});
});

describe('regression: hosts of the form [::x] were all refused as unspecified', () => {
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
});
