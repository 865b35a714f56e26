#!/usr/bin/env node
// One process that runs the Business Ops Polling Trigger's poll() (dist/) through n8n-core's
// PollContext of the pinned n8n runtime, the way n8n's poll schedule calls it, against the
// sandbox: a baseline poll, then per round 3 invoices marked paid and one timed poll. Prints one
// JSON line: { rounds: [{ ms, events }], staticBytes, rss }.
//   BENCH_N8N_DIR=<runtime dir> BENCH_BASE_URL=… BENCH_API_KEY=… BENCH_CHANGE_KEY=… BENCH_ROUNDS=5 node bench/poll-once.js
// The changes are made with BENCH_CHANGE_KEY, so the poller's key counts the poll's requests only.
'use strict';

const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const modules = path.join(process.env.BENCH_N8N_DIR || '', 'node_modules');
const { PollContext } = require(path.join(modules, 'n8n-core'));
const { Workflow } = require(path.join(modules, 'n8n-workflow'));
const { BusinessOpsPollingTrigger } = require(
	path.join(
		ROOT,
		'dist',
		'nodes',
		'BusinessOpsPollingTrigger',
		'BusinessOpsPollingTrigger.node.js',
	),
);
const { BusinessOpsApi } = require(
	path.join(ROOT, 'dist', 'credentials', 'BusinessOpsApi.credentials.js'),
);

const base = process.env.BENCH_BASE_URL;
const key = process.env.BENCH_API_KEY;
const changeKey = process.env.BENCH_CHANGE_KEY;
const rounds = Number(process.env.BENCH_ROUNDS || 5);
const credentials = { apiKey: key, baseUrl: base, requestsPerMinute: 1_000_000 };
const credentialType = new BusinessOpsApi();

/** What n8n's CredentialsHelper does for this credential: its `authenticate` function. */
const credentialsHelper = {
	authenticate: async (data, _type, request) => await credentialType.authenticate(data, request),
	preAuthentication: async () => undefined,
	runPreAuthentication: async () => undefined,
	getParentTypes: () => [],
	isCredentialUsableByNode: () => true,
	getDecrypted: async () => ({ ...credentials }),
	getCredentials: async () => {
		throw new Error('not used');
	},
	updateCredentials: async () => {},
	updateCredentialsOauthTokenData: async () => {},
	getCredentialsProperties: () => credentialType.properties,
};

async function api(method, pathname, body) {
	const res = await fetch(`${base}${pathname}`, {
		method,
		headers: { authorization: `Bearer ${changeKey}`, 'content-type': 'application/json' },
		body: body ? JSON.stringify(body) : undefined,
	});
	if (!res.ok)
		throw new Error(`${method} ${pathname} -> ${res.status}: ${(await res.text()).slice(0, 200)}`);
	return (await res.json()).data;
}

async function main() {
	const trigger = new BusinessOpsPollingTrigger();
	const node = {
		id: 'poller',
		name: 'Business Ops Polling Trigger',
		type: 'CUSTOM.businessOpsPollingTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: { events: ['invoice.paid'] },
		credentials: { businessOpsApi: { id: 'cred-1', name: 'bench' } },
	};
	const nodeTypes = {
		getByName: () => trigger,
		getByNameAndVersion: () => trigger,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({
		id: 'bench',
		name: 'bench',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData: {},
	});
	const additionalData = {
		credentialsHelper,
		executionId: undefined,
		restApiUrl: '',
		instanceBaseUrl: '',
		webhookBaseUrl: '',
		webhookTestBaseUrl: '',
		webhookWaitingBaseUrl: '',
		formWaitingBaseUrl: '',
		variables: {},
		currentNodeParameters: undefined,
	};
	const poll = async () =>
		await trigger.poll.call(new PollContext(workflow, node, additionalData, 'trigger', 'activate'));

	if ((await poll()) !== null) throw new Error('the baseline poll emitted');
	const open = [];
	for (let page = 1; open.length < 3 * rounds; page++) {
		const invoices = await api('GET', `/invoices?page=${page}&pageSize=100`);
		if (invoices.length === 0) throw new Error('not enough unpaid invoices');
		open.push(
			...invoices.filter((i) => !['paid', 'written_off'].includes(i.status)).map((i) => i.id),
		);
	}
	const results = [];
	for (let round = 0; round < rounds; round++) {
		const changed = open.slice(round * 3, round * 3 + 3);
		for (const id of changed) await api('PATCH', `/invoices/${id}`, { status: 'paid' });
		const started = process.hrtime.bigint();
		const emitted = await poll();
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		const events = (emitted?.[0] ?? [])
			.map((item) => `${item.json.type} ${item.json.data.id}`)
			.sort();
		const expected = changed.map((id) => `invoice.paid ${id}`).sort();
		results.push({
			ms,
			events: events.length,
			correct: JSON.stringify(events) === JSON.stringify(expected),
		});
	}
	const staticBytes = Buffer.byteLength(JSON.stringify(workflow.staticData));
	process.stdout.write(
		`${JSON.stringify({ rounds: results, staticBytes, rss: process.memoryUsage().rss })}\n`,
	);
}

main().catch((e) => {
	process.stderr.write(`${e.stack || e}\n`);
	process.exit(1);
});
