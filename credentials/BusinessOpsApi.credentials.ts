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

const ERROR_CODE_MESSAGES = {
	unauthorized:
		'The API key was not accepted (401): it is mistyped, revoked or expired. Create a new key in the dashboard.',
	insufficient_scope:
		'The API key works but lacks the scope "organization.read", which the test (GET /me) needs. The key may still work for the operations its scopes allow.',
	not_found:
		'Nothing answers at this Base URL: check that it ends in the API version, e.g. https://api.example.com/v1',
	rate_limited:
		'The API key works, but its rate limit is used up right now (429): test again in a minute.',
};

/** Removes trailing slashes so `/v1/` and `/api/v1/` join paths like `/v1` and `/api/v1`. */
function normalizeBaseUrl(baseUrl: string): string {
	return baseUrl.trim().replace(/\/+$/, '');
}

/** Checks the credential before anything is sent; the messages never repeat the key (they reach logs). */
function validateBusinessOpsCredentials(credentials: ICredentialDataDecryptedObject): void {
	const apiKey = String(credentials.apiKey ?? '').trim();
	if (!API_KEY_FORMAT.test(apiKey)) {
		throw new Error(
			'The API key is not in the right form: it must be "svc_" followed by 32 letters, digits, "-" or "_". Copy the whole key from the dashboard (it is shown once, when it is created).',
		);
	}

	const baseUrl = normalizeBaseUrl(String(credentials.baseUrl ?? ''));
	if (!URL.canParse(baseUrl)) {
		throw new Error(
			'The Base URL is not a valid URL: enter the full address of the API, for example https://api.example.com/v1',
		);
	}
	const url = new URL(baseUrl);
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

	icon: Icon = {
		light: 'file:../icons/businessOps.svg',
		dark: 'file:../icons/businessOps.dark.svg',
	};

	documentationUrl = 'https://github.com/business-ops/n8n-nodes-business-ops#credentials';

	/** The HTTP Request node's "Predefined Credential Type": n8n applies `authenticate` there too. */
	httpRequestNode = {
		name: 'Business Ops',
		docsUrl: 'https://github.com/business-ops/n8n-nodes-business-ops#custom-api-calls',
		apiBaseUrlPlaceholder: 'https://api.example.com/v1/contacts',
	};

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
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 120,
			description:
				'How many requests n8n sends with this key per minute (the API allows 120 per key, sliding window). Requests wait for room instead of being refused; every workflow using this key in this n8n shares the budget, whatever the Base URL. When credentials with the same key set different numbers, the lowest applies. Lower it when other tools or n8n workers use the same key; when the API refuses requests anyway, n8n slows down to the rate it accepts.',
		},
	];

	/** A property, not a method: n8n copies a community credential type with `{ ...type }` (own properties only). */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		validateBusinessOpsCredentials(credentials);
		return {
			...requestOptions,
			baseURL: normalizeBaseUrl(String(credentials.baseUrl)),
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.apiKey).trim()}`,
			},
		};
	};

	/** GET /me, read by the API's error code, never by status: n8n 1.x drops a failed test request's status. */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/me',
			method: 'GET',
			ignoreHttpStatusErrors: true,
			// The test runs in the editor: it fails after 15 s instead of hanging the credential modal.
			timeout: 15_000,
		},
		rules: [
			...Object.entries(ERROR_CODE_MESSAGES).map(([value, message]) => ({
				type: 'responseSuccessBody' as const,
				properties: { key: 'error.code', value, message },
			})),
			{
				// Anything without the `data` envelope of GET /me: another error, or not this API at all.
				type: 'responseSuccessBody',
				properties: {
					key: 'data',
					value: undefined,
					message:
						'GET /me at this Base URL did not answer like the Business Ops API. Check the Base URL (it ends in /v1 or /api/v1) and that the API is reachable from n8n.',
				},
			},
		],
	};
}
