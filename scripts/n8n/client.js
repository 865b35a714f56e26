// A small client for a running n8n (2.x, and the 1.123 LTS line): the editor's REST API (/rest,
// session cookie) for the owner setup, API keys, credential tests, manual runs and the Community
// Nodes installer, and the public API (/api/v1, X-N8N-API-KEY) for credentials, workflows,
// publishing and executions. Where 1.x differs (activate/deactivate instead of publish/unpublish,
// the manual-run body, no public credential test), `major` (read at bootstrap) decides.
// Standard library only.
'use strict';

const http = require('node:http');

const BROWSER_ID = 'bizops-e2e-browser';

/**
 * One exchange on a connection of its own (no pooled socket): a write sent on a kept-alive socket
 * that n8n closed at that moment fails without an answer, and is not safe to send again.
 */
function exchange(url, { method, headers, body, timeoutMs }) {
	const signal = AbortSignal.timeout(timeoutMs);
	const what = `${method} ${url.pathname}`;
	return new Promise((resolve, reject) => {
		const failed = (error) =>
			reject(
				signal.aborted
					? new Error(`${what}: no answer within ${timeoutMs / 1000} s`)
					: new Error(`${what}: ${error.message}`, { cause: error }),
			);
		const req = http.request(url, { method, headers, agent: false, signal }, (res) => {
			const chunks = [];
			res.on('data', (chunk) => chunks.push(chunk));
			res.on('error', failed);
			res.on('end', () => resolve({ res, text: Buffer.concat(chunks).toString('utf8') }));
		});
		req.on('error', failed);
		req.end(body);
	});
}

class N8nRequestError extends Error {
	constructor(method, url, status, body) {
		const detail = typeof body === 'string' ? body : JSON.stringify(body);
		super(`${method} ${url} -> ${status}: ${String(detail).slice(0, 600)}`);
		this.status = status;
		this.body = body;
	}
}

class N8nClient {
	/**
	 * @param {string} baseUrl e.g. http://127.0.0.1:5678
	 * @param {{ version?: string }} [o]  n8n's version when known (otherwise read at bootstrap)
	 */
	constructor(baseUrl, o = {}) {
		this.baseUrl = baseUrl.replace(/\/+$/, '');
		this.cookie = '';
		this.apiKey = '';
		this.setVersion(o.version || '');
	}

	setVersion(version) {
		this.version = String(version || '');
		/** n8n's major version (2 until known). */
		this.major = Number(this.version.split('.')[0]) || 2;
	}

