/**
 * Whether the API can reach the trigger's webhook URL at all. n8n builds that URL from
 * N8N_WEBHOOK_URL (2.x), WEBHOOK_URL, or else its own `http://localhost:5678/`, and never warns;
 * an API on the internet then delivers to nowhere and nothing says why. So, before subscribing,
 * a webhook URL whose host only a local network knows is refused while the credential's Base URL
 * is public. A local or private Base URL (the sandbox, an API on the same network) is not checked.
 */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.lan', '.internal', '.home.arpa', '.intranet', '.corp'];

/** IPv4 ranges no public API can reach: [first octets as a number, prefix length, what it is]. */
const PRIVATE_V4: Array<[string, number, string]> = [
	['0.0.0.0', 8, 'an unspecified address'],
	['10.0.0.0', 8, 'a private address'],
	['100.64.0.0', 10, 'a carrier-grade NAT address'],
	['127.0.0.0', 8, 'a loopback address'],
	['169.254.0.0', 16, 'a link-local address'],
	['172.16.0.0', 12, 'a private address'],
	['192.168.0.0', 16, 'a private address'],
];

function v4ToNumber(address: string): number {
	return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function privateV4(address: string): string | undefined {
	const value = v4ToNumber(address);
	for (const [base, bits, what] of PRIVATE_V4) {
		const size = 2 ** (32 - bits);
		const start = v4ToNumber(base);
		if (value >= start && value < start + size) return what;
	}
	return undefined;
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 counts as two). */
function v6Groups(address: string): number[] {
	let text = address;
	const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	if (dotted) {
		const n = v4ToNumber(dotted[1]);
		text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
	}
	const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
	const left = head ? head.split(':') : [];
	const right = tail ? tail.split(':') : [];
	const middle = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
	return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}

function privateV6(address: string): string | undefined {
	const groups = v6Groups(address.toLowerCase());
	const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
	if (zeroUpTo(5) && groups[5] === 0xffff) return privateV4(`${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`);
	if (zeroUpTo(7)) return groups[7] === 1 ? 'a loopback address' : 'an unspecified address';
	if ((groups[0] & 0xfe00) === 0xfc00) return 'a unique local (private) address';
	if ((groups[0] & 0xffc0) === 0xfe80) return 'a link-local address';
	return undefined;
}

/**
 * Why `host` (as in a URL, IPv6 in brackets or not) is reachable only from a local network, or
 * undefined when it looks public.
 */
export function localHostReason(host: string): string | undefined {
	const name = host.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
	if (name === '') return 'an empty host';
	// Hosts come from `new URL()`, which writes IPv4 as four decimal numbers and IPv6 without zone.
	if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return privateV4(name);
	if (name.includes(':')) return privateV6(name);
	if (name === 'localhost') return 'localhost';
	const suffix = LOCAL_SUFFIXES.find((s) => name.endsWith(s));
	if (suffix) return `a local network name (${suffix})`;
	if (!name.includes('.')) return 'a single-label name that only a local network resolves';
	return undefined;
}

function hostOf(url: string): string | undefined {
	try {
		return new URL(url).hostname;
	} catch {
		return undefined;
	}
}

/**
 * A message saying why the API cannot reach `webhookUrl`, or undefined when it can (or when the
 * API itself is local, so a local webhook URL is expected).
 */
export function unreachableWebhookProblem(webhookUrl: string, baseUrl: string): string | undefined {
	const apiHost = hostOf(baseUrl);
	if (apiHost === undefined || localHostReason(apiHost) !== undefined) return undefined;
	const webhookHost = hostOf(webhookUrl);
	if (webhookHost === undefined) return undefined;
	const reason = localHostReason(webhookHost);
	if (reason === undefined) return undefined;
	return `The webhook URL ${webhookUrl} points at ${reason} (${webhookHost}), which the API at ${apiHost} cannot reach`;
}

/** What to do about an unreachable webhook URL: the end of the activation error's message. */
export const REACHABILITY_FIX =
	"Set N8N_WEBHOOK_URL (n8n 2.x) or WEBHOOK_URL (n8n 1.x) to the public address of n8n (or of a tunnel to it) and restart n8n; if the API reaches n8n over a VPN or private network, turn on Options → Skip Reachability Check.";
