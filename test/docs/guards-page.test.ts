/** docs/guards.md's pack sections are generated from the packs and kept current (`bun scripts/gen-docs-guards.ts`). */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { DEFAULT_PACKS, PACKS } from "../../src/guards/packs/index.ts";
import { expectedPage, GUARDS_PAGE, MARKER } from "../../scripts/gen-docs-guards.ts";

const page = readFileSync(GUARDS_PAGE, "utf8");

test("docs/guards.md is what bun scripts/gen-docs-guards.ts writes from the packs", () => {
	expect(page).toContain(MARKER);
	expect(page === expectedPage(page)).toBe(true);
});

test("every pack has its section and every rule its row", () => {
	for (const [name, pack] of Object.entries(PACKS)) {
		expect(page).toContain(`### ${name}\n`);
		for (const rule of pack.rules) expect(page).toContain(`| \`${rule.id}\` |`);
	}
	expect(DEFAULT_PACKS.length).toBeGreaterThan(0);
});
