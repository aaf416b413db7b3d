/**
 * The README is a short front page and every page of docs/ is reachable from it; no relative link in the
 * README or docs/ points at a page or heading that is not there.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { anchors, docsPages, EXPECTED_FROM_OTHER_BRANCHES, ROOT, read, relativeLinks } from "./_markdown.ts";

const PAGES = ["README.md", ...docsPages()];

test("the README is under 250 lines", () => {
	expect(read("README.md").split("\n").length).toBeLessThan(250);
});

test("every page of docs/ is linked from the README", () => {
	const linked = new Set(relativeLinks("README.md").map((link) => link.path));
	expect(docsPages().filter((page) => !linked.has(page))).toEqual([]);
});

test("every relative link in the README and docs/ resolves, anchors included", () => {
	const broken: string[] = [];
	for (const page of PAGES) {
		for (const link of relativeLinks(page)) {
			const target = link.path === "" ? page : link.path;
			if (!existsSync(join(ROOT, target))) {
				if (!EXPECTED_FROM_OTHER_BRANCHES.includes(target)) broken.push(`${page}: ${link.target} (no such file)`);
				continue;
			}
			if (link.anchor && target.endsWith(".md") && !anchors(target).has(link.anchor))
				broken.push(`${page}: ${link.target} (no heading with that anchor)`);
		}
	}
	expect(broken).toEqual([]);
});

test("the pages expected from other branches are not here yet (empty the list once they are)", () => {
	expect(EXPECTED_FROM_OTHER_BRANCHES.filter((page) => existsSync(join(ROOT, page)))).toEqual([]);
});
