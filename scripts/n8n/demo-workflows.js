// Reads the example workflows of demo/workflows/*.json for import into a running n8n. The files
// name this package's nodes as an n8n that installed the package does
// (`n8n-nodes-business-ops.businessOps`); every node of the package gets the given credential,
// and every webhook node a fresh webhookId (so a second import does not clash with the first).
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const PACKAGE_PREFIX = `${require('../../package.json').name}.`;
const WORKFLOWS_DIR = path.resolve(__dirname, '..', '..', 'demo', 'workflows');

/**
 * @param {{id: string, name: string}} credential  an n8n credential of type businessOpsApi
 * @param {Set<string>} [knownTypes]  node types the running n8n knows (to report missing ones)
 * @returns {{file: string, wf: object, missing: string[], isTrigger: boolean, isManual: boolean}[]}
 */
function loadDemoWorkflows(credential, knownTypes) {
	if (!fs.existsSync(WORKFLOWS_DIR)) return [];
	const files = fs.readdirSync(WORKFLOWS_DIR).filter((f) => f.endsWith('.json')).sort();
	return files.map((file) => {
		const wf = JSON.parse(fs.readFileSync(path.join(WORKFLOWS_DIR, file), 'utf8'));
		const missing = [];
		for (const node of wf.nodes) {
			if (node.webhookId) node.webhookId = crypto.randomUUID();
			if (node.type.startsWith(PACKAGE_PREFIX)) node.credentials = { businessOpsApi: { id: credential.id, name: credential.name } };
			if (knownTypes && !knownTypes.has(node.type)) missing.push(node.type);
		}
		return {
			file,
			wf,
			missing: [...new Set(missing)],
			isTrigger: wf.nodes.some((n) => n.type === `${PACKAGE_PREFIX}businessOpsTrigger`),
			isManual: wf.nodes.some((n) => n.type === 'n8n-nodes-base.manualTrigger'),
		};
	});
}

module.exports = { loadDemoWorkflows, WORKFLOWS_DIR, PACKAGE_PREFIX };
