// This package the way users get it: published to a registry and installed by n8n's own Community
// Nodes installer (Settings → Community Nodes → Install, i.e. POST /rest/community-packages as the
// owner). The registry is a local verdaccio (registry.js); n8n reaches it through the npm wrapper.
//
//   const pkg = await publishPackage({ log });        // clean build in a private copy, npm pack, publish
//   const { n8n, client } = await startN8nWithPackage({ runtime, pkg, log });
//   ... client.nodeTypes() has n8n-nodes-business-ops.businessOps ...
//   await pkg.publishVersion('0.1.1');                             // same tarball, higher version
//   await n8n.dispose(); await pkg.stop();
//
// Standard library only.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { startRegistry } = require('./registry');
const { packPackage, reversionTarball } = require('./pack');
const { startN8n } = require('./server');
const { N8nClient } = require('./client');

/**
 * Builds and packs the package (pack.js), starts the local registry and publishes the tarball to it.
 * @param {{ log?: (line: string) => void, build?: boolean }} [o]  build: false packs the repo's dist/ as it is
 */
async function publishPackage(o = {}) {
	const log = o.log || (() => {});
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizops-pack-'));
	const packed = packPackage({ outDir: workDir, build: o.build !== false });
	log(
		`packed ${path.basename(packed.file)} (${(packed.size / 1000).toFixed(1)} kB, ${packed.files.length} files)`,
	);
	let registry;
	try {
		registry = await startRegistry({ log });
		registry.publish(packed.file);
	} catch (e) {
		await registry?.stop();
		fs.rmSync(workDir, { recursive: true, force: true });
		throw e;
	}
	log(`published ${packed.name}@${packed.version} to ${registry.url}`);
	return {
		name: packed.name,
		version: packed.version,
		tarball: packed.file,
		integrity: packed.integrity,
		files: packed.files,
		/**
		 * The folder the package was built in: a private copy of the repo whose dist/ was packed
		 * (the repo itself with build: false). Code a run loads from the build comes from here.
		 */
		root: packed.dir,
		registry,
		/** Publishes a copy of the tarball re-versioned to `version` (nothing else changes). */
		publishVersion(version) {
			const file = reversionTarball(packed.file, version, workDir);
			registry.publish(file);
			log(
				`published ${packed.name}@${version} (the same tarball, re-versioned) to ${registry.url}`,
			);
			return file;
		},
		async stop() {
			await registry.stop();
			fs.rmSync(workDir, { recursive: true, force: true });
		},
	};
}

/** Polls n8n's node types until every name in `names` is there (or none is, with `present: false`). */
async function waitForNodeTypes(client, names, { present = true, timeoutMs = 60_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		// While n8n rewrites its type files after an install, it may answer with something else.
		const types = await client.nodeTypes().catch(() => undefined);
		const known = new Set(Array.isArray(types) ? types.map((t) => t.name) : []);
		if (Array.isArray(types) && names.every((n) => known.has(n) === present)) return known;
		if (Date.now() > deadline) {
			const wrong = names.filter((n) => known.has(n) !== present);
			throw new Error(
				`after ${timeoutMs / 1000} s n8n ${present ? 'still does not know' : 'still knows'} ${wrong.join(', ')}`,
			);
		}
		await new Promise((r) => setTimeout(r, 500));
	}
}

/**
 * Starts n8n with the wrapper that points its installer at `pkg.registry`, sets up the owner and
 * an API key, and (unless `install: false`) installs the package through n8n's installer, as a user
 * does in Settings → Community Nodes. Resolves to { n8n, client, installed } (`installed`: what the
 * installer answered: packageName, installedVersion, installedNodes).
 * @param {object} o  startN8n's options (runtime, port, env, command, userFolder, …) plus:
 * @param {Awaited<ReturnType<typeof publishPackage>>} o.pkg
 * @param {boolean} [o.install]  false: start only (e.g. a folder where the package is already installed)
 * @param {{email: string, password: string, firstName?: string, lastName?: string}} o.owner
 * @param {string[]} o.expectNodeTypes  node types the install must bring
 * @param {(n8n: object, client: object) => Promise<void>} [o.beforeInstall]  runs once n8n is up and
 *   the owner exists, before the install (queue mode starts its workers here)
 */
async function startN8nWithPackage(o) {
	const { pkg, install = true, owner, expectNodeTypes, beforeInstall, ...startOptions } = o;
	const n8n = await startN8n({
		...startOptions,
		env: { ...pkg.registry.n8nEnv(), ...(startOptions.env || {}) },
	});
	try {
		const client = new N8nClient(n8n.baseUrl, { version: n8n.n8nVersion });
		await client.bootstrap(owner);
		await beforeInstall?.(n8n, client);
		let installed;
		if (install) {
			installed = await client.installCommunityPackage(pkg.name, pkg.version);
			const types = (installed.installedNodes || []).map((n) => n.type);
			const missing = expectNodeTypes.filter((t) => !types.includes(t));
			if (missing.length)
				throw new Error(
					`n8n installed ${pkg.name}@${installed.installedVersion} without ${missing.join(', ')} (it lists ${types.join(', ')})`,
				);
		}
		await waitForNodeTypes(client, expectNodeTypes);
		return { n8n, client, installed };
	} catch (e) {
		if (!e.n8nLogTail) e.message += `\n${n8n.tail(30)}`;
		await n8n.dispose();
		throw e;
	}
}

module.exports = { publishPackage, startN8nWithPackage, waitForNodeTypes };
