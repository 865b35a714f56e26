import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');

export const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	homepage: string;
	bugs: { url: string };
	repository: { url: string };
	scripts: Record<string, string>;
};

/** `https://github.com/<owner>/<name>`, from package.json's repository. */
export const REPO_URL = packageJson.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

/** The documents the link test covers, relative to the repository root. */
export function documents(): string[] {
	const docs = readdirSync(join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`);
	return ['README.md', 'ARCHITECTURE.md', ...docs];
}

/** The text outside fenced code blocks, line by line (code lines become empty). */
function proseLines(markdown: string): string[] {
	let fenced = false;
	return markdown.split('\n').map((line) => {
		if (/^\s*(```|~~~)/.test(line)) {
			fenced = !fenced;
			return '';
		}
		return fenced ? '' : line;
	});
}

/** GitHub's anchor for a heading: the rendered text, lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of every heading of a document, with GitHub's -1, -2 suffixes for repeats. */
export function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const line of proseLines(markdown)) {
		const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!m) continue;
		const slug = githubSlug(m[1]);
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		result.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return result;
}

/** Every inline link and image target outside code (`[text](target)`, `![alt](target)`). */
export function links(markdown: string): string[] {
	const targets: string[] = [];
	for (const line of proseLines(markdown)) {
		const prose = line.replace(/`[^`]*`/g, '');
		for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
			targets.push(m[1]);
	}
	return targets;
}

/**
 * The repository file (relative to the root) and anchor a link points at, or undefined for a link
 * outside the repository. Understands relative links (from `fromFile`) and absolute links into this
 * repository on GitHub (`<repo>#anchor`, `<repo>/blob/main/<path>`, `<repo>/tree/main/<path>`,
 * raw.githubusercontent.com).
 */
export function target(
	link: string,
	fromFile: string,
): { file: string; anchor?: string } | undefined {
	const [address, anchor] = link.split('#', 2) as [string, string | undefined];
	const raw = REPO_URL.replace('https://github.com/', 'https://raw.githubusercontent.com/');
	let file: string | undefined;
	if (address === '') file = fromFile;
	else if (address === REPO_URL || address === `${REPO_URL}/`) file = 'README.md';
	else if (address.startsWith(`${REPO_URL}/blob/main/`))
		file = address.slice(`${REPO_URL}/blob/main/`.length);
	else if (address.startsWith(`${REPO_URL}/tree/main/`))
		file = address.slice(`${REPO_URL}/tree/main/`.length);
	else if (address.startsWith(`${raw}/main/`)) file = address.slice(`${raw}/main/`.length);
	else if (/^[a-z][a-z0-9+.-]*:/i.test(address)) return undefined;
	else file = relative(ROOT, resolve(ROOT, dirname(fromFile), decodeURIComponent(address)));
	return { file: file.replace(/\/$/, ''), anchor: anchor || undefined };
}

/** What is wrong with a link from `fromFile`, or undefined when it resolves. */
export function brokenLink(link: string, fromFile: string): string | undefined {
	const to = target(link, fromFile);
	if (!to) return undefined;
	if (to.file.startsWith('..') || !existsSync(join(ROOT, to.file)))
		return `${fromFile}: ${link}: no file ${to.file}`;
	// "#readme" is GitHub's anchor for the README shown on a repository's front page.
	if (!to.anchor || (to.anchor === 'readme' && to.file === 'README.md')) return undefined;
	if (!to.file.endsWith('.md'))
		return `${fromFile}: ${link}: an anchor into ${to.file}, which is not Markdown`;
	if (!anchors(readFileSync(join(ROOT, to.file), 'utf8')).has(to.anchor)) {
		return `${fromFile}: ${link}: ${to.file} has no heading with the anchor #${to.anchor}`;
	}
	return undefined;
}