	async request(method, pathname, { body, api = false, query, expect, timeoutMs = 30_000 } = {}) {
		const url = new URL(this.baseUrl + pathname);
		for (const [k, v] of Object.entries(query || {}))
			if (v !== undefined) url.searchParams.set(k, String(v));
		const headers = { accept: 'application/json', 'browser-id': BROWSER_ID };
		const payload = body === undefined ? undefined : JSON.stringify(body);
		if (payload !== undefined) {
			headers['content-type'] = 'application/json';
			headers['content-length'] = Buffer.byteLength(payload);
		}
		if (api) headers['x-n8n-api-key'] = this.apiKey;
		else if (this.cookie) headers.cookie = this.cookie;
		const { res, text } = await exchange(url, { method, headers, body: payload, timeoutMs });
		for (const c of res.headers['set-cookie'] ?? [])
			if (c.startsWith('n8n-auth=')) this.cookie = c.split(';')[0];
		let parsed = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			/* not JSON */
		}
		const status = res.statusCode;
		const ok = expect ? [].concat(expect).includes(status) : status >= 200 && status < 300;
		if (!ok) throw new N8nRequestError(method, url.pathname, status, parsed);
		return { status, body: parsed, headers: res.headers };
	}

	/** Editor REST call; unwraps n8n's `{ data }` envelope. */
	async rest(method, pathname, body, opts = {}) {
		const res = await this.request(method, `/rest${pathname}`, { body, ...opts });
		return res.body && typeof res.body === 'object' && 'data' in res.body
			? res.body.data
			: res.body;
	}

	/** Public API call (X-N8N-API-KEY). */
	async api(method, pathname, body, opts = {}) {
		return (await this.request(method, `/api/v1${pathname}`, { body, api: true, ...opts })).body;
	}

	// ----- owner, login, API key -----

	async setupOwner({ email, password, firstName = 'Demo', lastName = 'Owner' }) {
		return this.rest('POST', '/owner/setup', { email, password, firstName, lastName });
	}

	async login({ email, password }) {
		return this.rest('POST', '/login', { emailOrLdapLoginId: email, password });
	}

	/** Creates a public-API key with every scope the owner may have; keeps it for api() calls. */
	async createApiKey(label = 'e2e') {
		let scopes;
		try {
			scopes = await this.rest('GET', '/api-keys/scopes');
		} catch {
			scopes = undefined;
		}
		if (!Array.isArray(scopes) || scopes.length === 0) {
			scopes = [
				'workflow:create',
				'workflow:read',
				'workflow:update',
				'workflow:delete',
				'workflow:list',
				'workflow:activate',
				'workflow:deactivate',
				'credential:create',
				'credential:read',
				'credential:delete',
				'credential:list',
				'execution:read',
				'execution:list',
				'execution:delete',
			];
		}
		const created = await this.rest('POST', '/api-keys', { label, scopes, expiresAt: null });
		this.apiKey = created.rawApiKey;
		return this.apiKey;
	}

	/** n8n's version, from the editor's settings (signed in: 1.x tells anonymous callers less). */
	async readVersion() {
		this.setVersion((await this.rest('GET', '/settings')).versionCli);
		return this.version;
	}

	/** Owner + login session + public-API key, in one go. */
	async bootstrap(owner) {
		await this.setupOwner(owner);
		if (!this.cookie) await this.login(owner);
		if (!this.version) await this.readVersion();
		await this.createApiKey();
		return this;
	}

	// ----- types -----

	/** All node types known to the running n8n (the editor's /types/nodes.json). */
	async nodeTypes() {
		return (await this.request('GET', '/types/nodes.json')).body;
	}

	async credentialTypes() {
		return (await this.request('GET', '/types/credentials.json')).body;
	}

	// ----- credentials -----

	/**
	 * Creates a credential through the public API; returns { id, name, type }. n8n 1.123 checks the
	 * data against the type's schema, which includes the domain restriction n8n adds to credentials
	 * the HTTP Request node can use: it is set to "all" there (2.x's default) unless given.
	 */
	async createCredential({ name, type, data }) {
		const full = this.major < 2 ? { allowedHttpRequestDomains: 'all', ...data } : data;
		return this.api('POST', '/credentials', { name, type, data: full });
	}

	async deleteCredential(id) {
		return this.api('DELETE', `/credentials/${id}`);
	}

	/** Tests a stored credential as the editor's "Retry"/"Save" does: { status: 'OK'|'Error', message }. */
	async testCredential(id, type, data) {
		return this.rest('POST', '/credentials/test', {
			credentials: { id, name: '', type, ...(data ? { data } : {}) },
		});
	}

	/** The public API's credential test (2.x only; 1.x has none): { status, message }. */
	async testCredentialPublic(id) {
		if (this.major < 2) throw new Error(`n8n ${this.version} has no public-API credential test`);
		return this.api('POST', `/credentials/${id}/test`);
	}

	// ----- workflows -----

	/** Creates a workflow from an export-style object (name, nodes, connections, settings). */
	async createWorkflow(wf) {
		const body = {
			name: wf.name,
			nodes: wf.nodes,
			connections: wf.connections || {},
			settings: wf.settings || { executionOrder: 'v1' },
			...(wf.staticData ? { staticData: wf.staticData } : {}),
		};
		return this.api('POST', '/workflows', body);
	}

	async getWorkflow(id) {
		return this.api('GET', `/workflows/${id}`);
	}

	async listWorkflows() {
		return (await this.api('GET', '/workflows', undefined, { query: { limit: 250 } })).data;
	}

	async deleteWorkflow(id) {
		return this.api('DELETE', `/workflows/${id}`);
	}

	/** Publishes (n8n 1.x: "activates") a workflow: its trigger subscribes. */
	async publishWorkflow(id, opts = {}) {
		return this.api(
			'POST',
			`/workflows/${id}/${this.major < 2 ? 'activate' : 'publish'}`,
			{},
			opts,
		);
	}

	/** Unpublishes (1.x: "deactivates"): the trigger unsubscribes. */
	async unpublishWorkflow(id) {
		return this.api('POST', `/workflows/${id}/${this.major < 2 ? 'deactivate' : 'unpublish'}`);
	}

	/**
	 * Runs a workflow the way the editor's "Execute workflow" button does, from its Manual Trigger
	 * (or the trigger node named `trigger`, e.g. a Schedule Trigger), and waits for the finished
	 * execution (with its data). Returns the execution.
	 */
	async runManually(workflowId, { timeoutMs = 120_000, trigger: triggerName } = {}) {
		const wf = await this.rest('GET', `/workflows/${workflowId}`);
		const trigger = wf.nodes.find((n) =>
			triggerName ? n.name === triggerName : n.type === 'n8n-nodes-base.manualTrigger',
		);
		if (!trigger)
			throw new Error(
				`workflow ${workflowId} has no ${triggerName ? `node "${triggerName}"` : 'Manual Trigger'}`,
			);
		const triggerToStartFrom = { name: trigger.name };
		// n8n 1.x takes the workflow in the body (as the editor sends it), 2.x reads it from the database.
		const body = this.major < 2 ? { workflowData: wf, triggerToStartFrom } : { triggerToStartFrom };
		const started = await this.rest('POST', `/workflows/${workflowId}/run`, body);
		const executionId = started.executionId;
		if (!executionId)
			throw new Error(`workflow ${workflowId} did not start: ${JSON.stringify(started)}`);
		return this.waitForExecution(executionId, { timeoutMs });
	}

	/** Polls an execution until it has finished; returns it with data. */
	async waitForExecution(executionId, { timeoutMs = 120_000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		let doneSince;
		for (;;) {
			let ex;
			try {
				ex = await this.api('GET', `/executions/${executionId}`, undefined, {
					query: { includeData: true },
				});
			} catch (e) {
				if (e.status !== 404) throw e;
			}
			// n8n 1.x may report the status a moment before the run data is stored: wait up to 10 s for it.
			const done =
				ex &&
				ex.finished !== undefined &&
				ex.status &&
				!['new', 'running', 'waiting'].includes(ex.status);
			doneSince ??= done ? Date.now() : undefined;
			if (done && (ex.data?.resultData || Date.now() - doneSince > 10_000)) return ex;
			if (Date.now() > deadline)
				throw new Error(
					`execution ${executionId} did not finish in ${timeoutMs / 1000} s (status ${ex?.status})`,
				);
			await new Promise((r) => setTimeout(r, 250));
		}
	}

	/** Executions of a workflow, newest first, with data. */
	async executions(workflowId, { limit = 50, includeData = true, status } = {}) {
		const res = await this.api('GET', '/executions', undefined, {
			query: { workflowId, limit, includeData, status },
		});
		return res.data;
	}

	/** Waits until a workflow has at least `count` finished executions; returns them (newest first). */
	async waitForExecutions(workflowId, count, { timeoutMs = 30_000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const list = (await this.executions(workflowId)).filter(
				(e) => !['new', 'running', 'waiting'].includes(e.status),
			);
			if (list.length >= count) return list;
			if (Date.now() > deadline)
				throw new Error(
					`workflow ${workflowId}: ${list.length} finished execution(s) after ${timeoutMs / 1000} s, expected ${count}`,
				);
			await new Promise((r) => setTimeout(r, 300));
		}
	}

	// ----- Community Nodes (Settings → Community Nodes; the owner's session) -----

	/** Install, as the editor's "Install" button does; n8n downloads the package from its registry. */
	async installCommunityPackage(name, version) {
		return this.rest(
			'POST',
			'/community-packages',
			{ name, ...(version ? { version } : {}) },
			{ timeoutMs: 180_000 },
		);
	}

	/** Update to `version` (or the latest), as the editor's "Update" button does. */
	async updateCommunityPackage(name, version) {
		return this.rest(
			'PATCH',
			'/community-packages',
			{ name, ...(version ? { version } : {}) },
			{ timeoutMs: 180_000 },
		);
	}

	/** Uninstall, as the editor's "Uninstall package" does. */
	async uninstallCommunityPackage(name) {
		return this.rest('DELETE', '/community-packages', undefined, {
			query: { name },
			timeoutMs: 180_000,
		});
	}

	/** The installed packages with their nodes (and `updateAvailable`, from `npm outdated`). */
	async communityPackages() {
		return this.rest('GET', '/community-packages', undefined, { timeoutMs: 180_000 });
	}
}

/**
 * The items a node output in a finished execution (first run, main output `output`).
 * Returns the `json` of each item.
 */
function nodeOutput(execution, nodeName, output = 0) {
	const runs = execution?.data?.resultData?.runData?.[nodeName];
	if (!runs) return undefined;
	const main = runs[0]?.data?.main?.[output] || [];
	return main.map((i) => i.json);
}

/** The error of a failed execution (message, description, httpCode), or undefined. */
function executionError(execution) {
	const rd = execution?.data?.resultData;
	const err = rd?.error;
	if (!err) return undefined;
	return {
		message: err.message,
		description: err.description,
		httpCode: err.httpCode,
		node: err.node?.name,
	};
}

module.exports = { N8nClient, N8nRequestError, nodeOutput, executionError };
