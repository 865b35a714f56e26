import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

const API_KEY_FORMAT = /^svc_[A-Za-z0-9_-]{32}$/;
const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Removes trailing slashes so `/v1/` and `/api/v1/` join paths like `/v1` and `/api/v1`. */
export function normalizeBaseUrl(baseUrl: string): string {
	return baseUrl.trim().replace(/\/+$/, '');
}

/**
 * Checks the credential before anything is sent. The messages never repeat the key:
 * they end up in execution logs and in the credential modal.
 */
export function validateBusinessOpsCredentials(credentials: ICredentialDataDecryptedObject): void {
	const apiKey = String(credentials.apiKey ?? '').trim();
	if (!API_KEY_FORMAT.test(apiKey)) {
		throw new Error(
			'The API key is not in the right form: it must be "svc_" followed by 32 letters, digits, "-" or "_". Copy the whole key from the dashboard (it is shown once, when it is created).',
		);
	}

	const baseUrl = normalizeBaseUrl(String(credentials.baseUrl ?? ''));
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		throw new Error(
			'The Base URL is not a valid URL: enter the full address of the API, for example https://api.example.com/v1',
		);
	}
	if (url.protocol === 'http:' && !LOOPBACK_HOSTS.test(url.hostname)) {
		throw new Error(
			'The Base URL must start with https:// (the API accepts only HTTPS); plain http:// is allowed only for a local server on localhost or 127.0.0.1',
		);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new Error('The Base URL must start with https://');
	}
}

export class BusinessOpsApi implements ICredentialType {
	name = 'businessOpsApi';

	displayName = 'Business Ops API';

	icon: Icon = { light: 'file:../icons/businessOps.svg', dark: 'file:../icons/businessOps.dark.svg' };

	documentationUrl = 'https://business-ops.example/n8n#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'svc_…',
			description:
				'The key from the dashboard: "svc_" followed by 32 characters. Its scopes decide which operations work.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.example.com/v1',
			description:
				'The API address including the version, ending in /v1 (an older address ending in /api/v1 works the same)',
		},
		// Rate budget (issue #13): read by nodes/shared/api/transport.ts.
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 120,
			description:
				'How many requests n8n sends with this key per minute (the API allows 120 per key, sliding window). Requests wait for room instead of being refused; every workflow using this key in this n8n shares the budget. Lower it when other tools or n8n workers use the same key.',
		},
		{
			// The length of the API's window; the spec says a minute. Not shown: tests and benchmarks
			// set a shorter one to run the same limit scaled in time.
			displayName: 'Rate Window (Seconds)',
			name: 'rateWindowSeconds',
			type: 'hidden',
			default: 60,
		},
	];

	/** Every request of the package gets its base URL and its bearer key here, and only here. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		validateBusinessOpsCredentials(credentials);
		return {
			...requestOptions,
			baseURL: normalizeBaseUrl(String(credentials.baseUrl)),
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.apiKey).trim()}`,
			},
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/me',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API key was not accepted (401): it is mistyped, revoked or expired. Create a new key in the dashboard.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API key works but lacks the scope "organization.read", which the test (GET /me) needs. The key may still work for the operations its scopes allow.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answers at this Base URL: check that it ends in the API version, e.g. https://api.example.com/v1',
				},
			},
		],
	};
}
