import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEditTool } from "../../src/tools/edit.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

const SOURCE = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";

function setup(content = SOURCE) {
	const dir = tempDir();
	writeFiles(dir, { "f.txt": content });
	return { dir, path: join(dir, "f.txt"), tool: createEditTool(dir) };
}

describe("edit tool", () => {
	test("replaces the single occurrence and returns a diff with context", async () => {
		const { path, tool } = setup();
		const result = await tool.execute("1", { path: "f.txt", oldText: "e\n", newText: "E\nE2\n" });
		expect(readFileSync(path, "utf8")).toBe("a\nb\nc\nd\nE\nE2\nf\ng\nh\ni\n");
		const diff = [`--- ${path}`, `+++ ${path}`, "@@ -2,7 +2,8 @@", " b", " c", " d", "-e", "+E", "+E2", " f", " g", " h"].join("\n");
		expect(result.details).toEqual({ path, diff });
		expect(result.content).toEqual([{ type: "text", text: `Edited ${path}\n${diff}` }]);
	});

	test("the diff shows only the lines that changed, at the file's edges too", async () => {
		const { path, tool } = setup();
		const result = await tool.execute("1", { path: "f.txt", oldText: "a\nb\nc", newText: "a\nB\nc" });
		expect(result.details?.diff.split("\n").slice(2)).toEqual(["@@ -1,5 +1,5 @@", " a", "-b", "+B", " c", " d", " e"]);
		expect(readFileSync(path, "utf8")).toStartWith("a\nB\nc\n");
	});

	test("newText is inserted literally ($ patterns are not expanded)", async () => {
		const { path, tool } = setup("price = X;\n");
		await tool.execute("1", { path: "f.txt", oldText: "X", newText: "$& $1 $$" });
		expect(readFileSync(path, "utf8")).toBe("price = $& $1 $$;\n");
	});

	test("zero matches: error naming the path, file byte-identical", async () => {
		const { path, tool } = setup();
		await expect(tool.execute("1", { path: "f.txt", oldText: "zzz", newText: "y" })).rejects.toThrow(`oldText not found in ${path}`);
		expect(readFileSync(path, "utf8")).toBe(SOURCE);
	});

	test("a CRLF file gets a hint when oldText uses LF", async () => {
		const { path, tool } = setup("one\r\ntwo\r\n");
		await expect(tool.execute("1", { path: "f.txt", oldText: "one\ntwo", newText: "x" })).rejects.toThrow("CRLF");
		expect(readFileSync(path, "utf8")).toBe("one\r\ntwo\r\n");
	});

	test("several matches: error with the count asking for context, file byte-identical", async () => {
		const { dir, path, tool } = setup("x = 1;\nx = 1;\nx = 1;\n");
		await expect(tool.execute("1", { path: "f.txt", oldText: "x = 1;", newText: "x = 2;" })).rejects.toThrow(
			/oldText matches 3 times in .*f\.txt; it must match exactly once\. Add surrounding context/,
		);
		expect(readFileSync(path, "utf8")).toBe("x = 1;\nx = 1;\nx = 1;\n");
		expect(readdirSync(dir)).toEqual(["f.txt"]);
	});

	test("overlapping matches count as several", async () => {
		const { tool } = setup("aaa");
		await expect(tool.execute("1", { path: "f.txt", oldText: "aa", newText: "b" })).rejects.toThrow("matches 2 times");
	});

	test("identical oldText and newText is an error", async () => {
		const { tool } = setup();
		await expect(tool.execute("1", { path: "f.txt", oldText: "a", newText: "a" })).rejects.toThrow("newText is identical to oldText");
	});

	test("writes atomically: the mode is kept and no temporary file is left", async () => {
		const { dir, path, tool } = setup("#!/bin/sh\necho old\n");
		chmodSync(path, 0o755);
		await tool.execute("1", { path: "f.txt", oldText: "old", newText: "new" });
		expect(readFileSync(path, "utf8")).toBe("#!/bin/sh\necho new\n");
		expect(statSync(path).mode & 0o777).toBe(0o755);
		expect(readdirSync(dir)).toEqual(["f.txt"]);
	});

	test("missing files and directories are errors naming the path", async () => {
		const { dir, tool } = setup();
		mkdirSync(join(dir, "sub"));
		await expect(tool.execute("1", { path: "nope.txt", oldText: "a", newText: "b" })).rejects.toThrow(
			`File not found: ${join(dir, "nope.txt")}`,
		);
		await expect(tool.execute("1", { path: "sub", oldText: "a", newText: "b" })).rejects.toThrow("is a directory");
	});

	test("invalid input is rejected naming the field", async () => {
		const { path, tool } = setup();
		await expect(tool.execute("1", { path: "f.txt", oldText: "", newText: "x" })).rejects.toThrow("edit input.oldText");
		await expect(tool.execute("1", { path: "f.txt", oldText: "a" } as never)).rejects.toThrow(
			"edit input.newText: expected required property",
		);
		await expect(tool.execute("1", { path: "f.txt", old_string: "a", newText: "b", oldText: "a" } as never)).rejects.toThrow(
			"edit input.old_string: unexpected property",
		);
		expect(readFileSync(path, "utf8")).toBe(SOURCE);
	});
});

describe("edit tool encodings", () => {
	test("invalid UTF-8 is refused and left byte-identical; a BOM survives an edit", async () => {
		const dir = tempDir();
		const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1
		writeFileSync(join(dir, "latin1.txt"), latin1);
		writeFileSync(join(dir, "bom.txt"), "\uFEFFkey=old\n");
		const tool = createEditTool(dir);
		await expect(tool.execute("1", { path: "latin1.txt", oldText: "caf", newText: "x" })).rejects.toThrow("is not valid UTF-8");
		expect(readFileSync(join(dir, "latin1.txt"))).toEqual(latin1);
		await tool.execute("1", { path: "bom.txt", oldText: "old", newText: "new" });
		expect(readFileSync(join(dir, "bom.txt"), "utf8")).toBe("\uFEFFkey=new\n");
	});
});
