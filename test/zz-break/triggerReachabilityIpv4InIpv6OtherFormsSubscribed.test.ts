/**
 * docs/subscriptions.md ("Can the API reach n8n?") promises that IPv4 addresses written inside IPv6
 * are refused like the IPv4 address itself. Only the IPv4-mapped form `::ffff:a.b.c.d` is: the
 * IPv4-compatible form `::a.b.c.d` (new URL() writes `[::7f00:1]`) and the IPv4-translated form
 * `::ffff:0:a.b.c.d` of a loopback or private address are taken as public, and publishing
 * subscribes a URL no public API can reach. (1bdf489 behaved the same: not a shrink regression.)
 */
import { unreachableWebhookProblem } from '../../nodes/BusinessOpsTrigger/reachability';

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
