/** docs/cli.md is generated from the command definitions: it fails here when a command changed and the page was not regenerated. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { DOC, renderCliDoc } from "../../scripts/gen-docs-cli.ts";

test("docs/cli.md is what `bun scripts/gen-docs-cli.ts` writes from the command definitions", async () => {
	const written = readFileSync(DOC, "utf8");
	const wanted = await renderCliDoc();
	if (written !== wanted) throw new Error("docs/cli.md is stale: run `bun scripts/gen-docs-cli.ts` and commit docs/cli.md");
	expect(written).toBe(wanted);
	// Every command's help is in it, each line within 80 columns inside its text block.
	expect(written).toContain("## `guard explain`");
	const blocks = written
		.split("```text\n")
		.slice(1)
		.map((b) => b.split("\n```")[0] ?? "");
	expect(blocks.flatMap((b) => b.split("\n")).filter((line) => Bun.stringWidth(line) > 80)).toEqual([]);
}, 60_000);
