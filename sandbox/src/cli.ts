/**
 * Starts the sandbox for manual use: `npm run sandbox`.
 * Environment: SANDBOX_PORT (default 4010), SANDBOX_RATE_LIMIT ("limit/windowMs", e.g. "120/60000"),
 * SANDBOX_SIGNING_SCHEME (standard | github | stripe), SANDBOX_LOG=1 to log each request.
 */
import { startSandbox, type SandboxOptions } from './index';
import { SIGNING_SCHEMES, type SigningScheme } from './signing';

function fail(message: string): never {
	console.error(`sandbox: ${message}`);
	process.exit(2);
}

function options(env: NodeJS.ProcessEnv): SandboxOptions {
	const port =
		env.SANDBOX_PORT === undefined || env.SANDBOX_PORT === '' ? 4010 : Number(env.SANDBOX_PORT);
	if (!Number.isInteger(port) || port < 0 || port > 65535)
		fail(`SANDBOX_PORT must be a port number, got "${env.SANDBOX_PORT}"`);
	const result: SandboxOptions = { port, host: '127.0.0.1' };
	if (env.SANDBOX_RATE_LIMIT) {
		const match = /^(\d+)\/(\d+)$/.exec(env.SANDBOX_RATE_LIMIT.trim());
		if (!match || Number(match[1]) < 1 || Number(match[2]) < 1)
			fail(
				`SANDBOX_RATE_LIMIT must look like "120/60000" (limit/windowMs), got "${env.SANDBOX_RATE_LIMIT}"`,
			);
		result.rateLimit = { limit: Number(match[1]), windowMs: Number(match[2]) };
	}
	if (env.SANDBOX_COUNT_REFUSED === '1') result.countRefused = true;
	if (env.SANDBOX_SIGNING_SCHEME) {
		if (!(SIGNING_SCHEMES as readonly string[]).includes(env.SANDBOX_SIGNING_SCHEME)) {
			fail(
				`SANDBOX_SIGNING_SCHEME must be one of ${SIGNING_SCHEMES.join(', ')}, got "${env.SANDBOX_SIGNING_SCHEME}"`,
			);
		}
		result.signingScheme = env.SANDBOX_SIGNING_SCHEME as SigningScheme;
	}
	if (env.SANDBOX_LOG === '1') result.log = (line) => console.log(line);
	return result;
}

async function main(): Promise<void> {
	const opts = options(process.env);
	const sandbox = await startSandbox(opts).catch((err: NodeJS.ErrnoException) => {
		if (err.code === 'EADDRINUSE')
			fail(`port ${opts.port} is in use; set SANDBOX_PORT to another port (0 picks a free one)`);
		throw err;
	});
	const limit = opts.rateLimit ?? { limit: 120, windowMs: 60_000 };
	console.log(`Business Operations API sandbox is running.

  Base URL         ${sandbox.baseUrl}
  Legacy base URL  ${sandbox.legacyBaseUrl}
  OpenAPI          ${sandbox.baseUrl}/openapi.json  (Accept: application/yaml for YAML)
  Controls         ${sandbox.controlUrl}  (no key; see sandbox/README.md)

  API keys (send "Authorization: Bearer <key>"):
    admin         ${sandbox.keys.admin}   scope * (everything), Bakkerij de Vries B.V.
    readOnly      ${sandbox.keys.readOnly}   every <resource>.read scope, Bakkerij de Vries B.V.
    contactsOnly  ${sandbox.keys.contactsOnly}   contacts.* only, Bakkerij de Vries B.V.
    otherOrg      ${sandbox.keys.otherOrg}   scope *, a second organization (Schildersbedrijf Jansen V.O.F.)

  Rate limit ${limit.limit} requests per ${limit.windowMs} ms per key; webhook signing scheme: ${opts.signingScheme ?? 'standard'}.
  Press Ctrl+C to stop.`);
	let stopping = false;
	const shutdown = (signal: string): void => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping the sandbox.`);
		sandbox.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => shutdown('SIGINT'));
	process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
	console.error(err);
	process.exit(1);
});
