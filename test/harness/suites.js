// The `jest --filter` of `npm run test:unit` and `npm run test:engine` (SUITES=unit|engine): a
// suite is of the engine half when it loads n8n-core, itself or through the test modules it
// imports. Loading n8n-core costs a suite about a second, and each node run then spends most of its
// time in n8n's expression engine; the unit half runs in about half a minute.
const { existsSync, readFileSync } = require('node:fs');
const { dirname, resolve } = require('node:path');

const wanted = process.env.SUITES;
if (wanted !== 'unit' && wanted !== 'engine')
	throw new Error(`SUITES must be unit or engine, not ${JSON.stringify(wanted)}`);

function loadsEngine(file, seen = new Set()) {
	if (seen.has(file)) return false;
	seen.add(file);
	const source = readFileSync(file, 'utf8');
	if (/from 'n8n-core[/']/.test(source)) return true;
	return [...source.matchAll(/from '(\.[^']*)'/g)]
		.map(([, path]) => resolve(dirname(file), `${path}.ts`))
		.some((path) => existsSync(path) && !path.includes('/nodes/') && loadsEngine(path, seen));
}

module.exports = async (paths) => ({
	filtered: paths.filter((path) => loadsEngine(path) === (wanted === 'engine')),
});
