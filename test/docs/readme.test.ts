// What a test can check of the README's promises to a new user: the scopes table names every
// node the package ships, and every queue-mode setting the docs name comes with its unit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { documents, packageJson, ROOT } from './markdown';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The display name of each node of package.json's `n8n.nodes`, read from its source. */
function nodeNames(): string[] {
	const { n8n } = packageJson as unknown as { n8n: { nodes: string[] } };
	return n8n.nodes.map((built) => {
		const source = built.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		const m = /displayName: '([^']+)'/.exec(read(source));
		if (!m) throw new Error(`${source}: no displayName`);
		return m[1];
	});
}

/** The README's table whose header names the scopes read operations need. */
function scopesTable(): string {
	const lines = read('README.md').split('\n');
	const start = lines.findIndex(
		(line) => line.startsWith('|') && /Read operations need/.test(line),
	);
	if (start < 0) return '';
	let end = start;
	while (end < lines.length && lines[end].startsWith('|')) end++;
	return lines.slice(start, end).join('\n');
}

test('the scopes table names every node the package ships, in bold', () => {
	const names = nodeNames();
	expect(names).toHaveLength(3);
	const rows = scopesTable();
	expect(rows).not.toBe('');
	expect(names.filter((name) => !rows.includes(`**${name}**`))).toEqual([]);
});

test('the polling trigger row names the read scope of every list it watches', () => {
	const row =
		scopesTable()
			.split('\n')
			.find((line) => line.includes('**Business Ops Polling Trigger**')) ?? '';
	// each watched list's endpoint is /<resource>s
	const lists = [
		...read('nodes/BusinessOpsPollingTrigger/events.ts').matchAll(/resource: '(\w+)',/g),
	].map((m) => `${m[1]}s`);
	expect(lists).toEqual(['quotes', 'invoices', 'requests', 'contacts']);
	expect(lists.filter((list) => !row.includes(`\`${list}.read\``))).toEqual([]);
});

/** n8n's queue-mode settings and their units (n8n 2.41: Bull's settings in ms, shutdown in s). */
const UNITS: Array<[string, RegExp]> = [
	['QUEUE_WORKER_LOCK_DURATION', /\bms\b|milliseconds/],
	['QUEUE_WORKER_LOCK_RENEW_TIME', /\bms\b|milliseconds/],
	['QUEUE_WORKER_STALLED_INTERVAL', /\bms\b|milliseconds/],
	['N8N_GRACEFUL_SHUTDOWN_TIMEOUT', /\bseconds\b/],
	['N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL', /\bminutes\b/],
];

test('every mention of a queue-mode setting in the docs gives its unit beside it', () => {
	const withoutUnit = UNITS.flatMap(([name, unit]) => missingUnit(name, unit));
	expect(withoutUnit).toEqual([]);
});

function missingUnit(name: string, unit: RegExp): string[] {
	const mentions = [...documents(), 'bench/README.md'].flatMap((file) =>
		read(file)
			.split('\n')
			.map((line, i) => ({ where: `${file}:${i + 1}`, line }))
			.filter(({ line }) => line.includes(name)),
	);
	// Each mention's unit must come right after the name: before the next setting's name or the sentence's end.
	const withoutUnit = mentions.filter(({ line }) =>
		line
			.split(name)
			.slice(1)
			.some((after) => !unit.test(after.slice(0, 80).split(/`?(?:QUEUE_WORKER_|N8N_)|\. /)[0])),
	);
	if (name.startsWith('QUEUE_WORKER') && mentions.length === 0) return [`${name}: named nowhere`];
	return withoutUnit.map(({ where }) => `${where}: ${name}`);
}
