/**
 * Code cites pages of docs/, never a document outside the repository (the behaviour contract and the
 * agents' protocols now live in docs/contract.md and docs/agents/), and every docs/ page and anchor it
 * cites is there.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { anchors, EXPECTED_FROM_OTHER_BRANCHES, ROOT } from "./_markdown.ts";

const FOLDERS = ["src", "scripts", "test", "test-agents"];
const SKIP = new Set(["node_modules", ".cache", "corpus"]);

function sources(): string[] {
	const out: string[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			if (SKIP.has(entry.name)) continue;
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (/\.(ts|mts|mjs|js|txt|md)$/.test(entry.name)) out.push(path);
		}
	};
	for (const folder of FOLDERS) walk(join(ROOT, folder));
	return out;
}

// Built from pieces, so this file does not match itself.
const OUTSIDE = new RegExp(["SPEC(\\.md)?\\s*§", "SPEC\\.md", "PROTO" + "COLS"].join("|"));

test("no source, script or test cites the contract or the protocols outside the repository", () => {
	const found: string[] = [];
	for (const file of sources()) {
		readFileSync(file, "utf8")
			.split("\n")
			.forEach((line, i) => {
				if (OUTSIDE.test(line)) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
			});
	}
	expect(found).toEqual([]);
});

test("every docs/ page and anchor the code cites exists", () => {
	const broken: string[] = [];
	for (const file of sources()) {
		const text = readFileSync(file, "utf8");
		for (const match of text.matchAll(/docs\/([\w/.-]+\.md)((?:#[\w-]+)(?:, #[\w-]+)*)?/g)) {
			const page = `docs/${match[1]}`;
			if (!existsSync(join(ROOT, page))) {
				if (!EXPECTED_FROM_OTHER_BRANCHES.includes(page)) broken.push(`${relative(ROOT, file)}: ${page}`);
				continue;
			}
			const have = anchors(page);
			for (const anchor of (match[2] ?? "").match(/#[\w-]+/g) ?? [])
				if (!have.has(anchor.slice(1))) broken.push(`${relative(ROOT, file)}: ${page}${anchor}`);
		}
	}
	expect(broken).toEqual([]);
});
