/** Refuses a webhook URL only a local network knows while the API is public. Ranges by hand: lint forbids `node:net`. */
const LOCAL_SUFFIXES = [
	'.localhost',
	'.local',
	'.lan',
	'.internal',
	'.home.arpa',
	'.intranet',
	'.corp',
];

const PRIVATE_V4: Array<[string, number, string]> = [
	['0.0.0.0', 8, 'an unspecified address'],
	['10.0.0.0', 8, 'a private address'],
	['100.64.0.0', 10, 'a carrier-grade NAT address'],
	['127.0.0.0', 8, 'a loopback address'],
	['169.254.0.0', 16, 'a link-local address'],
	['172.16.0.0', 12, 'a private address'],
	['192.168.0.0', 16, 'a private address'],
];

const v4ToNumber = (address: string): number =>
	address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);

function privateV4(value: number): string | undefined {
	return PRIVATE_V4.find(
		([base, bits]) => value >= v4ToNumber(base) && value < v4ToNumber(base) + 2 ** (32 - bits),
	)?.[2];
}

/** IPv6 as `new URL()` writes it (compressed, lower case, IPv4 as two hex groups), as its eight groups. */
function v6Groups(address: string): number[] {
	const [head, tail] = address.split('::');
	const part = (text?: string) => (text ? text.split(':').map((group) => parseInt(group, 16)) : []);
	const left = part(head);
	const right = part(tail);
	return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function privateV6(address: string): string | undefined {
	const g = v6Groups(address);
	const zeroUpTo = (n: number) => g.slice(0, n).every((group) => group === 0);
	if (zeroUpTo(7) && g[7] <= 1) return g[7] === 1 ? 'a loopback address' : 'an unspecified address';
	// IPv4 written inside IPv6: compatible (::a.b.c.d), mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d)
	if (
		zeroUpTo(6) ||
		(zeroUpTo(5) && g[5] === 0xffff) ||
		(zeroUpTo(4) && g[4] === 0xffff && g[5] === 0)
	)
		return privateV4(g[6] * 65536 + g[7]);
	if ((g[0] & 0xfe00) === 0xfc00) return 'a unique local (private) address';
	if ((g[0] & 0xffc0) === 0xfe80) return 'a link-local address';
	return undefined;
}

/** Why `host` (a `new URL()` hostname) is reachable only from a local network; undefined when it looks public. */
export function localHostReason(host: string): string | undefined {
	const name = host
		.trim()
		.toLowerCase()
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '');
	if (name === '') return 'an empty host';
	// Hosts come from `new URL()`, which writes IPv4 as four decimal numbers and IPv6 without zone.
	if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return privateV4(v4ToNumber(name));
	if (name.includes(':')) return privateV6(name);
	if (name === 'localhost') return 'localhost';
	const suffix = LOCAL_SUFFIXES.find((s) => name.endsWith(s));
	if (suffix) return `a local network name (${suffix})`;
	if (!name.includes('.')) return 'a single-label name that only a local network resolves';
	return undefined;
}

const hostOf = (url: string): string | undefined =>
	URL.canParse(url) ? new URL(url).hostname : undefined;

/** Why the API cannot reach `webhookUrl` and what to do, as the activation error; undefined when it can, or when the API itself is local. */
export function unreachableWebhookProblem(webhookUrl: string, baseUrl: string): string | undefined {
	const apiHost = hostOf(baseUrl);
	if (apiHost === undefined || localHostReason(apiHost) !== undefined) return undefined;
	const webhookHost = hostOf(webhookUrl);
	if (webhookHost === undefined) return undefined;
	const reason = localHostReason(webhookHost);
	if (reason === undefined) return undefined;
	return `The webhook URL ${webhookUrl} points at ${reason} (${webhookHost}), which the API at ${apiHost} cannot reach, so no event would ever arrive. Set N8N_WEBHOOK_URL (n8n 2.x) or WEBHOOK_URL (n8n 1.x) to the public address of n8n (or of a tunnel to it) and restart n8n; if the API reaches n8n over a VPN or private network, turn on Options → Skip Reachability Check.`;
}
