/**
 * Reading the README and docs/ for the docs tests: the pages, their relative links, the anchors
 * GitHub gives their headings, and their fenced blocks.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export const ROOT = join(import.meta.dir, "..", "..");

/**
 * Pages other branches write, linked from here before they exist on this branch. The lead empties this
 * list once those branches are merged; a page listed here that exists fails the link test, so the list
 * cannot outlive its reason.
 */
export const EXPECTED_FROM_OTHER_BRANCHES: readonly string[] = [];

/** Every markdown page of docs/, as paths relative to the repository root, sorted. */
export function docsPages(): string[] {
	const found: string[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
			const path = `${dir}/${entry.name}`;
			if (entry.isDirectory()) walk(path);
			else if (entry.name.endsWith(".md")) found.push(path);
		}
	};
	walk("docs");
	return found.sort();
}

export const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");

/** The text outside fenced blocks and inline code, where links are links. */
function prose(markdown: string): string {
	return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").replace(/`[^`\n]*`/g, "");
}

export interface Link {
	/** The link target as written. */
	target: string;
	/** The repository path it names (resolved against the page's folder), `""` for a link within the page. */
	path: string;
	anchor: string | undefined;
}

/** The relative links of a page (`[text](target)`); links with a scheme (`https:`) and `mailto:` are left out. */
export function relativeLinks(page: string): Link[] {
	const links: Link[] = [];
	for (const match of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
		const target = match[1] as string;
		if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
		const [file = "", anchor] = target.split("#");
		const folder = page.includes("/") ? page.slice(0, page.lastIndexOf("/")) : "";
		const path = file === "" ? "" : relative(ROOT, join(ROOT, folder, file));
		links.push({ target, path, anchor });
	}
	return links;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to `-`. */
export function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, "")
		.replace(/\s/g, "-");
}

/** The anchors of a page's headings (a repeated heading gets `-1`, `-2`…, as on GitHub). */
export function anchors(page: string): Set<string> {
	const seen = new Map<string, number>();
	const out = new Set<string>();
	const text = read(page).replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
	for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
		const base = slug(match[1] as string);
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		out.add(n === 0 ? base : `${base}-${n}`);
	}
	return out;
}

export interface Block {
	page: string;
	/** The info string after the opening fence: `sh`, `console`, `ts`… */
	lang: string;
	/** 1-based line of the opening fence. */
	line: number;
	text: string;
}

/** Every fenced block of a page (its text read from the repository unless given). */
export function blocks(page: string, text = read(page)): Block[] {
	const out: Block[] = [];
	const lines = text.split("\n");
	for (let i = 0; i < lines.length; i++) {
		const open = /^```(\S*)\s*$/.exec(lines[i] as string);
		if (!open) continue;
		const start = i;
		const body: string[] = [];
		for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i] as string);
		out.push({ page, lang: open[1] as string, line: start + 1, text: body.join("\n") });
	}
	return out;
}

/** The block as a script: `set -e`, continuation lines joined, `# exit N` lines checked for that code. */
export function shellScript(block: Block): string {
	const logical = block.text.replace(/\\\n/g, " ").split("\n");
	const lines = logical.map((line, i) => {
		const expected = /\s#\s*exit (\d+)\b.*$/.exec(line);
		if (!expected) return line;
		const command = line.slice(0, expected.index);
		const where = `${block.page}:${block.line + 1 + i}`;
		return `if ${command}; then __rc=0; else __rc=$?; fi; [ "$__rc" = ${expected[1]} ] || { echo "${where}: exit $__rc, the docs say ${expected[1]}" >&2; exit 97; }`;
	});
	return `set -e\n${lines.join("\n")}\n`;
}
