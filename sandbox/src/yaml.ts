/**
 * Minimal YAML writer for JSON-compatible values (block style). Strings are written as
 * double-quoted scalars (JSON string syntax is valid YAML), so no value can change meaning.
 */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

function key(name: string): string {
	return PLAIN_KEY.test(name) && !RESERVED.test(name) ? name : JSON.stringify(name);
}

function scalar(value: unknown): string {
	if (value === null || value === undefined) return 'null';
	if (typeof value === 'string') return JSON.stringify(value);
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
	return String(value);
}

function isEmptyCollection(value: unknown): boolean {
	return (
		(Array.isArray(value) && value.length === 0) ||
		(typeof value === 'object' && value !== null && Object.keys(value).length === 0)
	);
}

function write(value: unknown, indent: string, lines: string[]): void {
	if (Array.isArray(value)) {
		for (const item of value) {
			if (typeof item === 'object' && item !== null && !isEmptyCollection(item)) {
				const nested: string[] = [];
				write(item, `${indent}  `, nested);
				lines.push(`${indent}- ${nested[0].trimStart()}`, ...nested.slice(1));
			} else {
				lines.push(
					`${indent}- ${isEmptyCollection(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`,
				);
			}
		}
		return;
	}
	for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
		if (item === undefined) continue;
		if (isEmptyCollection(item))
			lines.push(`${indent}${key(name)}: ${Array.isArray(item) ? '[]' : '{}'}`);
		else if (typeof item === 'object' && item !== null) {
			lines.push(`${indent}${key(name)}:`);
			write(item, Array.isArray(item) ? indent : `${indent}  `, lines);
		} else lines.push(`${indent}${key(name)}: ${scalar(item)}`);
	}
}

export function toYaml(value: unknown): string {
	if (typeof value !== 'object' || value === null) return `${scalar(value)}\n`;
	if (isEmptyCollection(value)) return Array.isArray(value) ? '[]\n' : '{}\n';
	const lines: string[] = [];
	write(value, '', lines);
	return `${lines.join('\n')}\n`;
}
