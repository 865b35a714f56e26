// The workflow templates of templates/*.json (n8n's export format), for import into a running n8n:
// by `npm run demo`, and by the e2e areas `templates` and `demo`. A template names this package's
// nodes as an n8n that installed the package does (`n8n-nodes-business-ops.businessOps`) and
// carries no credentials; the import gives every node of the package the credential passed here
// (what a user does when choosing it) and every webhook node a fresh webhookId (so a second import
// does not clash with the first). Import goes through the editor's own call (`POST /rest/workflows`).
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const PACKAGE_PREFIX = `${require('../../package.json').name}.`;
const TEMPLATES_DIR = path.resolve(__dirname, '..', '..', 'templates');
const TRIGGER_TYPE = `${PACKAGE_PREFIX}businessOpsTrigger`;

/** The file names of templates/, sorted. */
function templateFiles() {
	return fs
		.readdirSync(TEMPLATES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort();
}

/** One template as stored (JSON.parse of the file; fails with the file's name). */
function readTemplate(file) {
	const text = fs.readFileSync(path.join(TEMPLATES_DIR, file), 'utf8');
	try {
		return JSON.parse(text);
	} catch (e) {
		throw new Error(`templates/${file} is not valid JSON: ${e.message}`);
	}
}

/**
 * A template ready for import: the credential set on every node of the package, fresh webhook ids.
 * @param {string} file  a name from templateFiles()
 * @param {{id: string, name: string}} credential  an n8n credential of type businessOpsApi
 * @returns {{file: string, wf: object, usesBusinessOpsTrigger: boolean}}
 */
function prepareTemplate(file, credential) {
	const wf = readTemplate(file);
	for (const node of wf.nodes) {
		if (node.webhookId) node.webhookId = crypto.randomUUID();
		if (node.type.startsWith(PACKAGE_PREFIX))
			node.credentials = { businessOpsApi: { id: credential.id, name: credential.name } };
	}
	return { file, wf, usesBusinessOpsTrigger: wf.nodes.some((n) => n.type === TRIGGER_TYPE) };
}

/**
 * Imports a workflow the way the editor does (Import from File, then Save: `POST /rest/workflows`
 * with the owner's session). Returns the saved workflow (with its id).
 */
async function importWorkflow(client, wf) {
	const { name, nodes, connections, settings, pinData, meta } = wf;
	return client.rest('POST', '/workflows', {
		name,
		nodes,
		connections,
		settings,
		pinData,
		meta,
		active: false,
	});
}

/**
 * Every template of templates/ imported with `credential` chosen (what `npm run demo` loads).
 * Templates using node types this n8n does not know are left out and named in `skipped`.
 * @returns {Promise<{imported: {file: string, wf: object, id: string, usesBusinessOpsTrigger: boolean}[], skipped: string[]}>}
 */
async function importTemplates(client, credential) {
	const known = new Set((await client.nodeTypes()).map((t) => t.name));
	const imported = [];
	const skipped = [];
	for (const file of templateFiles()) {
		const t = prepareTemplate(file, credential);
		const missing = [...new Set(t.wf.nodes.map((n) => n.type).filter((type) => !known.has(type)))];
		if (missing.length) {
			skipped.push(`${file} (n8n does not know ${missing.join(', ')})`);
			continue;
		}
		imported.push({ ...t, id: (await importWorkflow(client, t.wf)).id });
	}
	return { imported, skipped };
}

module.exports = {
	templateFiles,
	importTemplates,
	readTemplate,
	prepareTemplate,
	importWorkflow,
	PACKAGE_PREFIX,
};
